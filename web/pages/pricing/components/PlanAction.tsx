import type { PricingPlan } from "../../../api/public";
import { useSessionUser } from "../../../hooks/useSessionUser";
import { useStartCheckout } from "../hooks/useStartCheckout";

/**
 * Under a plan card, for a signed-in user (issue 9): "Your current plan", or a Subscribe button
 * that goes through Stripe Checkout when the plan is sold here. Plans granted elsewhere (their
 * card links to the plan's own URL) and visitors who are not signed in get nothing extra.
 */
export function PlanAction({ plan }: { plan: PricingPlan }) {
  const user = useSessionUser();
  const checkout = useStartCheckout();
  if (user === null) return null;
  if (plan.pricingCurrent === 1) return <p className="pricing-card__current">Your current plan</p>;
  if (plan.pricingCheckout !== 1 || plan.pricingPlanUUID === undefined) return null;
  const planId = plan.pricingPlanUUID;
  return (
    <button
      type="button"
      className="button button--primary pricing-card__subscribe"
      disabled={checkout.isPending}
      aria-busy={checkout.isPending}
      onClick={() => checkout.mutate(planId)}
    >
      Subscribe to {plan.pricingPlanName}
    </button>
  );
}
