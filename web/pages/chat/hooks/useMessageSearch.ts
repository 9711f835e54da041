// The search panel's query: the user's words, debounced, searched in this chat or in all their chats.
import { useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { type SearchHit, searchMessages } from "../../../api/search";

/** How long typing must pause before the search runs, ms. */
const DEBOUNCE_MS = 250;

export interface MessageSearch {
  hits: SearchHit[];
  /** A search runs (or waits for typing to pause). */
  isSearching: boolean;
  isError: boolean;
  /** The words searched (trimmed); "" before any. */
  searched: string;
}

/**
 * Searches the user's messages for `text` (GET /search) once typing pauses for DEBOUNCE_MS;
 * nothing for blank text. @param chatId only this chat; undefined: all the user's chats.
 */
export function useMessageSearch(text: string, chatId: string | undefined): MessageSearch {
  const wanted = text.trim();
  const [searched, setSearched] = useState(wanted);
  useEffect(() => {
    const timer = window.setTimeout(() => setSearched(wanted), DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [wanted]);
  const query = useQuery({
    queryKey: ["message-search", searched, chatId ?? ""],
    queryFn: ({ signal }) => searchMessages(searched, chatId, signal),
    enabled: searched !== "",
    staleTime: 0,
    gcTime: 60_000,
    meta: { silent: true },
  });
  return {
    hits: searched === "" ? [] : (query.data ?? []),
    isSearching: wanted !== searched || (searched !== "" && query.isFetching),
    isError: query.isError,
    searched,
  };
}
