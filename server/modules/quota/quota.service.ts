// The message quota (product.md §9): its daily or monthly period, charging and refunding each model run, and the answer at the limit.
import { ADDON_MESSAGES, ADDON_PRICE_CENTS, dollars } from "../../../common/constants";
import type { Db } from "../../db/index";
import type { User } from "../../db/schema";
import { type AppError, tooMany } from "../../errors";
import { msg } from "../../i18n/messages";
import { quotaRefused } from "../../observability/metrics";
import type { QuotaBucket, QuotaRepo, Reservation } from "./quota.repo";

export type { QuotaBucket, Reservation } from "./quota.repo";

/**
 * The quota period a moment falls in (documented in README): the UTC day "YYYY-MM-DD"
 * for daily plans, the UTC month "YYYY-MM" for monthly ones.
 * @param period the plan's quota period ("day" or "month"); @param now epoch milliseconds.
 */
export function quotaPeriodKey(period: string, now: number): string {
  return new Date(now).toISOString().slice(0, period === "month" ? 7 : 10);
}

/**
 * The answer at the limit (product.md §9): 429 "quota_reached" pointing to /pricing. Monthly plans are
 * offered the add-on (ADDON_MESSAGES for ADDON_PRICE_CENTS), daily ones an upgrade.
 */
export function quotaLimitError(user: User): AppError {
  const price = `$${dollars(ADDON_PRICE_CENTS)}`;
  return tooMany(
    user.quota_period === "month"
      ? msg("quota.haveReachedLimitMessagesMonth", { chat_limit: user.chat_limit, ADDON_MESSAGES, price })
      : msg("quota.haveReachedLimitMessagesToday", { chat_limit: user.chat_limit }),
    "quota_reached",
    "/pricing",
  );
}

/** A reservation as stored with a durable job (`image_jobs.quota_bucket`): "plan:2026-11-23". */
export function encodeReservation(reservation: Reservation): string {
  return `${reservation.bucket}:${reservation.period}`;
}

/**
 * Reads a stored reservation: "plan:2026-11-23" or "extra:2026-11"; the older "plan" and
 * "extra" (no period) read with period "" (refunded as before). @returns undefined for anything else.
 */
export function decodeReservation(stored: string): Reservation | undefined {
  const [bucket, period = "", ...rest] = stored.split(":");
  if (rest.length > 0 || (bucket !== "plan" && bucket !== "extra")) return undefined;
  if (period && !/^\d{4}-\d{2}(-\d{2})?$/.test(period)) return undefined;
  return { bucket: bucket as QuotaBucket, period };
}

/**
 * The message quota, in one place for every area that runs a model for the user (chat,
 * continuations, pictures, photos): the period, the charge, the refund and the limit message.
 * Every model run is charged one message first (`chargeMessage`) and gets it back when it
 * produced nothing (`refundMessage`).
 */
export class QuotaService {
  constructor(private readonly repo: QuotaRepo) {}

  /**
   * Charges one message of the user's quota at `now` (epoch ms), atomically: where a send is
   * decided (a chat message or group turn, a continuation, a regeneration, a picture, a photo).
   * @param db a transaction the charge joins (undone with it, e.g. with the entry it pays for);
   *   default its own.
   * @returns what was charged: the bucket and the period. @throws AppError 429 "quota_reached"
   *   (page /pricing) when the plan's count and the add-on messages are both used up.
   */
  async chargeMessage(user: User, now: number, db?: Db): Promise<Reservation> {
    const reservation = await this.tryReserve(user, now, db);
    if (!reservation) throw this.refused(user);
    return reservation;
  }

  /**
   * As `chargeMessage`, without the error: @returns undefined at the limit (for optional extras).
   * @param db a transaction the reservation joins (it is undone with it); default its own.
   */
  tryReserve(user: User, now: number, db?: Db): Promise<Reservation | undefined> {
    return this.repo.reserve(user, quotaPeriodKey(user.quota_period, now), db);
  }

  /**
   * The error of a reservation refused at the limit (`tryReserve` gave undefined), counted in the
   * metrics as `chargeMessage` does. @returns AppError 429 "quota_reached".
   */
  refused(user: User): AppError {
    quotaRefused();
    return quotaLimitError(user);
  }

  /**
   * Gives a charged message back (the run it paid for produced nothing) to the period it was
   * charged to: a plan message charged on a day that has since ended is not taken off the new
   * day's count; an add-on message always comes back.
   */
  refundMessage(userId: string, reservation: Reservation): Promise<void> {
    return this.repo.refund(userId, reservation);
  }
}
