// Message search (GET /search): the user's own chats, newest first, the match's offsets in each snippet.
import type { Envelope } from "../../common/api";
import type { SearchHit } from "../../common/search";
import { apiRequest, ensureSuccess } from "./client";

export type { SearchHit } from "../../common/search";

/**
 * GET /search?q=<words>&chat=<chat id>: the messages holding every word (word prefixes), newest
 * first, at most 50; only chat `chatId` when given (a character or group id).
 * @throws ApiError when refused (404 for a chat that is not the user's, 429 when too many).
 */
export async function searchMessages(
  query: string,
  chatId?: string,
  signal?: AbortSignal,
): Promise<SearchHit[]> {
  const answer = ensureSuccess(
    await apiRequest<Envelope<SearchHit[]>>("/search", {
      query: { q: query, ...(chatId ? { chat: chatId } : {}) },
      signal,
    }),
  );
  return answer.data ?? [];
}

/** A hit's snippet cut into plain parts and matched parts, in order (the client marks the latter). */
export function snippetParts(
  hit: Pick<SearchHit, "snippet" | "marks">,
): Array<{ text: string; match: boolean }> {
  const parts: Array<{ text: string; match: boolean }> = [];
  let at = 0;
  for (const [start, end] of hit.marks) {
    if (start < at || end > hit.snippet.length || end <= start) continue;
    if (start > at) parts.push({ text: hit.snippet.slice(at, start), match: false });
    parts.push({ text: hit.snippet.slice(start, end), match: true });
    at = end;
  }
  if (at < hit.snippet.length) parts.push({ text: hit.snippet.slice(at), match: false });
  return parts;
}
