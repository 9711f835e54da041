// The paged chat history of one chat (GET /chat/history/paginated, product.md §4, §9): paging up, live follow, jumps.
import { type InfiniteData, type QueryClient, useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback, useMemo, useState } from "react";
import type { ChatHistoryEntry } from "../../../../common/api";
import { HISTORY_PAGE_SIZE } from "../../../../common/constants";
import { getHistoryPage } from "../../../api/chat";
import type { LiveChat } from "./useChatSender";
import { useReplyFollow } from "./useReplyFollow";

/** How often a chat whose newest reply cannot be followed or picture is being made is fetched again, ms. */
const PENDING_POLL_MS = 2000;

export interface ChatHistory {
  /** Loaded entries, oldest first, each chatHistoryUUID once. */
  entries: ChatHistoryEntry[];
  isLoading: boolean;
  isError: boolean;
  /** True while an earlier page is being fetched. */
  isLoadingEarlier: boolean;
  /** False once a page shorter than the page size came back. */
  hasEarlier: boolean;
  /** Loads the previous page (offset += 10, product.md §4 "Scrolling") and prepends it. */
  loadEarlier: () => void;
  /**
   * Loads the newest `count` entries at once (at most JUMP_MAX_ENTRIES), as the pages scrolling
   * up would have loaded them: opening the chat at a message found by search.
   */
  loadThrough: (count: number) => Promise<void>;
}

/** The most entries a jump to a found message loads. */
export const JUMP_MAX_ENTRIES = 3000;
/** Entries per request while loading through a found message (the paginated route's most). */
const JUMP_REQUEST_SIZE = 100;

/**
 * The paged chat history of one chat (GET /chat/history/paginated, product.md §4, 9): page 0 is the
 * newest 10 entries; each earlier page is fetched at offset + 10. Messages sent meanwhile can
 * shift the pages, so entries are de-duplicated by chatHistoryUUID. Failures are only logged
 * (product.md §8: "History page load failure: only clears the loading state").
 * A newest reply still being written is followed live into `live` (`useReplyFollow`);
 * the history polls only when it cannot be, and while a reply's picture is being made.
 */
export function useChatHistory(userId: string | undefined, chatId: string, live: LiveChat): ChatHistory {
  /** The pending entry that could not be followed: the history polls until it settles. */
  const [polled, setPolled] = useState("");
  const queryKey = ["chat-history", userId, chatId];
  const query = useInfiniteQuery({
    queryKey,
    queryFn: ({ pageParam }) => getHistoryPage(userId ?? "", chatId, pageParam, HISTORY_PAGE_SIZE),
    initialPageParam: 0,
    getNextPageParam: (lastPage, _pages, lastOffset) =>
      lastPage.length < HISTORY_PAGE_SIZE ? undefined : lastOffset + HISTORY_PAGE_SIZE,
    enabled: Boolean(userId) && chatId !== "",
    staleTime: Number.POSITIVE_INFINITY,
    // A reply still being written that cannot be followed shows up when done…
    // …and a reply's picture being made (chatHistoryImageLoading 1) shows up when done.
    refetchInterval: (current) => {
      const newest = current.state.data?.pages[0]?.at(-1);
      return (newest?.chatHistoryStatus === "pending" && newest.chatHistoryUUID === polled) ||
        current.state.data?.pages[0]?.some((entry) => entry.chatHistoryImageLoading === 1)
        ? PENDING_POLL_MS
        : false;
    },
    meta: { silent: true },
  });

  const pages = query.data?.pages;
  const entries = useMemo(() => {
    const seen = new Set<string>();
    const result: ChatHistoryEntry[] = [];
    // pages[0] is the newest page; walk from the oldest page forwards.
    for (const page of [...(pages ?? [])].reverse()) {
      for (const entry of page) {
        if (seen.has(entry.chatHistoryUUID)) continue;
        seen.add(entry.chatHistoryUUID);
        result.push(entry);
      }
    }
    return result;
  }, [pages]);

  useReplyFollow(queryKey, entries, live, setPolled);

  const queryClient = useQueryClient();
  const loadThrough = useCallback(
    (count: number) =>
      loadPagesThrough(queryClient, ["chat-history", userId, chatId], userId ?? "", chatId, count),
    [queryClient, userId, chatId],
  );

  const { fetchNextPage, hasNextPage, isFetchingNextPage } = query;
  return {
    entries,
    isLoading: query.isLoading,
    isError: query.isError,
    isLoadingEarlier: isFetchingNextPage,
    hasEarlier: hasNextPage,
    loadEarlier: () => {
      if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
    },
    loadThrough,
  };
}

/**
 * Fetches the newest `count` entries (rounded up to whole pages, at most JUMP_MAX_ENTRIES) in
 * requests of JUMP_REQUEST_SIZE and stores them as the history query's pages of
 * HISTORY_PAGE_SIZE (offsets 0, 10, 20…), so scrolling up goes on from there.
 */
async function loadPagesThrough(
  queryClient: QueryClient,
  queryKey: unknown[],
  userId: string,
  chatId: string,
  count: number,
): Promise<void> {
  const total = Math.min(Math.ceil(count / HISTORY_PAGE_SIZE) * HISTORY_PAGE_SIZE, JUMP_MAX_ENTRIES);
  const pages: ChatHistoryEntry[][] = [];
  const pageParams: number[] = [];
  for (let offset = 0; offset < total; offset += JUMP_REQUEST_SIZE) {
    const chunk = await getHistoryPage(userId, chatId, offset, Math.min(JUMP_REQUEST_SIZE, total - offset));
    // The chunk is oldest first: its newest page is its end.
    for (let end = chunk.length, at = offset; end > 0; end -= HISTORY_PAGE_SIZE, at += HISTORY_PAGE_SIZE) {
      pages.push(chunk.slice(Math.max(0, end - HISTORY_PAGE_SIZE), end));
      pageParams.push(at);
    }
    if (chunk.length < JUMP_REQUEST_SIZE) break;
  }
  if (pages.length === 0) return;
  await queryClient.cancelQueries({ queryKey, exact: true });
  queryClient.setQueryData<InfiniteData<ChatHistoryEntry[], number>>(queryKey, { pages, pageParams });
}
