// The character form's voices (GET /characters/voices) as a query.
import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { listVoices, type Voice } from "../api/voice";

/** The voices of the character form (GET /characters/voices, `voices`). */
export function useVoices(): UseQueryResult<Voice[]> {
  return useQuery({ queryKey: ["voices"], queryFn: listVoices, staleTime: 10 * 60_000 });
}
