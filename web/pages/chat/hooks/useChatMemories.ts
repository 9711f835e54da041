// What the characters of a chat remember (GET /chat/memories) and deleting one, for the Settings popup.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { type ChatMemory, deleteMemory, listMemories } from "../../../api/memory";

export interface ChatMemories {
  memories: ChatMemory[];
  isLoading: boolean;
  /** Deletes one fact (DELETE /chat/memories/?id) and refreshes the list. */
  remove: (memoryId: string) => void;
  /** The memory being deleted, if any. */
  removingId: string | null;
}

/** What the characters of chat `chatId` remember (GET /chat/memories), loaded while `enabled`. */
export function useChatMemories(chatId: string, enabled: boolean): ChatMemories {
  const client = useQueryClient();
  const queryKey = ["chat-memories", chatId];
  const query = useQuery({ queryKey, queryFn: () => listMemories(chatId), enabled });
  const mutation = useMutation({
    mutationFn: deleteMemory,
    onSuccess: (_result, memoryId) => {
      client.setQueryData<ChatMemory[]>(queryKey, (old) => old?.filter((m) => m.memoryUUID !== memoryId));
    },
  });
  return {
    memories: query.data ?? [],
    isLoading: query.isLoading,
    remove: (memoryId) => mutation.mutate(memoryId),
    removingId: mutation.isPending ? (mutation.variables ?? null) : null,
  };
}
