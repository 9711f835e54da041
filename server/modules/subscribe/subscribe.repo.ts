// Database access of free subscriptions (product.md §7): the requests, their codes and the video comment check.
import type { Selectable } from "kysely";
import type { Db } from "../../db/index";
import type { FreeSubscriptionsTable } from "../../db/schema";
import { accountIdByEmail } from "../../db/user-queries";

/** One free-subscription request as stored. */
export type FreeSubscription = Selectable<FreeSubscriptionsTable>;

/** Database access of free subscriptions (product.md §7: requests, their codes and the video check). */
export class SubscribeRepo {
  constructor(private readonly db: Db) {}

  /** Whether any account uses this e-mail (the id of that account). */
  async accountIdByEmail(email: string): Promise<string | undefined> {
    return accountIdByEmail(this.db, email);
  }

  /** The unexpired pending request of an e-mail at `now` (epoch ms). */
  findPending(email: string, now: number): Promise<FreeSubscription | undefined> {
    return this.db
      .selectFrom("free_subscriptions")
      .selectAll()
      .where("email", "=", email)
      .where("status", "=", "pending")
      .where("expires_at", ">", now)
      .executeTakeFirst();
  }

  async insert(row: FreeSubscription): Promise<void> {
    await this.db.insertInto("free_subscriptions").values(row).execute();
  }

  /** Marks pending requests past their expiry as expired. */
  async expirePending(now: number): Promise<void> {
    await this.db
      .updateTable("free_subscriptions")
      .set({ status: "expired" })
      .where("status", "=", "pending")
      .where("expires_at", "<=", now)
      .execute();
  }

  /** Up to `limit` pending requests due for a check and not leased, oldest check first. */
  due(now: number, limit: number): Promise<FreeSubscription[]> {
    return this.db
      .selectFrom("free_subscriptions")
      .selectAll()
      .where("status", "=", "pending")
      .where("next_check_at", "<=", now)
      .where("locked_until", "<=", now)
      .orderBy("next_check_at")
      .limit(limit)
      .execute();
  }

  /**
   * Leases a request until `until` (epoch ms) unless another process holds it.
   * @returns whether this process got the lease.
   */
  async lease(id: string, now: number, until: number): Promise<boolean> {
    const claimed = await this.db
      .updateTable("free_subscriptions")
      .set({ locked_until: until })
      .where("id", "=", id)
      .where("locked_until", "<=", now)
      .executeTakeFirst();
    return Number(claimed.numUpdatedRows) > 0;
  }

  /** Releases the lease and sets the next check. */
  async reschedule(id: string, fields: { checks: number; last_error: string; next_check_at: number }) {
    await this.db
      .updateTable("free_subscriptions")
      .set({ ...fields, locked_until: 0 })
      .where("id", "=", id)
      .execute();
  }

  findById(id: string): Promise<Pick<FreeSubscription, "id" | "email" | "status"> | undefined> {
    return this.db
      .selectFrom("free_subscriptions")
      .select(["id", "email", "status"])
      .where("id", "=", id)
      .executeTakeFirst();
  }

  /** Marks a request verified, linked to its account, and releases its lease. */
  async markVerified(id: string, userId: string | null): Promise<void> {
    await this.db
      .updateTable("free_subscriptions")
      .set({ status: "verified", user_id: userId, locked_until: 0 })
      .where("id", "=", id)
      .execute();
  }
}
