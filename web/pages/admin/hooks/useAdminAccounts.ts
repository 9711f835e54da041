// The admin console's account calls: add a user, list, create and revoke invitations.
import {
  type UseMutationResult,
  type UseQueryResult,
  useMutation,
  useQuery,
  useQueryClient,
} from "@tanstack/react-query";
import type { Envelope } from "../../../../common/api";
import {
  type AddedUser,
  addUser,
  createInvitation,
  type Invitation,
  listInvitations,
  revokeInvitation,
} from "../../../api/accounts";

/** The open invitations (admin console). */
export function useInvitations(): UseQueryResult<Invitation[]> {
  return useQuery({ queryKey: ["admin", "invitations"], queryFn: listInvitations, staleTime: 0 });
}

/** Adds a user; the users' list is read again. */
export function useAddUser(): UseMutationResult<Envelope<AddedUser>, Error, Parameters<typeof addUser>[0]> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["admin", "users"] }),
  });
}

/** Creates an invitation; the list is read again. */
export function useCreateInvitation(): UseMutationResult<
  Envelope<Invitation>,
  Error,
  Parameters<typeof createInvitation>[0]
> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createInvitation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["admin", "invitations"] }),
  });
}

/** Revokes an invitation by id; the list is read again. */
export function useRevokeInvitation(): UseMutationResult<Envelope, Error, string> {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeInvitation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["admin", "invitations"] }),
  });
}
