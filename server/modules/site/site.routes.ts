// The public pages' routes (product.md §7 "Public pages"): the contact form and the site's public info; the console's site settings.
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import { adminScope, currentUser } from "../../http/auth";
import { ok } from "../../http/envelope";
import { requestOrigin } from "../../http/origin";
import { rateLimit } from "../../http/rate-limit";
import { parseInput } from "../../http/validate";
import type { SiteSettingsService } from "./settings.service";
import { ContactBody, SiteSettingsBody } from "./site.schemas";
import type { SiteService } from "./site.service";

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
  app.post("/api/contact", { config: rateLimit(5, 10 * 60_000) }, async (request) => {
    const body = parseInput(ContactBody, request.body);
    await site.contact(body);
    return ok("Thank you! Your message has been sent; we will get back to you soon.");
  });

  app.get("/api/site", async () => ok("Site.", { data: await settings.info() }));

  await adminScope(app, auth, "/api/admin", (scope) => {
    scope.get("/site", async (request) =>
      ok("Site settings.", { data: await settings.view(requestOrigin(request)) }),
    );
    scope.post("/site", async (request) => {
      const { demo } = parseInput(SiteSettingsBody, request.body);
      const view = await settings.setDemo(currentUser(request), demo, requestOrigin(request));
      return ok(demo ? "The guest demo is on." : "The guest demo is off.", { data: view });
    });
  });
}
