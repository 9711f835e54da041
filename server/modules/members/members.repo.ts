// Database access of self-hosted accounts: admins, set-up tokens, invitations and sign-up codes.
import type { Kysely, Selectable } from "kysely";
import type { Database, User } from "../../db/schema";
import type { InvitationsTable, SignupCodesTable } from "../../db/schema-accounts";
import { accountIdByEmail, auditEntry, findMemberByEmail } from "../../db/user-queries";

/** An invitation row. */
export type Invitation = Selectable<InvitationsTable>;
/** A pending sign-up code row. */
export type SignupCode = Selectable<SignupCodesTable>;

/** An account as the `users list` command and the console show it. */
export interface AccountSummary {
  id: string;
  email: string;
  full_name: string;
  role: string;
  blocked: number;
  created_at: number;
}

/** Queries of the members module (the owner set-up, invitations, sign-up, the users CLI). */
export class MembersRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Whether any account has the admin role. */
  async adminExists(): Promise<boolean> {
    const row = await this.db
      .selectFrom("users")
      .select("id")
      .where("role", "=", "admin")
      .where("is_demo", "=", 0)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** The member (not a demo guest) with this normalised e-mail. */
  findMember(email: string): Promise<User | undefined> {
    return findMemberByEmail(this.db, email);
  }

  /** Whether any user, demo or not, has this e-mail (the column is unique). */
  async emailTaken(email: string): Promise<boolean> {
    return (await accountIdByEmail(this.db, email)) !== undefined;
  }

  /** Sets a user's role ("user" or "admin"). */
  async setRole(userId: string, role: "user" | "admin"): Promise<void> {
    await this.db.updateTable("users").set({ role }).where("id", "=", userId).execute();
  }

  /** Every member account (no demo guests), oldest first. */
  listMembers(): Promise<AccountSummary[]> {
    return this.db
      .selectFrom("users")
      .select(["id", "email", "full_name", "role", "blocked", "created_at"])
      .where("is_demo", "=", 0)
      .orderBy("created_at", "asc")
      .execute();
  }

  /** The name of the plan sorted last (the most generous one), for the owner. */
  async topPlanName(): Promise<string | undefined> {
    const row = await this.db
      .selectFrom("plans")
      .select("name")
      .orderBy("sort_order", "desc")
      .limit(1)
      .executeTakeFirst();
    return row?.name;
  }

  /** Writes an admin action to the audit log (the admin console's "Audit log"). */
  async audit(
    admin: Pick<User, "id" | "email">,
    action: string,
    target: string,
    details: object,
  ): Promise<void> {
    await this.db
      .insertInto("admin_audit")
      .values(auditEntry(admin, action, target, details))
      .execute();
  }

  /** Stores a set-up token's hash. */
  async insertSetupToken(tokenHash: string, expiresAt: number, now: number): Promise<void> {
    await this.db
      .insertInto("setup_tokens")
      .values({ token_hash: tokenHash, expires_at: expiresAt, created_at: now })
      .execute();
  }

  /** Whether an unexpired set-up token has this hash. */
  async setupTokenExists(tokenHash: string, now: number): Promise<boolean> {
    const row = await this.db
      .selectFrom("setup_tokens")
      .select("token_hash")
      .where("token_hash", "=", tokenHash)
      .where("expires_at", ">", now)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Uses a set-up token: when an unexpired token has this hash, every set-up token is deleted in
   * the same statement (one owner per set of links). @returns whether the token was there.
   */
  async consumeSetupToken(tokenHash: string, now: number): Promise<boolean> {
    const result = await this.db
      .deleteFrom("setup_tokens")
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom("setup_tokens as given")
            .select("given.token_hash")
            .where("given.token_hash", "=", tokenHash)
            .where("given.expires_at", ">", now),
        ),
      )
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Removes every set-up token (once an admin exists) and the expired ones. */
  async deleteSetupTokens(onlyExpiredAt?: number): Promise<void> {
    let query = this.db.deleteFrom("setup_tokens");
    if (onlyExpiredAt !== undefined) query = query.where("expires_at", "<=", onlyExpiredAt);
    await query.execute();
  }

  /** Stores a new invitation. */
  async insertInvitation(row: Invitation): Promise<void> {
    await this.db.insertInto("invitations").values(row).execute();
  }

  /** The invitation with this id, whatever its state. */
  findInvitation(id: string): Promise<Invitation | undefined> {
    return this.db.selectFrom("invitations").selectAll().where("id", "=", id).executeTakeFirst();
  }

  /** Invitations not used, not revoked and not expired, newest first. */
  openInvitations(now: number): Promise<Invitation[]> {
    return this.db
      .selectFrom("invitations")
      .selectAll()
      .where("used_at", "is", null)
      .where("revoked_at", "is", null)
      .where("expires_at", ">", now)
      .orderBy("created_at", "desc")
      .execute();
  }

  /** Revokes an open invitation. @returns whether one was revoked. */
  async revokeInvitation(id: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable("invitations")
      .set({ revoked_at: now })
      .where("id", "=", id)
      .where("used_at", "is", null)
      .where("revoked_at", "is", null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Marks an open invitation used by `usedBy` (the e-mail). @returns whether this call used it (one use). */
  async redeemInvitation(id: string, usedBy: string, now: number): Promise<boolean> {
    const result = await this.db
      .updateTable("invitations")
      .set({ used_at: now, used_by: usedBy })
      .where("id", "=", id)
      .where("used_at", "is", null)
      .where("revoked_at", "is", null)
      .where("expires_at", ">", now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Replaces the pending sign-up code of an e-mail (an earlier code stops working). */
  async replaceSignupCode(row: SignupCode): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom("signup_codes").where("email", "=", row.email).execute();
      await trx.insertInto("signup_codes").values(row).execute();
    });
  }

  /**
   * Takes one try of the e-mail's unexpired code before it is compared, so parallel guesses
   * cannot pass the limit. @returns the code row when a try was left, else undefined.
   */
  async claimSignupTry(email: string, now: number, maxTries: number): Promise<SignupCode | undefined> {
    const result = await this.db
      .updateTable("signup_codes")
      .set((eb) => ({ tries: eb("tries", "+", 1) }))
      .where("email", "=", email)
      .where("expires_at", ">", now)
      .where("tries", "<", maxTries)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return undefined;
    return this.db.selectFrom("signup_codes").selectAll().where("email", "=", email).executeTakeFirst();
  }

  /** Deletes the e-mail's code with this hash. @returns whether this call removed it (used once). */
  async consumeSignupCode(email: string, codeHash: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom("signup_codes")
      .where("email", "=", email)
      .where("code_hash", "=", codeHash)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /** Removes expired sign-up codes. */
  async deleteExpiredSignupCodes(now: number): Promise<void> {
    await this.db.deleteFrom("signup_codes").where("expires_at", "<=", now).execute();
  }
}
