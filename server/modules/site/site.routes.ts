import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { ok } from "../../http/envelope";
import { rateLimit } from "../../http/rate-limit";
import { EmailField, parseInput } from "../../http/validate";
import type { SiteService } from "./site.service";

const Required = (max: number) =>
  z.string().trim().min(1, "is required").max(max, `must be at most ${max} characters`);
const ContactBody = z.object({
  name: Required(100),
  email: EmailField,
  subject: Required(200),
  message: Required(5000),
});

/** spec 7 "Public pages": contact (pricing is served by the payments module). */
export function siteRoutes(app: FastifyInstance, site: SiteService): void {
  app.post("/api/contact", { config: rateLimit(5, 10 * 60_000) }, async (request) => {
    const body = parseInput(ContactBody, request.body);
    await site.contact(body);
    return ok("Thank you! Your message has been sent; we will get back to you soon.");
  });
}
