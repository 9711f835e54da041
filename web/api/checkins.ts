// Check-ins, a character writing first (GET and POST /chat/checkins): the chat's setting, unread check-ins, the browser's time zone.
import type { CheckinStatus, Envelope, UnreadCheckins } from "../../common/api";
import { apiRequest, ensureSuccess } from "./client";

/** The browser's IANA time zone (e.g. "Europe/Berlin"); "UTC" when the browser names none. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/**
 * GET /chat/checkins?id=<chat id> (ours): whether the character may write first.
 * Answers null for a chat that is not one-to-one (a group: 404), so no toggle is shown.
 */
export async function getCheckins(chatId: string): Promise<CheckinStatus | null> {
  const answer = await apiRequest<Envelope<CheckinStatus>>("/chat/checkins", { query: { id: chatId } });
  return answer.success === 1 ? (answer.data ?? null) : null;
}

/**
 * POST /chat/checkins (ours), form `id`, `enabled` and the browser's `timeZone`: lets
 * the character write first after a quiet period in the user's waking hours, or stops it.
 * Throws `ApiError` when refused.
 */
export async function setCheckins(chatId: string, enabled: boolean): Promise<CheckinStatus | undefined> {
  const body = new URLSearchParams({ id: chatId, enabled: enabled ? "1" : "0", timeZone: browserTimeZone() });
  const answer = ensureSuccess(
    await apiRequest<Envelope<CheckinStatus>>("/chat/checkins", { method: "POST", body }),
  );
  return answer.data;
}

/** GET /chat/checkins/unread (ours): character id → check-ins the user has not seen. */
export async function listUnreadCheckins(): Promise<Map<string, number>> {
  const answer = ensureSuccess(await apiRequest<Envelope<UnreadCheckins[]>>("/chat/checkins/unread"));
  return new Map((answer.data ?? []).map((row) => [row.characterUUID, row.unreadCheckins]));
}
