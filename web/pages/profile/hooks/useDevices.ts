// The signed-in user's registered devices (GET /auth/devices) and revoking one.
import {
  type UseMutationResult,
  type UseQueryResult,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import type { Envelope, SignedInDevice } from "../../../../common/api";
import { listDevices, revokeDevice } from "../../../api/auth";

const DEVICES_KEY = ["devices"] as const;

/** The signed-in user's registered devices (GET /auth/devices). */
export function useDevices(): UseQueryResult<SignedInDevice[]> {
  return useQuery({ queryKey: DEVICES_KEY, queryFn: listDevices, staleTime: 0 });
}

/** Revokes one device by id, then reloads the list (DELETE /auth/devices?id=). */
export function useRevokeDevice(): UseMutationResult<Envelope, Error, string> {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => revokeDevice(id),
    onSettled: () => client.invalidateQueries({ queryKey: DEVICES_KEY }),
  });
}
