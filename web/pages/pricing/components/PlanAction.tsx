// What a signed-in user can do under a plan card: "Your current plan", Subscribe through checkout, or the plan panel link.
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { PricingPlan } from "../../../api/public";
import { planDisplayName } from "../../../lib/planName";
import { CheckoutButton } from "./CheckoutButton";

/** The profile's plan panel: where a plan not sold here is asked for. */
export const PLAN_PANEL = "/user/profile#plan";

interface PlanActionProps {
  plan: PricingPlan;
  /** Starts the plan's checkout (only when `plan.pricingCheckout` is 1). */
  onCheckout: () => void;
  /** A checkout is being started. */
  pending: boolean;
}

/**
 * Under a plan card, for a signed-in user: "Your current plan"; a Subscribe button
 * that goes through Stripe Checkout when the plan is sold here; otherwise (payments off, or a plan
 * granted by an admin) a link to the profile's plan panel, which says how to get it.
 */
export function PlanAction({ plan, onCheckout, pending }: PlanActionProps) {
  const { t } = useTranslation("public");
  if (plan.pricingCurrent === 1) return <p className="pricing-card__current">{t("pricing.current")}</p>;
  if (plan.pricingCheckout !== 1 || plan.pricingPlanUUID === undefined) {
    return (
      <Link className="button button--ghost pricing-card__subscribe" to={PLAN_PANEL}>
        {t("pricing.howToGet", { name: planDisplayName(plan.pricingPlanName) })}
      </Link>
    );
  }
  return (
    <CheckoutButton className="pricing-card__subscribe" pending={pending} onClick={onCheckout}>
      {t("pricing.subscribe", { name: planDisplayName(plan.pricingPlanName) })}
    </CheckoutButton>
  );
}
