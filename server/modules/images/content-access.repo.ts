import type { Db } from "../../db/index";

/** Database reads behind the picture cookie: is its session still open, does its user own the chat. */
export class ContentAccessRepo {
  constructor(private readonly db: Db) {}

  /**
   * Whether `userId` has an unexpired session whose bearer hashes to `tokenHash` (the
   * `auth_tokens.token_hash` the sign-in stored) and is not blocked (issue 9). Logout, a password
   * change or reset and an admin block remove the row or block the user, so this turns false.
   * @param now epoch milliseconds.
   */
  async sessionIsOpen(userId: string, tokenHash: string, now: number): Promise<boolean> {
    const row = await this.db
      .selectFrom("auth_tokens")
      .innerJoin("users", "users.id", "auth_tokens.user_id")
      .select("auth_tokens.id")
      .where("auth_tokens.token_hash", "=", tokenHash)
      .where("auth_tokens.user_id", "=", userId)
      .where("auth_tokens.expires_at", ">", now)
      .where("users.blocked", "=", 0)
      .executeTakeFirst();
    return row !== undefined;
  }

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
