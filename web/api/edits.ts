// Edits of stored entries: regenerate (swipes), choose a swipe, edit, delete and rewind.
import type { ChatHistoryEntry, MessageReply, RemovedEntries, SwipeReply } from "../../common/api";
import { apiRequest, ensureSuccess } from "./client";
import { ApiError } from "./errors";
import { type ReplyStreamHandlers, replyEvents, replyOf } from "./replies";
import { apiStream } from "./stream";

/**
 * POST /chat/regenerate (id=<chatHistoryUUID>, stream=1, mute; "Swipes"): a new reply
 * for the entry, kept as a further swipe and chosen. Streams like continue-message: the
 * `entry` event, `token`s of the new text (from empty), `audio`s, then `done` with the stored
 * entry (its chatHistorySwipes grown by one). A refusal (429 at the message limit with its
 * `page`, 400 at REPLY_SWIPES_MAX, 404 for an entry not the user's) comes back as a reply
 * with success 0 and the server's message. A dropped connection is followed again;
 * throws like `sendMessageStream`.
 */
export async function regenerateReplyStream(
  entryId: string,
  mute: boolean,
  handlers: ReplyStreamHandlers,
  signal?: AbortSignal,
): Promise<MessageReply> {
  const body = new URLSearchParams({ id: entryId, stream: "1", mute: mute ? "1" : "0" });
  const resumeId = () => entryId;
  const stream = apiStream("/chat/regenerate", body, replyEvents(handlers), { signal, resumeId });
  return replyOf(stream, resumeId, signal);
}

/** The changed entry of a SwipeReply. @throws ApiError('envelope') on success 0 or without it. */
function changedEntry(answer: SwipeReply): ChatHistoryEntry {
  const entry = ensureSuccess(answer).history?.[0];
  if (entry === undefined) throw new ApiError(answer.message || "The message was not changed.", "envelope");
  return entry;
}

/**
 * POST /chat/swipe {id, index}: chooses swipe `index` (0-based) of the entry's
 * reply; it is what the model sees next. @returns the changed entry.
 * @throws ApiError('envelope') with the server's message (e.g. 404 "Message not found.").
 */
export async function swipeReply(entryId: string, index: number): Promise<ChatHistoryEntry> {
  const body = new URLSearchParams({ id: entryId, index: String(index) });
  return changedEntry(await apiRequest<SwipeReply>("/chat/swipe", { method: "POST", body }));
}

/**
 * POST /chat/edit {id, part, text} ("Edit"): replaces the user's message ("message",
 * the chat message's rules) or the chosen reply's text ("reply", 1 to REPLY_EDIT_MAX_LENGTH
 * characters). @returns the changed entry.
 * @throws ApiError('envelope') with the server's sentence when the text is refused.
 */
export async function editEntry(
  entryId: string,
  part: "message" | "reply",
  text: string,
): Promise<ChatHistoryEntry> {
  const body = new URLSearchParams({ id: entryId, part, text });
  return changedEntry(await apiRequest<SwipeReply>("/chat/edit", { method: "POST", body }));
}

/**
 * POST /chat/delete {id} or /chat/rewind {id}: removes the entry (its message and
 * reply, with their files), or every entry after it in its chat.
 * @returns the chatHistoryUUIDs removed, oldest first.
 * @throws ApiError('envelope') with the server's message (e.g. 404 "Message not found.").
 */
export async function removeEntries(action: "delete" | "rewind", entryId: string): Promise<string[]> {
  const body = new URLSearchParams({ id: entryId });
  const answer = ensureSuccess(await apiRequest<RemovedEntries>(`/chat/${action}`, { method: "POST", body }));
  return answer.removed ?? [];
}
