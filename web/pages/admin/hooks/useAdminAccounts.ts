// The admin console's account calls: add a user, list, create and revoke invitations.
import type { UseMutationResult, UseQueryResult } from "@tanstack/react-query";
import type { Envelope } from "../../../../common/api";
import {
  type AddedUser,
  addUser,
  createInvitation,
  type Invitation,
  listInvitations,
  revokeInvitation,
} from "../../../api/accounts";
import { useAdminQuery, useReloadingMutation } from "./adminQueries";

const INVITATIONS_KEY = ["admin", "invitations"];

/** The open invitations (admin console). */
export function useInvitations(): UseQueryResult<Invitation[]> {
  return useAdminQuery(INVITATIONS_KEY, listInvitations);
}

/** Adds a user; the users' list is read again. */
export function useAddUser(): UseMutationResult<Envelope<AddedUser>, Error, Parameters<typeof addUser>[0]> {
  return useReloadingMutation(addUser, [["admin", "users"]]);
}

/** Creates an invitation; the list is read again. */
export function useCreateInvitation(): UseMutationResult<
  Envelope<Invitation>,
  Error,
  Parameters<typeof createInvitation>[0]
> {
  return useReloadingMutation(createInvitation, [INVITATIONS_KEY]);
}

/** Revokes an invitation by id; the list is read again. */
export function useRevokeInvitation(): UseMutationResult<Envelope, Error, string> {
  return useReloadingMutation(revokeInvitation, [INVITATIONS_KEY]);
}
