// Database access of the admin console: plans, presets, user search and changes, contact messages, free subscriptions, the audit log.
import type { Insertable, Updateable } from "kysely";
import type { Db } from "../../db/index";
import type { AdminAuditTable, PlansTable, PresetCharactersTable, UsersTable } from "../../db/schema";

/** Database access of the admin console. */
export class AdminRepo {
  constructor(readonly db: Db) {}

  /** Plans in display order with how many users are on each. */
  plansWithUsers() {
    return this.db
      .selectFrom("plans")
      .leftJoin("users", "users.plan_id", "plans.id")
      .selectAll("plans")
      .select((eb) => eb.fn.count<number>("users.id").as("user_count"))
      .groupBy("plans.id")
      .orderBy("plans.sort_order")
      .execute();
  }

  async updatePlan(id: string, fields: Updateable<PlansTable>): Promise<boolean> {
    if (Object.keys(fields).length === 0) return true;
    const result = await this.db.updateTable("plans").set(fields).where("id", "=", id).executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  presets() {
    return this.db.selectFrom("preset_characters").selectAll().orderBy("sort_order").execute();
  }

  findPreset(id: string) {
    return this.db.selectFrom("preset_characters").selectAll().where("id", "=", id).executeTakeFirst();
  }

  async nextPresetOrder(): Promise<number> {
    const row = await this.db
      .selectFrom("preset_characters")
      .select((eb) => eb.fn.max("sort_order").as("m"))
      .executeTakeFirst();
    return Number(row?.m ?? -1) + 1;
  }

  async insertPreset(row: Insertable<PresetCharactersTable>): Promise<void> {
    await this.db.insertInto("preset_characters").values(row).execute();
  }

  async updatePreset(id: string, fields: Updateable<PresetCharactersTable>): Promise<void> {
    if (Object.keys(fields).length === 0) return;
    await this.db.updateTable("preset_characters").set(fields).where("id", "=", id).execute();
  }

  languageExists(id: string) {
    return this.db.selectFrom("languages").select("id").where("id", "=", id).executeTakeFirst();
  }

  voiceExists(name: string) {
    return this.db.selectFrom("voices").select("name").where("name", "=", name).executeTakeFirst();
  }

  /** Users whose e-mail, full name or user name contains `query` (case-insensitive), newest first. */
  searchUsers(query: string, limit: number) {
    let select = this.db
      .selectFrom("users")
      .innerJoin("plans", "plans.id", "users.plan_id")
      .selectAll("users")
      .select("plans.name as plan_name")
      .where("users.is_demo", "=", 0);
    if (query) {
      const like = `%${query.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      select = select.where((eb) =>
        eb.or([
          eb(eb.fn("lower", ["users.email"]), "like", like),
          eb(eb.fn("lower", ["users.full_name"]), "like", like),
          eb(eb.fn("lower", ["users.user_name"]), "like", like),
        ]),
      );
    }
    return select.orderBy("users.created_at", "desc").limit(limit).execute();
  }

  findUser(id: string) {
    return this.db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
  }

  async updateUser(id: string, fields: Updateable<UsersTable>): Promise<void> {
    await this.db.updateTable("users").set(fields).where("id", "=", id).execute();
  }

  /** Deletes every session token and every registered device of the user, in one transaction. */
  async revokeAccessOfUser(id: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom("devices").where("user_id", "=", id).execute();
      await trx.deleteFrom("auth_tokens").where("user_id", "=", id).execute();
    });
  }

  /**
   * Turns off the user's check-ins of every character (the `checkin_settings` opt-ins; the time
   * zone is kept, so turning one on again in the chat shows it). @param now epoch ms.
   */
  async turnOffCheckins(userId: string, now: number): Promise<void> {
    await this.db
      .updateTable("checkin_settings")
      .set({ enabled: 0, next_check_at: 0, updated_at: now })
      .where("user_id", "=", userId)
      .where("enabled", "=", 1)
      .execute();
  }

  contactMessages(limit: number) {
    return this.db
      .selectFrom("contact_messages")
      .selectAll()
      .orderBy("created_at", "desc")
      .limit(limit)
      .execute();
  }

  freeSubscriptions(limit: number) {
    return this.db
      .selectFrom("free_subscriptions")
      .selectAll()
      .orderBy("created_at", "desc")
      .limit(limit)
      .execute();
  }

  async insertAudit(row: Insertable<AdminAuditTable>): Promise<void> {
    await this.db.insertInto("admin_audit").values(row).execute();
  }

  audit(limit: number) {
    return this.db.selectFrom("admin_audit").selectAll().orderBy("created_at", "desc").limit(limit).execute();
  }
}
