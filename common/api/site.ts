// The site's public info (GET /site, ours): whether the guest demo is open and who may sign up.
import { z } from "zod";

/** Who may sign up on this server (REGISTRATION): nobody, invited people, or anyone. */
export const SiteRegistration = z
  .enum(["closed", "invite", "open"])
  .meta({ id: "SiteRegistration", description: "Who may sign up on this server (REGISTRATION)." });
export type SiteRegistration = z.infer<typeof SiteRegistration>;

/** GET /site: `data` of the envelope. */
export const SiteInfo = z
  .object({
    /** Whether the guest demo (/login/<id>) is open: the owner's switch in Admin → Site. */
    demo: z.boolean().describe("Whether the guest demo (/login/<id>) is open."),
    /** Who may sign up: nobody ("closed"), invited people, or anyone. */
    registration: SiteRegistration,
  })
  .meta({ id: "SiteInfo", description: "Whether the guest demo is open and who may sign up." });
export type SiteInfo = z.infer<typeof SiteInfo>;
