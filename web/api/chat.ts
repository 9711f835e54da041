// Chat calls of one-to-one chats: profile, history, sending, continuing, following and stopping replies.
import type {
  ChatHistoryEntry,
  ChatImportReply,
  ChatProfileInfo,
  ChatProfileReply,
  Envelope,
  MessageReply,
} from "../../common/api";
import { HISTORY_PAGE_SIZE } from "../../common/constants";
import { apiRequest, ensureSuccess } from "./client";
import { ApiError } from "./errors";
import { type ReplyStreamHandlers, replyEvents, replyOf, streamReply } from "./replies";
import { apiStream, followStream } from "./stream";

/** Chat calls (product.md §7, Chat). */

/**
 * GET /chat/profile/?uid=<userId>&id=<chat session id>: the user's picture and names and the
 * chat's characters (product.md §4: a non-empty `characters[0].gId` means a group chat).
 */
export async function getChatProfile(userId: string, sessionId: string): Promise<ChatProfileInfo> {
  const answer = ensureSuccess(
    await apiRequest<ChatProfileReply>("/chat/profile/", {
      query: { uid: userId, id: sessionId },
    }),
  );
  if (answer.info === undefined) throw new ApiError(answer.message || "No chat profile", "envelope");
  return answer.info;
}

/**
 * GET /chat/history/paginated?uId&id&offset&limit: one page of history, oldest first.
 * `offset` counts from the newest entry (product.md §9: page size 10, offset grows by 10).
 */
export async function getHistoryPage(
  userId: string,
  chatId: string,
  offset: number,
  limit: number = HISTORY_PAGE_SIZE,
): Promise<ChatHistoryEntry[]> {
  const answer = ensureSuccess(
    await apiRequest<Envelope<ChatHistoryEntry[]>>("/chat/history/paginated", {
      query: { uId: userId, id: chatId, offset, limit },
    }),
  );
  return answer.data ?? [];
}

export interface SendMessageInput {
  /** The trimmed text, at most 150 characters (product.md §5). */
  message: string;
  /** The chat id: the group id in a group chat, else the character id. */
  chatId: string;
  /** The character that should reply. */
  characterId: string;
  /** '1' asks for no spoken audio. */
  mute: "0" | "1";
  /** When the user sent it. */
  time: Date;
  /** The name the user goes by in this reply (product.md §7 `pname`; ours); empty sends none. */
  pname?: string;
  /** The user's words about themself (product.md §7 `ptext`; ours); empty sends none. */
  ptext?: string;
  /** Ours: the client's id of this send, reused on retry so the server stores it once. */
  clientMessageId?: string;
}

/**
 * `time` as the server reads it (README "How the chat works"): the user's wall-clock time with
 * its UTC offset, e.g. "2026-11-26T22:41:07.000+01:00", so the character knows the user's hour.
 */
