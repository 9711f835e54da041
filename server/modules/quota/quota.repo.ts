// Database access of the message quota on the users row: the count, its period and bought add-on messages.
import type { Db } from "../../db/index";
import { changedRows, preparedQuery } from "../../db/prepared";
import type { User } from "../../db/schema";

/** Which part of the quota paid for a message: the plan's count or the bought add-on messages. */
export type QuotaBucket = "plan" | "extra";

/**
 * One message reserved from the quota: the bucket that paid and the period it was counted in
 * ("YYYY-MM-DD" for daily plans, "YYYY-MM" for monthly ones; "" for a reservation stored before
 * periods were recorded, see `decodeReservation`).
 */
export interface Reservation {
  bucket: QuotaBucket;
  period: string;
}

/** Database access for the message quota (the users row: chat_count, chat_period, extra_messages). */
export class QuotaRepo {
  constructor(private readonly db: Db) {}

  /**
   * Reserves one message: the plan's count of `period` (the count starts again at 0
   * when the period changes), then the add-on messages. Atomic: concurrent reservations never go
   * past the limit, and a plan message is counted in `period` only (never in a period another
   * request has moved the row to meanwhile).
   * @param db where to run it: the repo's database, or a transaction the reservation joins
   *   (stored with the user's entry in one transaction).
   * @returns the reservation, or undefined when both buckets are empty.
   */
  async reserve(user: User, period: string, db: Db = this.db): Promise<Reservation | undefined> {
    // `user` was read at the start of this request. When it already counts in `period`, the row
    // does too (a period only moves forwards); otherwise the row is moved, read from the row, not
    // `user`: another request may have moved it meanwhile.
    if (user.chat_period !== period) {
      await db
        .updateTable("users")
        .set({ chat_count: 0, chat_period: period })
        .where("id", "=", user.id)
        .where("chat_period", "<>", period)
        .execute();
    }
    const plan = await changedRows(reservePlan(db, { id: user.id, period, limit: user.chat_limit }));
    if (plan > 0) return { bucket: "plan", period };
    const extra = await db
      .updateTable("users")
      .set((eb) => ({ extra_messages: eb("extra_messages", "-", 1) }))
      .where("id", "=", user.id)
      .where("extra_messages", ">", 0)
      .executeTakeFirst();
    return Number(extra.numUpdatedRows) > 0 ? { bucket: "extra", period } : undefined;
  }

  /**
   * Gives back a reserved message: an add-on message always; a plan message only to
   * the period it was counted in, so a failure after the period changed (a reply that fails
   * after midnight) never lowers the new period's count. A reservation without a period (stored
   * before periods were recorded) lowers the current count, as it always did.
   */
  async refund(userId: string, reservation: Reservation): Promise<void> {
    if (reservation.bucket === "extra") {
      await this.db
        .updateTable("users")
        .set((eb) => ({ extra_messages: eb("extra_messages", "+", 1) }))
        .where("id", "=", userId)
        .execute();
      return;
    }
    let refund = this.db
      .updateTable("users")
      .set((eb) => ({ chat_count: eb("chat_count", "-", 1) }))
      .where("id", "=", userId)
      .where("chat_count", ">", 0);
    if (reservation.period) refund = refund.where("chat_period", "=", reservation.period);
    await refund.execute();
  }
}

/** One message of the plan's count of `period`, when under `limit` (every chat message). */
const reservePlan = preparedQuery((db, p: { id: string; period: string; limit: number }) =>
  db
    .updateTable("users")
    .set((eb) => ({ chat_count: eb("chat_count", "+", 1) }))
    .where("id", "=", p.id)
    .where("chat_period", "=", p.period)
    .where("chat_count", "<", p.limit),
);
