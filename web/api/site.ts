// The site's public info (GET /site, ours): whether the guest demo is open and who may sign up.
import type { Envelope, SiteInfo } from "../../common/api";
import { apiRequest } from "./client";

/** GET /site: `data` of the envelope, and who may sign up (REGISTRATION); declared in common/api. */
export type { SiteInfo, SiteRegistration } from "../../common/api";

/**
 * GET /site (public, no session): whether the guest demo is open and the sign-up mode, so public
 * pages point their buttons to what works. An answer that is not usable reads as the closed
 * default (no demo, no sign-up), so no button leads to a refusal.
 */
export async function getSiteInfo(): Promise<SiteInfo> {
  const answer = await apiRequest<Envelope<Partial<SiteInfo>>>("/site", {
    expireOn401: false,
    maintenanceOn503: false,
  });
  const data = answer.success === 1 ? answer.data : undefined;
  const registration = data?.registration;
  return {
    demo: data?.demo === true,
    registration: registration === "open" || registration === "invite" ? registration : "closed",
  };
}
