// The chat profile for a session id (GET /chat/profile, product.md §4 "Chat loading").
import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import type { ChatProfileInfo } from "../../../../common/api";
import { getChatProfile } from "../../../api/chat";

/**
 * The chat profile for a session id (GET /chat/profile, product.md §4 "Chat loading"). Failures are
 * only logged (product.md §8: "Data load failure in chat"); the screen shows its own error state.
 */
export function useChatProfile(
  userId: string | undefined,
  sessionId: string,
): UseQueryResult<ChatProfileInfo> {
  return useQuery({
    queryKey: ["chat-profile", userId, sessionId],
    queryFn: () => getChatProfile(userId ?? "", sessionId),
    enabled: Boolean(userId),
    meta: { silent: true },
  });
}
