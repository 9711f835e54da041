import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { RULES } from "../../../common/validation";
import { ok } from "../../http/envelope";
import { rateLimit } from "../../http/rate-limit";
import { EmailField, parseInput, textField } from "../../http/validate";
import type { SiteService } from "./site.service";

/** product.md §5 "Contact": name, email, subject, message all required (rules of common/validation.ts). */
const ContactBody = z.object({
  name: textField(RULES.contactName),
  email: EmailField,
  subject: textField(RULES.contactSubject),
  message: textField(RULES.contactMessage),
});

/** product.md §7 "Public pages": contact (pricing is served by the payments module). */
export function siteRoutes(app: FastifyInstance, site: SiteService): void {
  app.post("/api/contact", { config: rateLimit(5, 10 * 60_000) }, async (request) => {
    const body = parseInput(ContactBody, request.body);
    await site.contact(body);
    return ok("Thank you! Your message has been sent; we will get back to you soon.");
  });
}
