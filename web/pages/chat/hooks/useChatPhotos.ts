// The chat's photos for the Photo List (GET /chat/history/photos, product.md §2), fetched each time the list opens.
import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import type { PhotoHistoryEntry } from "../../../../common/api";
import { listChatPhotos } from "../../../api/images";

/**
 * The chat's photos for the Photo List (GET /chat/history/photos, product.md §2): fetched each time the
 * list is opened. Failures are only logged (product.md §8 "History, photos … failures: logged only").
 */
export function useChatPhotos(
  userId: string,
  chatId: string,
  open: boolean,
): UseQueryResult<PhotoHistoryEntry[]> {
  return useQuery({
    queryKey: ["chat-photos", userId, chatId],
    queryFn: () => listChatPhotos(userId, chatId),
    enabled: open && userId !== "" && chatId !== "",
    staleTime: 0,
    refetchOnMount: "always",
    meta: { silent: true },
  });
}
