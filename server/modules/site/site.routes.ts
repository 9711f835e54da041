// The public pages' route (product.md §7 "Public pages"): the contact form.
import type { FastifyInstance } from "fastify";
import { ok } from "../../http/envelope";
import { rateLimit } from "../../http/rate-limit";
import { parseInput } from "../../http/validate";
import { ContactBody } from "./site.schemas";
import type { SiteService } from "./site.service";

/** product.md §7 "Public pages": contact (pricing is served by the payments module). */
export function siteRoutes(app: FastifyInstance, site: SiteService): void {
  app.post("/api/contact", { config: rateLimit(5, 10 * 60_000) }, async (request) => {
    const body = parseInput(ContactBody, request.body);
    await site.contact(body);
    return ok("Thank you! Your message has been sent; we will get back to you soon.");
  });
}
