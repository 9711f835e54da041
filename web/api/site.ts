// The site's public info (GET /site, ours): whether the guest demo is open and who may sign up.
import type { Envelope } from "../../common/api";
import { apiRequest } from "./client";

/** Who may sign up on this server (REGISTRATION). */
export type SiteRegistration = "closed" | "invite" | "open";

/** GET /site: `data` of the envelope. */
export interface SiteInfo {
  /** Whether the guest demo (/login/<id>) is open: the owner's switch in Admin → Site. */
  demo: boolean;
  /** Who may sign up: nobody ("closed"), invited people, or anyone. */
  registration: SiteRegistration;
}

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
