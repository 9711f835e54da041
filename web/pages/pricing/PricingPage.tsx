import { PRODUCT_NAME } from "../../../common/constants";
import { PlanAction } from "./components/PlanAction";
import { PricingCard } from "./components/PricingCard";
import { usePricingPlans } from "./hooks/usePricingPlans";
import "./pricing.css";

/**
 * `/pricing` (spec 2 "Pricing"): plan cards from GET /payment/pricing and a footer with the
 * current year. A load failure is only logged (spec 8); the page then shows no cards. A
 * signed-in user can subscribe to plans sold here through Stripe Checkout (issue 9).
 */
export function PricingPage() {
  const plans = usePricingPlans();
  return (
    <section className="public-page">
      <h1>Pricing</h1>
      <p className="public-page__lead">Monthly plans in US dollars. Pick the one that suits you.</p>
      {plans.data !== undefined && plans.data.length > 0 && (
        <ul className="pricing-grid" aria-label="Pricing plans">
          {plans.data.map((plan) => (
            <li key={`${plan.pricingPlanName}-${plan.pricingUrl}`}>
              <PricingCard plan={plan} />
              <PlanAction plan={plan} />
            </li>
          ))}
        </ul>
      )}
      <footer className="public-page__footer">
        © {new Date().getFullYear()} {PRODUCT_NAME}. All rights reserved.
      </footer>
    </section>
  );
}
