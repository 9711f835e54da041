// The public pages' routes (product.md §7 "Public pages"): the contact form and the site's public info; the console's site settings.
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import { AdminSiteSettings, Envelope, envelopeOf, SiteInfo } from "../../../common/api";
import { adminScope, currentUser } from "../../http/auth";
import { ok } from "../../http/envelope";
import { requestOrigin } from "../../http/origin";
import { rateLimit } from "../../http/rate-limit";
import { answers, zodApp } from "../../http/route-schemas";
import { msg } from "../../i18n/messages";
import type { SiteSettingsService } from "./settings.service";
import { ContactBody, SiteSettingsBody, siteDoc } from "./site.schemas";
import type { SiteService } from "./site.service";

const SITE_INFO =
  '`data: { demo: boolean, registration: "closed" | "invite" | "open" }`: whether the guest demo is on, and who may sign up (nothing secret)';
const SETTINGS =
  "`data: { demo, registration, demoLink }`: whether the guest demo is on, the `REGISTRATION` mode, the demo's link (on `PUBLIC_URL`, else the request's origin)";
const SET_DEMO = "turns the guest demo off or on at once; `data` as GET; audited `site.demo`";

/**
 * product.md §7 "Public pages": contact (pricing is served by the payments module). Ours:
 * `GET /api/site` (public: whether the guest demo is open and the REGISTRATION mode, so the
 * SPA points its buttons to what works), and in the admin scope `GET|POST /api/admin/site`
 * (the guest demo's switch).
 */
export async function siteRoutes(
  app: FastifyInstance,
  services: { site: SiteService; settings: SiteSettingsService },
  auth: onRequestAsyncHookHandler,
): Promise<void> {
  const { site, settings } = services;
  const api = zodApp(app);
  const contact = {
    ...siteDoc("Site and public files", "a thank-you sentence", "§7"),
    body: ContactBody,
    response: answers(Envelope),
  };
  api.post("/api/contact", { config: rateLimit(5, 10 * 60_000), schema: contact }, async (request) => {
    await site.contact(request.body);
    return ok(msg("site.thankMessageBeenSentWe"));
  });

  api.get(
    "/api/site",
    { schema: { ...siteDoc("Site and public files", SITE_INFO), response: answers(envelopeOf(SiteInfo)) } },
    async () => ok(msg("site.site"), { data: await settings.info() }),
  );

  const settingsAnswer = answers(envelopeOf(AdminSiteSettings));
  await adminScope(app, auth, "/api/admin", (scope) => {
    scope.get(
      "/site",
      { schema: { ...siteDoc("Admin", SETTINGS), response: settingsAnswer } },
      async (request) => ok(msg("site.siteSettings"), { data: await settings.view(requestOrigin(request)) }),
    );
    scope.post(
      "/site",
      { schema: { ...siteDoc("Admin", SET_DEMO), body: SiteSettingsBody, response: settingsAnswer } },
      async (request) => {
        const { demo } = request.body;
        const view = await settings.setDemo(currentUser(request), demo, requestOrigin(request));
        return ok(demo ? msg("site.guestDemo") : msg("site.guestDemoOff"), { data: view });
      },
    );
  });
}
