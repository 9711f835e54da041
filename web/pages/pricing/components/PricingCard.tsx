// One plan card of the pricing page (product.md §2): picture, name, 'Price: $X/mo' in the language's format, description.
import type { MouseEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { PricingPlan } from "../../../api/public";
import { currentLanguage, formatPrice } from "../../../i18n";
import { contentUrl } from "../../../lib/content";
import { planDisplayName } from "../../../lib/planName";
import { safeLinkHref } from "../../../lib/sanitize";
import { PlanDescription } from "./PlanDescription";

/** Where a card leads instead of the plan's own URL (a signed-in user). */
export interface CardTarget {
  /** An in-app path, e.g. /user/profile#plan. */
  to: string;
  /** Runs instead of following `to` (e.g. starts the checkout); `to` stays the link's address. */
  onOpen?: () => void;
}

/**
 * A plan's price for 'Price: $X/mo' (product.md §2): in English the price as given ("$24.50"), in the
 * other languages the amount in US dollars in the language's format ("24,50 $"); a price
 * that is not a number stays as given.
 */
function priceText(price: string | number): string {
  const amount = Number(price);
  if (currentLanguage() === "en" || !Number.isFinite(amount)) return `$${String(price)}`;
  return formatPrice(amount, "USD");
}

/**
 * One plan (product.md §2 "Pricing"): a link to the plan's own URL showing its image
 * (`/content/pricing/<pricingImage>`), 'Price: $X/mo' with the price as given, the plan name
 * and the description HTML (`PlanDescription`: a seeded description the admin has not changed is
 * shown translated; any other is sanitised with DOMPurify). `target` replaces that link (a
 * signed-in user is not sent to /login by a seeded plan's URL).
 */
export function PricingCard({ plan, target }: { plan: PricingPlan; target?: CardTarget }) {
  const { t } = useTranslation("public");
  const href = safeLinkHref(plan.pricingUrl);
  const price = priceText(plan.pricingPrice);
  const label = t("pricing.cardLabel", { name: planDisplayName(plan.pricingPlanName), price });
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
      <p className="pricing-card__price">{t("pricing.price", { price })}</p>
      <h2 className="pricing-card__name">{planDisplayName(plan.pricingPlanName)}</h2>
      <PlanDescription stored={plan.pricingDescription} />
    </>
  );
  if (target !== undefined) {
    const onClick = (event: MouseEvent) => {
      if (target.onOpen === undefined) return;
      event.preventDefault();
      target.onOpen();
    };
    return (
      <Link className="pricing-card card" to={target.to} aria-label={label} onClick={onClick}>
        {body}
      </Link>
    );
  }
  return href === null ? (
    <div className="pricing-card card">{body}</div>
  ) : (
    <a className="pricing-card card" href={href} aria-label={label}>
      {body}
    </a>
  );
}
