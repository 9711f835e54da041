// Group chat calls: the group send (streamed or not), starting a group and changing its members.
import type { GroupReply } from "../../common/api";
import { apiRequest, ensureSuccess } from "./client";
import { type ReplyStreamHandlers, streamReply } from "./replies";

/** The group answer's shape, declared once in common/api (the server's presenter returns it). */
export type { GroupReply } from "../../common/api";

/** What a group send carries (product.md §7 `chat/group/reply`). */
export interface GroupMessageInput {
  message: string;
  groupId: string;
  clientMessageId: string;
  /** true asks for no spoken audio. */
  mute?: boolean;
}

/** The form body of POST /chat/group/reply. */
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
  // No resume: each member's reply has its own live reply; the whole turn is not one stream.
  return streamReply("/chat/group/reply", groupForm(input), handlers, {
    keep: "first",
    resume: false,
    signal,
  });
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
