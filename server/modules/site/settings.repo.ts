// Database access of the site-wide settings (site_settings: one row per key) and the audit line of a change.
import type { Db } from "../../db/index";
import type { User } from "../../db/schema";
import { auditEntry } from "../../db/user-queries";

/** Reads and writes `site_settings` rows (a key and its text value). */
export class SiteSettingsRepo {
  constructor(private readonly db: Db) {}

  /** The stored value of `key`, or undefined when it was never written. */
  async get(key: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom("site_settings")
      .select("value")
      .where("key", "=", key)
      .executeTakeFirst();
    return row?.value;
  }

  /** Writes `value` under `key` only when the key has no row yet (several instances may start at once). */
  async insertIfAbsent(key: string, value: string, now: number): Promise<void> {
    await this.db
      .insertInto("site_settings")
      .values({ key, value, updated_at: now })
      .onConflict((oc) => oc.column("key").doNothing())
      .execute();
  }

  /** Writes `value` under `key`, replacing what was there. */
  async put(key: string, value: string, now: number): Promise<void> {
    await this.db
      .insertInto("site_settings")
      .values({ key, value, updated_at: now })
      .onConflict((oc) => oc.column("key").doUpdateSet({ value, updated_at: now }))
      .execute();
  }

  /** Writes one line of the admin console's audit log. */
  async audit(admin: Pick<User, "id" | "email">, action: string, target: string, details: object) {
    await this.db
      .insertInto("admin_audit")
      .values(auditEntry(admin, action, target, details))
      .execute();
  }
}
