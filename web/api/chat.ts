import type { ChatHistoryEntry, ChatProfileInfo, Envelope, MessageReply } from "../../common/api";
import { HISTORY_PAGE_SIZE } from "../../common/constants";
import { apiRequest, ensureSuccess } from "./client";
import { ApiError } from "./errors";

/** Chat calls (spec 7, Chat). */

/**
 * GET /chat/profile/?uid=<userId>&id=<chat session id>: the user's picture and names and the
 * chat's characters (spec 4: a non-empty `characters[0].gId` means a group chat).
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
 * `offset` counts from the newest entry (spec 9: page size 10, offset grows by 10).
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
  /** The trimmed text, at most 150 characters (spec 5). */
  message: string;
  /** The chat id: the group id in a group chat, else the character id. */
  chatId: string;
  /** The character that should reply. */
  characterId: string;
  /** '1' asks for no spoken audio. */
  mute: "0" | "1";
  /** When the user sent it. */
  time: Date;
}

/**
 * POST /chat/message as multipart (spec 7) with `message`, `id`, `cId`, `mute`, `time` (ISO).
 * Returns the reply envelope whatever its `success`: on success 0 it may still carry the
 * stored entry in `history[0]`.
 */
export function sendMessage(input: SendMessageInput): Promise<MessageReply> {
  const body = new FormData();
  body.set("message", input.message);
  body.set("id", input.chatId);
  body.set("cId", input.characterId);
  body.set("mute", input.mute);
  body.set("time", input.time.toISOString());
  return apiRequest<MessageReply>("/chat/message", { method: "POST", body });
}
