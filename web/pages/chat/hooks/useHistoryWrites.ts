// Putting an edited or removed entry into both places the chat screen shows entries from.
import { useQueryClient } from "@tanstack/react-query";
import { type RefObject, useCallback, useRef } from "react";
import type { ChatHistoryEntry } from "../../../../common/api";
import { type HistoryPages, removeFromHistory, replaceInHistory } from "../historyEdits";
import type { LiveChat } from "./useChatSender";

export interface HistoryWrites {
  /** The query key of the chat's cached history pages (useChatHistory's), as last rendered. */
  keyRef: RefObject<readonly unknown[]>;
  /** An entry changed on the server: replaced in the cached pages and the live items. */
  changed: (entry: ChatHistoryEntry) => void;
  /** Entries removed on the server: dropped from both, the photo list and memories forgotten, the pages refetched. */
  removed: (ids: string[]) => Promise<void>;
  /** The server redrew the memory from what is left: the chat's facts are read again. */
  forgetMemories: () => void;
}

/**
 * Writes answers of the entry edits into the cached history pages (`["chat-history", userId,
 * chatId]`) and the live items of this screen (`entryReplaced`, `entriesRemoved`). A removal also
 * drops the cached photo list (`["chat-photos", userId, chatId]`) and memories
 * (`["chat-memories", chatId]`) and refetches the loaded pages, whose offsets moved.
 */
export function useHistoryWrites(userId: string, chatId: string, live: LiveChat): HistoryWrites {
  const { dispatch } = live;
  const client = useQueryClient();
  const keyRef = useRef<readonly unknown[]>([]);
  keyRef.current = ["chat-history", userId, chatId];

  const forgetMemories = useCallback(
    () => client.removeQueries({ queryKey: ["chat-memories", chatId] }),
    [client, chatId],
  );

  const changed = useCallback(
    (entry: ChatHistoryEntry) => {
      client.setQueryData<HistoryPages>(keyRef.current, (data) => replaceInHistory(data, entry));
      dispatch({ type: "entryReplaced", entry });
    },
    [client, dispatch],
  );

  const removed = useCallback(
    async (ids: string[]) => {
      client.setQueryData<HistoryPages>(keyRef.current, (data) => removeFromHistory(data, ids));
      dispatch({ type: "entriesRemoved", ids });
      // Their pictures are gone from the photo list, and the memory was drawn again.
      client.removeQueries({ queryKey: ["chat-photos", userId, chatId] });
      forgetMemories();
      // The server's offsets moved by what was removed: the loaded pages again, or a later page skips entries.
      await client.invalidateQueries({ queryKey: keyRef.current });
    },
    [client, dispatch, forgetMemories, userId, chatId],
  );

  return { keyRef, changed, removed, forgetMemories };
}
