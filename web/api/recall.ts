// Recall of earlier messages (GET and POST /chat/recall): whether a chat's replies may look up its earlier parts.
import type { Envelope, RecallSetting } from "../../common/api";
import { apiRequest, ensureSuccess } from "./client";

/** A chat's recall setting as the server answers it: `{enabled}` (common/api). */
export type { RecallSetting } from "../../common/api";

/**
 * GET /chat/recall?id=<chat id> (ours): whether the chat's replies may recall its earlier messages
 * (one-to-one and group chats). Answers null when the server has no such setting for the chat
 * (refused: an unknown chat, or a server without recall), so no switch is shown.
 */
export async function getRecall(chatId: string): Promise<RecallSetting | null> {
  const answer = await apiRequest<Envelope<RecallSetting>>("/chat/recall", { query: { id: chatId } });
  return answer.success === 1 && typeof answer.data?.enabled === "boolean" ? answer.data : null;
}

/**
 * POST /chat/recall (ours), JSON `{id, enabled}`: turns recall of earlier messages on or off for
 * the chat. @returns the setting as stored. Throws `ApiError` when refused.
 */
export async function setRecall(chatId: string, enabled: boolean): Promise<RecallSetting> {
  const answer = ensureSuccess(
    await apiRequest<Envelope<RecallSetting>>("/chat/recall", {
      method: "POST",
      json: { id: chatId, enabled },
    }),
  );
  return answer.data ?? { enabled };
}
