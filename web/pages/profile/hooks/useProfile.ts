// The signed-in user's profile (GET /users/profile) as a query.
import { type UseQueryResult, useQuery } from "@tanstack/react-query";
import { getProfile, type UserProfile } from "../../../api/users";

/** The signed-in user's profile (GET /users/profile/?id=); disabled without a user id. */
export function useProfile(userId: string | undefined): UseQueryResult<UserProfile> {
  return useQuery({
    queryKey: ["profile", userId],
    queryFn: () => getProfile(userId ?? ""),
    enabled: Boolean(userId),
    staleTime: 0,
  });
}
