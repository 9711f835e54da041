// Loading the signed-in user's groups (GET /characters/group/list).
import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { type CharacterGroup, listGroups } from "../../../api/characters";

/** The signed-in user's groups (GET /characters/group/list); disabled without a user id. */
export function useGroups(userId: string | undefined): UseQueryResult<CharacterGroup[]> {
  return useQuery({
    queryKey: ["groups", userId],
    queryFn: () => listGroups(userId ?? ""),
    enabled: Boolean(userId),
  });
}
