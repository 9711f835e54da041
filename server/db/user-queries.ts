// Queries and rows on accounts that several modules share: a member by e-mail, a taken e-mail, an audit line.
import { randomUUID } from "node:crypto";
import type { Db } from "./index";
import type { AdminAuditTable, User } from "./schema";

/**
 * The member account (not a demo guest) with this e-mail, or undefined.
 * @param email normalised (trimmed, lower case) by the caller, as every stored e-mail is.
 */
export function findMemberByEmail(db: Db, email: string): Promise<User | undefined> {
  return db
    .selectFrom("users")
    .selectAll()
    .where("email", "=", email)
    .where("is_demo", "=", 0)
    .executeTakeFirst();
}

/** The id of the account, demo or not, with this e-mail (the column is unique), or undefined. */
export async function accountIdByEmail(db: Db, email: string): Promise<string | undefined> {
  const row = await db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirst();
  return row?.id;
}

/**
 * One line of the admin console's "Audit log" (the `admin_audit` table): who did what to which
 * id, with the fields sent as JSON (never a secret: the caller passes only what may be shown).
 * @param now epoch ms of the action.
 */
export function auditEntry(
  admin: Pick<User, "id" | "email">,
  action: string,
  target: string,
  details: object,
  now: number = Date.now(),
): AdminAuditTable {
  return {
    id: randomUUID(),
    admin_id: admin.id,
    admin_email: admin.email,
    action,
    target,
    details: JSON.stringify(details),
    created_at: now,
  };
}
