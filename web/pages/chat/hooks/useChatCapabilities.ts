// What the chat screen may offer (GET /chat/capabilities), asked again every 5 s while the chat is off or unreachable.
import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { type ChatCapabilities, getChatCapabilities } from "../../../api/capabilities";

/** How often the capabilities are asked again while the chat is off or unreachable. */
export const CHAT_OFF_POLL_MS = 5_000;

/**
 * What the chat screen may offer (GET /chat/capabilities): a control whose capability is off
 * is hidden or shown disabled with the reason, never faked. While the chat itself is off (no
 * model yet, still downloading) or the answer failed, it is asked again every 5 s, so the
 * banner that says so leaves once the model is ready.
 */
export function useChatCapabilities(): UseQueryResult<ChatCapabilities> {
  return useQuery({
    queryKey: ["chat-capabilities"],
    queryFn: getChatCapabilities,
    staleTime: 60_000,
    meta: { silent: true },
    refetchInterval: (query) =>
      query.state.status === "error" || query.state.data?.chat.enabled === false ? CHAT_OFF_POLL_MS : false,
  });
}
