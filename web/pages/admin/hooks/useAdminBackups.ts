// The admin console's backups: the list (asked again every 2 s while one runs), "Back up now" and an archive's download.
import {
  queryOptions,
  type UseMutationResult,
  type UseQueryResult,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import type { Envelope } from "../../../../common/api";
import {
  type AdminBackups,
  downloadAdminBackup,
  getAdminBackups,
  startAdminBackup,
} from "../../../api/admin";
import { saveBlob } from "../../../lib/saveBlob";

/** The backups' query key, under the admin console's ["admin"]. */
export const BACKUPS_QUERY_KEY = ["admin", "backups"] as const;

/** How often the list is asked again while a backup is running, ms. */
export const BACKUPS_POLL_MS = 2000;

/**
 * The backups query's options: read fresh on every visit, and asked again every
 * `BACKUPS_POLL_MS` while the last answer says a backup is running.
 */
export const backupsQueryOptions = queryOptions({
  queryKey: BACKUPS_QUERY_KEY,
  queryFn: getAdminBackups,
  staleTime: 0,
  refetchInterval: (query) => (query.state.data?.running === true ? BACKUPS_POLL_MS : false),
});

/** The archives (newest first), whether a backup is running, the schedule and the last outcomes. */
export function useAdminBackups(): UseQueryResult<AdminBackups> {
  return useQuery(backupsQueryOptions);
}

/**
 * Starts a backup (POST /admin/backups). Whether it started or was refused (409: one is already
 * running), the list is read again before the mutation settles, so it then says `running` and
 * the polling starts. A refusal shows the server's sentence as a toast (the query client's).
 */
export function useStartBackup(): UseMutationResult<Envelope, Error, void> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => startAdminBackup(),
    onSettled: () => queryClient.invalidateQueries({ queryKey: BACKUPS_QUERY_KEY }),
  });
}

/**
 * Downloads one archive by name with the bearer token and hands it to the browser under the
 * server's file name. A refusal shows the server's sentence as a toast (the query client's).
 */
export function useDownloadBackup(): UseMutationResult<void, Error, string> {
  return useMutation({
    mutationFn: async (name: string) => {
      const { blob, fileName } = await downloadAdminBackup(name);
      saveBlob(blob, fileName);
    },
  });
}
