// What the chat's characters remember about the user (GET and DELETE /chat/memories).
import type { ChatMemory, Envelope } from "../../common/api";
import { apiRequest, ensureSuccess } from "./client";

/** One remembered fact (ours): GET /chat/memories answers a list of these (common/api). */
export type { ChatMemory } from "../../common/api";

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
