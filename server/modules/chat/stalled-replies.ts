// Settling the replies a dead instance left pending ("never stuck replying"): partial or failed, message given back.
import type { User } from "../../db/schema";
import { english, msg } from "../../i18n/messages";
import * as metrics from "../../observability/metrics";
import { displayName } from "../conversation/chats.service";
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
 * Added to the model's timeout for a pending entry with no owner recorded that no generation is
 * known of, milliseconds: by then any run of it has ended, one way or the other.
 */
export const STALL_MARGIN_MS = 30_000;

/** Most entries settled by one call. */
const SETTLE_BATCH = 200;

/** Recorded on a settled entry. */
const STALLED_ERROR = english(msg("chat.serverGeneratingReplyStoppedBefore"));

/**
 * Settles the replies a dead instance left pending ("never stuck replying"). A pending
 * entry older than STALL_GRACE_MS whose generation runs nowhere (no lease in the live-reply
 * registry) is settled when its owner (the process that stored it, instance-lease.ts) stopped
 * renewing its lease, whether its generation had started or not, and whatever Redis kept. An
 * entry with no owner recorded (stored before ownership was) is settled when its generation is
 * known (it started, then its instance stopped refreshing its lease), or when it is older than
 * `timeoutMs` + STALL_MARGIN_MS. It becomes "partial" with the text streamed so
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
    if (state.running || !ownerGone(row, state, now, unknownBefore)) continue;
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
    if (charge) await quota.refundMessage(row.user_id, charge);
  }
  return settled;
}

/**
 * Whether nothing can still answer a pending entry no generation holds: its owner's lease lapsed
 * (or its row is gone) when the entry has an owner; otherwise (an entry stored before ownership
 * was recorded) its generation is known to have started, or it is older than `unknownBefore`.
 */
function ownerGone(
  row: { owner: string; owner_lease_expires_at: number | null; send_time: number },
  state: ReplyState,
  now: number,
  unknownBefore: number,
): boolean {
  if (row.owner) return row.owner_lease_expires_at === null || row.owner_lease_expires_at < now;
  return state.known || row.send_time < unknownBefore;
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
