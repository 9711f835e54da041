// The prompt inspector's call: what the prompt of one of the user's replies was made of (GET /chat/prompt).
import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import type { PromptInspection, PromptInspectionReply } from "../../common/prompt-inspection";
import { apiRequest, ensureSuccess } from "./client";

/**
 * GET /chat/prompt?id=<entry id>&index=<version>: the inspection of the reply version `index`
 * of the entry; null when none was kept (a greeting, an older reply).
 * @throws ApiError when refused (404 for an entry that is not the user's).
 */
export async function getPromptInspection(entryId: string, index: number): Promise<PromptInspection | null> {
  const answer = ensureSuccess(
    await apiRequest<PromptInspectionReply>("/chat/prompt", { query: { id: entryId, index: String(index) } }),
  );
  return answer.inspection ?? null;
}

/** The inspection of a reply version, fetched when asked for (the dialog opens) and kept while shown. */
export function usePromptInspection(entryId: string, index: number): UseQueryResult<PromptInspection | null> {
  return useQuery({
    queryKey: ["prompt-inspection", entryId, index],
    queryFn: () => getPromptInspection(entryId, index),
    staleTime: 60_000,
  });
}
