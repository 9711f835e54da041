// The profile answer (product.md §3 "User profile", GET /api/users/profile/).
import type { UserProfile } from "../../../common/api";
import type { User } from "../../db/schema";
import { isAdmin } from "../auth/auth.presenter";

/**
 * product.md §3 "User profile": the user's names, e-mail ("" for a guest account), plan name and
 * the messages of the current quota period. `chatCount` is the period's count the users service
 * worked out (0 once a new period began), not the stored column.
 */
export function presentProfile(user: User, profile: { planName: string; chatCount: number }): UserProfile {
  return {
    name: user.full_name,
    userName: user.user_name,
    userEmail: user.is_demo ? "" : user.email,
    pricingPlanName: profile.planName,
    chatLimit: user.chat_limit,
    chatCount: profile.chatCount,
    userPicture: user.picture,
    isAdmin: isAdmin(user),
  };
}
