import type { PricingPlan } from "../../../api/public";
import { contentUrl } from "../../../lib/content";
import { safeLinkHref, sanitizeDescriptionHtml } from "../../../lib/sanitize";

/**
 * One plan (spec 2 "Pricing"): a link to the plan's own URL showing its image
 * (`/content/pricing/<pricingImage>`), 'Price: $X/mo' with the price as given, the plan name
 * and the description HTML, sanitized with DOMPurify.
 */
export function PricingCard({ plan }: { plan: PricingPlan }) {
  const href = safeLinkHref(plan.pricingUrl);
  const body = (
    <>
      <img
        className="pricing-card__image"
        src={contentUrl("pricing", plan.pricingImage)}
        alt=""
        width={320}
        height={200}
        loading="lazy"
      />
      <p className="pricing-card__price">Price: ${String(plan.pricingPrice)}/mo</p>
      <h2 className="pricing-card__name">{plan.pricingPlanName}</h2>
      <div
        className="pricing-card__description"
        // The only raw HTML in the app: DOMPurify removes scripts and handlers first.
        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized just above (spec 3: the description is HTML)
        dangerouslySetInnerHTML={{ __html: sanitizeDescriptionHtml(plan.pricingDescription) }}
      />
    </>
  );
  return href === null ? (
    <div className="pricing-card card">{body}</div>
  ) : (
    <a
      className="pricing-card card"
      href={href}
      aria-label={`${plan.pricingPlanName}, Price: $${String(plan.pricingPrice)}/mo`}
    >
      {body}
    </a>
  );
}
