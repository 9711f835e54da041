// Unseen check-in counts per character for the list's badges; marks those chats' cached history stale.
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { listUnreadCheckins } from "../../../api/checkins";

/**
 * The user's characters with check-ins not seen yet (GET /chat/checkins/unread),
 * character id → count, asked afresh each time the list is shown; disabled without a user id.
 * The history the chat keeps cached of such a chat is marked stale, so opening the chat reads
 * it afresh and shows the check-in (reading its newest page clears the count on the server).
 */
export function useUnreadCheckins(userId: string | undefined): Map<string, number> | undefined {
  const queryClient = useQueryClient();
  const unread = useQuery({
    queryKey: ["checkins-unread", userId],
    queryFn: listUnreadCheckins,
    enabled: Boolean(userId),
    staleTime: 0,
    refetchOnMount: "always",
    meta: { silent: true },
  });
  useEffect(() => {
    for (const [characterId, count] of unread.data ?? []) {
      if (count > 0)
        void queryClient.invalidateQueries({
          queryKey: ["chat-history", userId, characterId],
          refetchType: "none",
        });
    }
  }, [unread.data, queryClient, userId]);
  return unread.data;
}
