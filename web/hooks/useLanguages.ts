// The character form's languages (GET /characters/languages) as a query.
import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { type Language, listLanguages } from "../api/characters";

/** The languages of the character form (GET /characters/languages, `languages`). */
export function useLanguages(): UseQueryResult<Language[]> {
  return useQuery({ queryKey: ["languages"], queryFn: listLanguages, staleTime: 10 * 60_000 });
}
