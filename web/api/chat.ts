import type {
  CharacterListItem,
  ChatHistoryEntry,
  ChatProfileInfo,
  Envelope,
  MessageReply,
  ModelDownloadProgress,
  RemovedEntries,
  SessionUser,
  SwipeReply,
} from "../../common/api";
import { HISTORY_PAGE_SIZE } from "../../common/constants";
import { apiRequest, ensureSuccess } from "./client";
import { ApiError } from "./errors";
import { apiStream, followStream, type StreamEvent } from "./stream";

/** Chat calls (product.md §7, Chat). */

/**
 * GET /chat/profile/?uid=<userId>&id=<chat session id>: the user's picture and names and the
 * chat's characters (product.md §4: a non-empty `characters[0].gId` means a group chat).
 */
export async function getChatProfile(userId: string, sessionId: string): Promise<ChatProfileInfo> {
  const answer = ensureSuccess(
    await apiRequest<Envelope & { info?: ChatProfileInfo }>("/chat/profile/", {
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

/** What a streamed reply reports while it is generated. */
export interface ReplyStreamHandlers {
  /** The stored entry (gives chatHistoryUUID), before any token. */
  onEntry?: (entry: ChatHistoryEntry) => void;
  /** One piece of the reply text, as generated. */
  onToken: (text: string) => void;
  /**
   * event `audio`: one sentence of the reply spoken, as soon as it is ready (in order,
   * index 0 first), so playback starts before the whole reply is synthesized.
   */
  onAudio?: (audio: { index: number; text: string; audioUrl: string; chatHistoryUUID?: string }) => void;
}

/**
 * a streamed reply whose connection dropped and could not be followed again, or whose
 * generating server is gone (the stored entry is still "pending"): the reply settles in the
 * history, which polls for it. `entryId` is its chatHistoryUUID.
 */
export class ReplyLostError extends ApiError {
  constructor(readonly entryId: string) {
    super("The reply stream was lost.", "network");
    this.name = "ReplyLostError";
  }
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null;

/**
 * Turns the final event of a reply stream into the spec's message reply (product.md §3). A bare stored
 * entry becomes `{success: 1, history: [entry]}`.
 * @throws ReplyLostError when a `done` event holds a reply still "pending" (GET /chat/stream found
 * no live reply: the server that wrote it is gone, the history settles it within a minute).
 */
export function finalReply(last: StreamEvent): MessageReply {
  const data = last.data;
  let reply: MessageReply = { success: 0, message: typeof data === "string" ? data : "" };
  if (isObject(data) && "success" in data) reply = data as unknown as MessageReply;
  else if (isObject(data) && typeof data.chatHistoryUUID === "string") {
    reply = { success: 1, message: "", history: [data as unknown as ChatHistoryEntry] };
  }
  // GET /chat/stream answers an entry without a live reply as stored: `done`, success 0 while pending.
  const entry = reply.history?.[0];
  if (last.event === "done" && entry?.chatHistoryStatus === "pending") {
    throw new ReplyLostError(entry.chatHistoryUUID);
  }
  return reply;
}

function dispatch(handlers: ReplyStreamHandlers) {
  return (event: StreamEvent) => {
    const data = event.data;
    if (!isObject(data)) return;
    if (event.event === "token" && typeof data.text === "string") handlers.onToken(data.text);
    else if (event.event === "entry") handlers.onEntry?.(data as unknown as ChatHistoryEntry);
    else if (event.event === "audio" && "audioUrl" in data) {
      handlers.onAudio?.(
        data as unknown as { index: number; text: string; audioUrl: string; chatHistoryUUID?: string },
      );
    }
  };
}

/**
 * The reply of a stream of the reply `entryId()`: a connection lost for good once the entry is
 * known becomes `ReplyLostError`; other errors pass through.
 */
async function replyOf(
  stream: Promise<StreamEvent>,
  entryId: () => string,
  signal: AbortSignal | undefined,
): Promise<MessageReply> {
  try {
    return finalReply(await stream);
  } catch (error) {
    const id = entryId();
    if (
      id !== "" &&
      !signal?.aborted &&
      error instanceof ApiError &&
      error.kind === "network" &&
      !(error instanceof ReplyLostError)
    ) {
      throw new ReplyLostError(id);
    }
    throw error;
  }
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
  const body = messageForm(input);
  body.set("stream", "1");
  let entryId = "";
  const onEvent = dispatch({
    ...handlers,
    onEntry: (entry) => {
      entryId = entry.chatHistoryUUID;
      handlers.onEntry?.(entry);
    },
  });
  const resumeId = () => entryId;
  return replyOf(apiStream("/chat/message", body, onEvent, { signal, resumeId }), resumeId, signal);
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
  const stream = apiStream("/chat/continue-message", body, dispatch({ onToken }), { signal, resumeId });
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
  return replyOf(followStream(entryId, dispatch({ onToken }), { signal }), () => entryId, signal);
}

/** POST /chat/stop (id=<chatHistoryUUID>): stops the reply being generated; the part so far stays. */
export function stopReply(entryId: string): Promise<Envelope> {
  return apiRequest("/chat/stop", { method: "POST", body: new URLSearchParams({ id: entryId }) });
}

/** product.md §3 "Message reply" of `chat/group/reply`: the replying members and their entries in order. */
export interface GroupReply extends Envelope {
  whoReplies?: string[];
  history?: ChatHistoryEntry[];
}

/** What a group send carries (product.md §7 `chat/group/reply`). */
export interface GroupMessageInput {
  message: string;
  groupId: string;
  clientMessageId: string;
  /** true asks for no spoken audio. */
  mute?: boolean;
}

function groupForm(input: GroupMessageInput): URLSearchParams {
  return new URLSearchParams({
    message: input.message,
    id: input.groupId,
    clientMessageId: input.clientMessageId,
    mute: input.mute ? "1" : "0",
  });
}

/** POST /chat/group/reply (message, id=<group id>, clientMessageId): every member's reply, not streamed. */
export function sendGroupMessage(input: GroupMessageInput): Promise<GroupReply> {
  return apiRequest<GroupReply>("/chat/group/reply", { method: "POST", body: groupForm(input) });
}

/**
 * POST /chat/group/reply with `stream=1` (ours): per member in turn order an `entry`
 * event (that member's stored entry: the first is the user's message, each further one an entry
 * of its own), its `token`s and `audio`s (`onAudio` gets the entry's chatHistoryUUID), then one
 * `done` with the plain group answer (`whoReplies`, `history`, `genimage`), or `error`, returned
 * as a reply with success 0. A plain JSON answer (e.g. 429 at the daily limit) comes back the
 * same way. A group stream is not followed again as a whole: a connection lost after the first
 * `entry` throws `ReplyLostError` of that entry (the history settles the turn); other failures
 * throw `ApiError`.
 */
export async function sendGroupMessageStream(
  input: GroupMessageInput,
  handlers: ReplyStreamHandlers,
  signal?: AbortSignal,
): Promise<GroupReply> {
  const body = groupForm(input);
  body.set("stream", "1");
  let firstId = "";
  const onEvent = dispatch({
    ...handlers,
    onEntry: (entry) => {
      if (firstId === "") firstId = entry.chatHistoryUUID;
      handlers.onEntry?.(entry);
    },
  });
  const entryId = () => firstId;
  // No resumeId: each member's reply has its own live reply; the whole turn is not one stream.
  return replyOf(apiStream("/chat/group/reply", body, onEvent, { signal }), entryId, signal);
}

/** GET /chat/new?id=<chat id>&uid=<user id>: deletes the history; returns the `page` to open. */
export async function startNewChat(chatId: string, userId: string): Promise<string> {
  const answer = ensureSuccess(await apiRequest("/chat/new", { query: { id: chatId, uid: userId } }));
  return answer.page ?? "";
}

/** GET /chat/group/new?cId=<character id>: a group with that character; returns its `page`. */
export async function startGroup(characterId: string): Promise<string> {
  const answer = ensureSuccess(await apiRequest("/chat/group/new", { query: { cId: characterId } }));
  return answer.page ?? "";
}

/**
 * GET /chat/group/member/add or /remove ?gId&cId: returns the `page` to open. Throws
 * `ApiError('envelope')` with the server message, e.g. 'A group chat holds at most 4 members.'
 */
export async function changeGroupMember(
  action: "add" | "remove",
  groupId: string,
  characterId: string,
): Promise<string> {
  const answer = ensureSuccess(
    await apiRequest(`/chat/group/member/${action}`, { query: { gId: groupId, cId: characterId } }),
  );
  return answer.page ?? "";
}

/** GET /characters/list/chat: the user's characters with greetings (product.md §7). */
export async function listChatCharacters(): Promise<CharacterListItem[]> {
  const answer = ensureSuccess(
    await apiRequest<Envelope & { characters?: CharacterListItem[] }>("/characters/list/chat"),
  );
  return answer.characters ?? [];
}

/** One capability of the chat screen: off comes with the reason to show. */
export interface Capability {
  enabled: boolean;
  reason: string;
}

/** GET /chat/capabilities (ours): what this server and this plan allow on the chat screen. */
export interface ChatCapabilities {
  chat: Capability;
  voiceReplies: Capability;
  speechInput: Capability;
  imageRequests: Capability;
  photoUpload: Capability;
  /** while the chat is off because the model downloads, how far it has come. */
  modelDownload?: ModelDownloadProgress;
}

/** GET /chat/capabilities: `data` of the envelope. */
export async function getChatCapabilities(): Promise<ChatCapabilities> {
  const answer = ensureSuccess(await apiRequest<Envelope<ChatCapabilities>>("/chat/capabilities"));
  if (answer.data === undefined) throw new ApiError("No capabilities", "envelope");
  return answer.data;
}

/** One remembered fact (ours): GET /chat/memories answers a list of these. */
export interface ChatMemory {
  memoryUUID: string;
  characterUUID: string;
  characterName: string;
  fact: string;
}

/** GET /chat/memories?id=<chat id>: what the chat's characters remember about the user. */
export async function listMemories(chatId: string): Promise<ChatMemory[]> {
  const answer = ensureSuccess(
    await apiRequest<Envelope<ChatMemory[]>>("/chat/memories", { query: { id: chatId } }),
  );
  return answer.data ?? [];
}

/** DELETE /chat/memories/?id=<memoryUUID>: forgets one fact. */
export async function deleteMemory(memoryId: string): Promise<void> {
  ensureSuccess(await apiRequest("/chat/memories/", { method: "DELETE", query: { id: memoryId } }));
}

/**
 * POST /users/confirm-age (ours), the chat's adult gate: stores that the person confirmed being 18 or older.
 * @returns the fresh session user (`adult` '1'). Throws on success 0.
 */
export async function confirmAdult(): Promise<SessionUser> {
  const answer = ensureSuccess(
    await apiRequest<Envelope<SessionUser>>("/users/confirm-age", {
      method: "POST",
      body: new URLSearchParams({ confirm: "1" }),
    }),
  );
  if (answer.data === undefined) throw new Error("The user is missing from the answer.");
  return answer.data;
}

/**
 * POST /chat/regenerate (id=<chatHistoryUUID>, stream=1, mute; "Swipes"): a new reply
 * for the entry, kept as a further alternative and chosen. Streams like continue-message: the
 * `entry` event, `token`s of the new text (from empty), `audio`s, then `done` with the stored
 * entry (its chatHistoryAlternatives grown by one). A refusal (429 at the message limit with its
 * `page`, 400 at REPLY_ALTERNATIVES_MAX, 404 for an entry not the user's) comes back as a reply
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
  const stream = apiStream("/chat/regenerate", body, dispatch(handlers), { signal, resumeId });
  return replyOf(stream, resumeId, signal);
}

/** The changed entry of a SwipeReply. @throws ApiError('envelope') on success 0 or without it. */
function changedEntry(answer: SwipeReply): ChatHistoryEntry {
  const entry = ensureSuccess(answer).history?.[0];
  if (entry === undefined) throw new ApiError(answer.message || "The message was not changed.", "envelope");
  return entry;
}

/**
 * POST /chat/swipe {id, index}: chooses alternative `index` (0-based) of the entry's
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
