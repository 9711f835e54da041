import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { ok } from "../../http/envelope";
import { rateLimit } from "../../http/rate-limit";
import { parseInput } from "../../http/validate";
import { EmailField } from "../account/account.routes";
import type { SiteService } from "./site.service";

const Required = (max: number) =>
  z.string().trim().min(1, "is required").max(max, `must be at most ${max} characters`);
const ContactBody = z.object({
  name: Required(100),
  email: EmailField,
  subject: Required(200),
  message: Required(5000),
});

/** spec 3 "Pricing plan": image under /content/pricing/, price in dollars as text. */
function presentPlan(p: {
  url: string;
  image: string;
  price_cents: number;
  name: string;
  description_html: string;
}) {
  return {
    pricingUrl: p.url,
    pricingImage: p.image,
    pricingPrice: (p.price_cents / 100).toFixed(2),
    pricingPlanName: p.name,
    pricingDescription: p.description_html,
  };
}

/** spec 7 "Public pages": pricing and contact. */
export function siteRoutes(app: FastifyInstance, site: SiteService): void {
  app.get("/api/payment/pricing", async () => {
    const plans = await site.plans();
    return ok("Plans.", { data: plans.map(presentPlan) });
  });

  app.post("/api/contact", { config: rateLimit(5, 10 * 60_000) }, async (request) => {
    const body = parseInput(ContactBody, request.body);
    await site.contact(body);
    return ok("Thank you! Your message has been sent; we will get back to you soon.");
  });
}
