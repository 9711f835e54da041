// The admin console's two server-state shapes: a list read fresh on every visit, and a change that reloads what it touched.
import type { QueryKey, UseMutationResult, UseQueryResult } from "@tanstack/react-query";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

/** A list of the admin console under `key`, read again each time a section mounts (no stale time). */
export function useAdminQuery<T>(key: QueryKey, read: () => Promise<T>): UseQueryResult<T> {
  return useQuery({ queryKey: key, queryFn: read, staleTime: 0 });
}

/**
 * A change of the admin console; once it succeeds the queries under each of `reloads` are read
 * again, one after the other, before the mutation settles. A failure reloads nothing.
 */
export function useReloadingMutation<TData, TVariables>(
  change: (variables: TVariables) => Promise<TData>,
  reloads: QueryKey[],
): UseMutationResult<TData, Error, TVariables> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: async () => {
      for (const key of reloads) await queryClient.invalidateQueries({ queryKey: key });
    },
  });
}
