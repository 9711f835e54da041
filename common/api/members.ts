// Self-hosted accounts' wire shapes (ours, listed in product.md §7): the owner set-up link's check and the sign-up mode.
import { z } from "zod";
import { SiteRegistration } from "./site";

/**
 * Declared once here and re-exported by common/api.ts: server/modules/members/members.routes.ts
 * answers them under `data` of `GET /setup/:token` and `GET /auth/registration`, and
 * web/api/accounts.ts reads them. The admin console's accounts and invitations are in
 * common/api/admin.ts (`AddedUser`, `Invitation`), the sign-in answer in common/api/account.ts.
 */

/** `GET /setup/:token`: whether the owner set-up link still works. */
export const SetupLinkStatus = z
  .object({
    valid: z.boolean().describe("Whether the owner set-up link still works."),
  })
  .meta({ id: "SetupLinkStatus", description: "Whether the owner set-up link still works." });
export type SetupLinkStatus = z.infer<typeof SetupLinkStatus>;

/** `GET /auth/registration`: who may sign up on this server (the server's REGISTRATION). */
export const RegistrationStatus = z
  .object({
    mode: SiteRegistration,
  })
  .meta({ id: "RegistrationStatus", description: "Who may sign up on this server." });
export type RegistrationStatus = z.infer<typeof RegistrationStatus>;
