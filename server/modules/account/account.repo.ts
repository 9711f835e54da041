import type { Db } from "../../db/index";
import type { User } from "../../db/schema";

/** Database access for password reset codes. */
export class AccountRepo {
  constructor(private readonly db: Db) {}

  /** A member account (not a demo user) by normalised e-mail. */
  findMemberByEmail(email: string): Promise<User | undefined> {
    return this.db
      .selectFrom("users")
      .selectAll()
      .where("email", "=", email)
      .where("is_demo", "=", 0)
      .executeTakeFirst();
  }

  async insertReset(row: {
    id: string;
    user_id: string;
    code_hash: string;
    expires_at: number;
    created_at: number;
  }) {
    await this.db
      .insertInto("password_resets")
      .values({ ...row, used_at: null })
      .execute();
  }

  /**
   * Uses a reset code: marks it used if it exists, is unused and unexpired, in one statement so a
   * code works once even under concurrent requests. @returns the account's id, or undefined.
   */
  async consumeReset(codeHash: string, now: number): Promise<string | undefined> {
    const row = await this.db
      .updateTable("password_resets")
      .set({ used_at: now })
      .where("code_hash", "=", codeHash)
      .where("used_at", "is", null)
      .where("expires_at", ">", now)
      .returning("user_id")
      .executeTakeFirst();
    return row?.user_id;
  }

  /** Voids the user's other unused codes (only the newest link works). */
  async voidResets(userId: string, now: number): Promise<void> {
    await this.db
      .updateTable("password_resets")
      .set({ used_at: now })
      .where("user_id", "=", userId)
      .where("used_at", "is", null)
      .execute();
  }
}
