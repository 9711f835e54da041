// Database access of payments: the stored webhook events and the users they change, inside one transaction.
import type { Kysely } from "kysely";
import type { Db } from "../../db/index";
import type { Database, User } from "../../db/schema";

/** A database handle: the pool, or the transaction a webhook event is applied in. */
export type Tx = Kysely<Database>;

/**
 * Database access of payments: the stored webhook events and the users they change.
 * Methods that take `tx` run inside the caller's transaction (`inTransaction`), so an event row
 * and its effect commit together; plan changes go through PlansRepo with the same handle.
 */
export class PaymentsRepo {
  constructor(private readonly db: Db) {}

  /** Runs `work` in one transaction: all of its writes commit, or none. */
  inTransaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /**
   * Stores a webhook event by its id, once.
   * @returns false when an event with this id is already stored (a redelivery).
   */
  async recordEvent(
    tx: Tx,
    row: { id: string; provider: string; type: string; payload: string; created_at: number },
  ): Promise<boolean> {
    const inserted = await tx
      .insertInto("payment_events")
      .values({ ...row, user_id: null, outcome: "received" })
      .onConflict((oc) => oc.column("id").doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0n) > 0;
  }

  /** Records what an event did and to whom. */
  async setEventOutcome(tx: Tx, id: string, outcome: string, userId: string | null): Promise<void> {
    await tx.updateTable("payment_events").set({ outcome, user_id: userId }).where("id", "=", id).execute();
  }

  /** Adds bought messages to a user's extra messages and remembers the payment customer. */
  async addExtraMessages(tx: Tx, userId: string, messages: number, customerId: string): Promise<void> {
    await tx
      .updateTable("users")
      .set((eb) => ({ extra_messages: eb("extra_messages", "+", messages), stripe_customer_id: customerId }))
      .where("id", "=", userId)
      .execute();
  }

  /** The user an event names: by our id, else by subscription id, else by customer id. */
  async findEventUser(
    tx: Tx,
    userId: string,
    subscriptionId: string,
    customerId: string,
  ): Promise<User | undefined> {
    const users = tx.selectFrom("users").selectAll();
    if (userId) {
      const byId = await users.where("id", "=", userId).executeTakeFirst();
      if (byId) return byId;
    }
    if (subscriptionId) {
      const bySubscription = await users
        .where("stripe_subscription_id", "=", subscriptionId)
        .executeTakeFirst();
      if (bySubscription) return bySubscription;
    }
    if (customerId) return users.where("stripe_customer_id", "=", customerId).executeTakeFirst();
    return undefined;
  }

  /** Ids of the users whose cancelled plan ended at or before `now` (epoch ms). */
  async usersWithEndedPlans(now: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom("users")
      .select("id")
      .where("plan_ends_at", "is not", null)
      .where("plan_ends_at", "<=", now)
      .execute();
    return rows.map((row) => row.id);
  }
}
