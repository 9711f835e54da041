// The user's characters for the chat sidebar (GET /characters/list/chat, product.md §4 "Chat loading").
import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import type { CharacterListItem } from "../../../../common/api";
import { listChatCharacters } from "../../../api/characters";

/** The user's characters for the chat sidebar (GET /characters/list/chat, product.md §4 "Chat loading"). */
export function useChatCharacters(): UseQueryResult<CharacterListItem[]> {
  return useQuery({ queryKey: ["chat-characters"], queryFn: listChatCharacters, meta: { silent: true } });
}
