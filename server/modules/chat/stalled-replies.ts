import type { User } from "../../db/schema";
import * as metrics from "../../http/metrics";
import { displayName } from "../conversation/conversation.service";
import { cleanReply } from "../prompt/prompt";
import {
  decodeReservation,
  type QuotaService,
  quotaPeriodKey,
  type Reservation,
} from "../quota/quota.service";
import type { ChatRepo } from "./chat.repo";
import type { LiveReplies, ReplyState } from "./live-replies";

/**
 * How old a pending entry whose generation is known and gone must be before it is settled,
 * milliseconds: a new entry takes its lease a moment after it is stored.
 */
export const STALL_GRACE_MS = 5_000;

/**
 * Added to the model's timeout for a pending entry no generation is known of (a previous
 * process of a one-instance server; a photo being answered), milliseconds: by then any run of it
 * has ended, one way or the other.
 */
export const STALL_MARGIN_MS = 30_000;

/** Most entries settled by one call. */
const SETTLE_BATCH = 200;

/** Recorded on a settled entry. */
const STALLED_ERROR = "The server generating this reply stopped before the reply was finished.";

/**
 * Settles the replies a dead instance left pending (issue 15: "never stuck replying"). A pending
 * entry whose generation runs nowhere (no lease in the live-reply registry) is settled when it is
 * older than STALL_GRACE_MS and its generation is known (it started, then its instance stopped
 * refreshing its lease), or older than `timeoutMs` + STALL_MARGIN_MS when nothing is known of it
 * (a previous process of a server without Redis). It becomes "partial" with the text streamed so
 * far when there is some, else "failed", and then its message is given back to the quota period
 * it was charged to (the charge its generation recorded; for an unknown one, a plan message of
 * the period of its send time, unless it is a group's further answer, which was not charged).
 * An entry answered meanwhile is left alone. Called periodically, once per cluster.
 * @returns how many entries were settled.
 */
export async function settleStalled(deps: {
  repo: ChatRepo;
  live: LiveReplies;
  quota: QuotaService;
  /** Now, epoch milliseconds. */
  now: number;
  /** The model's timeout (LLM_TIMEOUT_MS). */
  timeoutMs: number;
}): Promise<number> {
  const { repo, live, quota, now } = deps;
  const rows = await repo.pendingBefore(now - STALL_GRACE_MS, SETTLE_BATCH);
  if (rows.length === 0) return 0;
  const states = await live.inspect(rows.map((row) => row.id));
  const unknownBefore = now - deps.timeoutMs - STALL_MARGIN_MS;
  let settled = 0;
  for (const row of rows) {
    const state: ReplyState = states.get(row.id) ?? { running: false, known: false, charge: "", text: "" };
    if (state.running || (!state.known && row.send_time >= unknownBefore)) continue;
    const userName = displayName({ full_name: row.full_name, user_name: row.user_name } as User);
    const text = state.text ? cleanReply(state.text, row.character_name ?? "", userName) : "";
    if (text) {
      if (
        await repo.settlePending(row.id, {
          status: "partial",
          reply_message: text,
          reply_time: now,
          error: STALLED_ERROR,
        })
      ) {
        metrics.replyFinished("partial");
        settled += 1;
      }
      continue;
    }
    if (!(await repo.settlePending(row.id, { status: "failed", error: STALLED_ERROR }))) continue;
    metrics.replyFinished("failed");
    settled += 1;
    const charge = chargeOf(state, row);
    if (charge) await quota.refund(row.user_id, charge);
  }
  return settled;
}

/** The message an entry was charged, to give back; undefined when it was not charged. */
function chargeOf(
  state: ReplyState,
  row: { message: string; message_image: string; send_time: number; quota_period: string },
): Reservation | undefined {
  if (state.known) return state.charge ? decodeReservation(state.charge) : undefined;
  // A group's further answers carry neither words nor a photo: only the first was charged.
  if (!row.message && !row.message_image) return undefined;
  return { bucket: "plan", period: quotaPeriodKey(row.quota_period, row.send_time) };
}
