import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { type ChatCapabilities, getChatCapabilities } from "../../../api/chat";

/**
 * What the chat screen may offer (GET /chat/capabilities): a control whose capability is off
 * is hidden or shown disabled with the reason, never faked.
 */
export function useChatCapabilities(): UseQueryResult<ChatCapabilities> {
  return useQuery({
    queryKey: ["chat-capabilities"],
    queryFn: getChatCapabilities,
    staleTime: 60_000,
    meta: { silent: true },
  });
}
