// Database reads behind the picture cookie: whether its user owns a chat.
import type { Db } from "../../db/index";

/** Database reads behind the picture cookie: does its user own the chat. */
export class ContentAccessRepo {
  constructor(private readonly db: Db) {}

  /** Whether `chatKey` is a character or a group chat of `userId`. */
  async ownsChat(userId: string, chatKey: string): Promise<boolean> {
    // A character's chat is keyed by the character's id, a group's by the group's.
    for (const table of ["characters", "chat_groups"] as const) {
      const owned = await this.db
        .selectFrom(table)
        .select("id")
        .where("id", "=", chatKey)
        .where("user_id", "=", userId)
        .executeTakeFirst();
      if (owned) return true;
    }
    return false;
  }
}
