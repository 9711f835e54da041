// Loading the signed-in user's character list (GET /characters/list).
import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import type { CharacterListItem } from "../../../../common/api";
import { listCharacters } from "../../../api/characters";

/** The signed-in user's characters (GET /characters/list); disabled without a user id. */
export function useCharacters(userId: string | undefined): UseQueryResult<CharacterListItem[]> {
  return useQuery({
    queryKey: ["characters", userId],
    queryFn: () => listCharacters(userId ?? ""),
    enabled: Boolean(userId),
  });
}
