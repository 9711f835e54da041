// Database access of the profile: the plan's name, profile fields, the UI language and the 18+ confirmation.
import type { Db } from "../../db/index";
import type { User } from "../../db/schema";

/** Database access of the profile: the plan's name, profile fields, the 18+ confirmation. */
export class UsersRepo {
  constructor(private readonly db: Db) {}

  /** The name of a plan, undefined for an unknown id. */
  async planName(planId: string): Promise<string | undefined> {
    const plan = await this.db.selectFrom("plans").select("name").where("id", "=", planId).executeTakeFirst();
    return plan?.name;
  }

  /** Sets the profile fields and answers the updated user (undefined when it no longer exists). */
  async updateProfile(
    userId: string,
    fields: { full_name: string; user_name: string; picture: string },
  ): Promise<User | undefined> {
    await this.db.updateTable("users").set(fields).where("id", "=", userId).execute();
    return this.db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirst();
  }

  /** Stores the 18+ confirmation time (epoch ms) unless one is already stored. */
  async confirmAdult(userId: string, at: number): Promise<void> {
    await this.db
      .updateTable("users")
      .set({ adult_confirmed_at: at })
      .where("id", "=", userId)
      .where("adult_confirmed_at", "is", null)
      .execute();
  }

  /** Stores the UI language of the account ("" = the browser's). */
  async setUiLanguage(userId: string, language: string): Promise<void> {
    await this.db.updateTable("users").set({ ui_language: language }).where("id", "=", userId).execute();
  }
}