export function localIsoTime(date: Date): string {
  const pad = (n: number, width = 2) => String(Math.trunc(Math.abs(n))).padStart(width, "0");
  const offset = -date.getTimezoneOffset();
  const sign = offset < 0 ? "-" : "+";
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}` +
    `${sign}${pad(offset / 60)}:${pad(offset % 60)}`
  );
}

/** The multipart body of POST /chat/message (product.md §7): message, id, cId, mute, time (local, with offset), pname, ptext. */
function messageForm(input: SendMessageInput): FormData {
  const body = new FormData();
  body.set("message", input.message);
  body.set("id", input.chatId);
  body.set("cId", input.characterId);
  body.set("mute", input.mute);
  body.set("time", localIsoTime(input.time));
  if (input.pname?.trim()) body.set("pname", input.pname.trim());
  if (input.ptext?.trim()) body.set("ptext", input.ptext.trim());
  if (input.clientMessageId) body.set("clientMessageId", input.clientMessageId);
  return body;
}

/**
 * POST /chat/message as multipart (product.md §7) with `message`, `id`, `cId`, `mute`, `time` (ISO).
 * Returns the reply envelope whatever its `success`: on success 0 it may still carry the
 * stored entry in `history[0]`.
 */
export function sendMessage(input: SendMessageInput): Promise<MessageReply> {
  return apiRequest<MessageReply>("/chat/message", { method: "POST", body: messageForm(input) });
}

/**
 * POST /chat/message with `stream=1` (ours): server-sent events `entry`, `token` ({text}) and
 * finally `done` (the plain message reply) or `error` ({success: 0, message, status}), which
 * is returned as a reply with success 0. A plain JSON answer (e.g. 429 at the daily limit)
 * comes back the same way. A connection that drops after the `entry` event is followed again
 * (`apiStream`). Throws `ApiError` when the request fails, `ReplyLostError` when the
 * stored reply's stream was lost.
 */
export async function sendMessageStream(
  input: SendMessageInput,
  handlers: ReplyStreamHandlers,
  signal?: AbortSignal,
): Promise<MessageReply> {
  return streamReply("/chat/message", messageForm(input), handlers, { keep: "last", resume: true, signal });
}

/**
 * POST /chat/continue-message (id=<chatHistoryUUID>, stream=1): the newest reply goes on;
 * `token` events carry the added text, `done` the whole stored entry. A dropped connection is
 * followed again; throws like `sendMessageStream`.
 */
export async function continueReplyStream(
  entryId: string,
  onToken: (text: string) => void,
  signal?: AbortSignal,
): Promise<MessageReply> {
  const body = new URLSearchParams({ id: entryId, stream: "1" });
  const resumeId = () => entryId;
  const stream = apiStream("/chat/continue-message", body, replyEvents({ onToken }), { signal, resumeId });
  return replyOf(stream, resumeId, signal);
}

/**
 * GET /chat/stream?id=<chatHistoryUUID>: follows a reply still being written (e.g.
 * after a reload, or in a second tab) from its first event; `token` events reach `onToken`.
 * Returns the reply of its `done` (the stored entry in `history[0]`) or `error`. Throws
 * `ReplyLostError` when no live reply exists and the entry is still "pending", or the stream
 * cannot be reached (`followStream`'s attempts); an aborted `signal` throws `ApiError('network')`.
 */
export function followReply(
  entryId: string,
  onToken: (text: string) => void,
  signal: AbortSignal,
): Promise<MessageReply> {
  return replyOf(followStream(entryId, replyEvents({ onToken }), { signal }), () => entryId, signal);
}

/** POST /chat/stop (id=<chatHistoryUUID>): stops the reply being generated; the part so far stays. */
export function stopReply(entryId: string): Promise<Envelope> {
  return apiRequest("/chat/stop", { method: "POST", body: new URLSearchParams({ id: entryId }) });
}
/** GET /chat/new?id=<chat id>&uid=<user id>: deletes the history; returns the `page` to open. */
export async function startNewChat(chatId: string, userId: string): Promise<string> {
  const answer = ensureSuccess(await apiRequest("/chat/new", { query: { id: chatId, uid: userId } }));
  return answer.page ?? "";
}

/** What POST /chat/import answered: its sentence and the messages imported. */
export interface ChatImportAnswer {
  message: string;
  imported: number;
}

/**
 * POST /chat/import (ours), multipart `id` (a character of the user's) and `file` (a SillyTavern
 * .jsonl chat): the file replaces the chat's history, as New Chat deletes it. Throws `ApiError`
 * with the server's sentence when refused (e.g. "Line 7 is not valid JSON.", a file over 20 MB).
 */
export async function importChat(characterId: string, file: File): Promise<ChatImportAnswer> {
  const body = new FormData();
  body.append("id", characterId);
  body.append("file", file, file.name);
  const answer = ensureSuccess(await apiRequest<ChatImportReply>("/chat/import", { method: "POST", body }));
  return { message: answer.message, imported: answer.data?.imported ?? 0 };
}
