import type { Db } from "../../db/index";

/** Database reads behind the picture cookie: does its user own the chat. */
export class ContentAccessRepo {
  constructor(private readonly db: Db) {}

  /** Whether `chatKey` is a character or a group chat of `userId`. */
  async ownsChat(userId: string, chatKey: string): Promise<boolean> {
    const character = await this.db
      .selectFrom("characters")
      .select("id")
      .where("id", "=", chatKey)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    if (character) return true;
    const group = await this.db
      .selectFrom("chat_groups")
      .select("id")
      .where("id", "=", chatKey)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    return group !== undefined;
  }
}
