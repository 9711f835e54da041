// Loading one character for the edit form (GET /characters/?id=), always fresh.
import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { type CharacterDetail, getCharacter } from "../../../api/characters";

/** One character to edit (GET /characters/?id=); disabled without an id. Always fetched fresh. */
export function useCharacter(id: string | undefined): UseQueryResult<CharacterDetail> {
  return useQuery({
    queryKey: ["character", id],
    queryFn: () => getCharacter(id ?? ""),
    enabled: Boolean(id),
    staleTime: 0,
  });
}
