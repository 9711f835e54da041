import { Link } from "react-router";
import { ADDON_MESSAGES, ADDON_PRICE_CENTS, dollars } from "../../../../common/constants";
import { openBillingPortal, startAddOnCheckout } from "../../../api/payments";
import type { UserProfile } from "../../../api/users";
import { usePaymentPage } from "../hooks/usePaymentPage";

/** A button that sends the browser to a payment page `start` asks the server for; busy meanwhile. */
function PaymentButton({ start, label }: { start: () => Promise<string>; label: string }) {
  const page = usePaymentPage(start);
  return (
    <button
      type="button"
      className="button button--ghost"
      disabled={page.isPending}
      aria-busy={page.isPending}
      onClick={() => page.mutate()}
    >
      {label}
    </button>
  );
}

/**
 * The plan part of the profile (issue 9; spec 9): the plan, its chat limit and this period's
 * count as the server reports them, a link to the plans, the add-on purchase and the Stripe
 * portal where the subscription is managed or cancelled (access lasts to the end of the paid
 * period; no refunds).
 */
export function PlanPanel({ profile }: { profile: UserProfile }) {
  const price = dollars(ADDON_PRICE_CENTS);
  return (
    <section className="plan-panel" aria-labelledby="plan-panel-title">
      <h2 id="plan-panel-title">Plan and messages</h2>
      <p>
        You are on <strong>{profile.pricingPlanName}</strong>: {profile.chatCount} of {profile.chatLimit}{" "}
        messages used.
      </p>
      <div className="entity-form__actions">
        <Link className="button button--ghost" to="/pricing">
          Change plan
        </Link>
        <PaymentButton start={startAddOnCheckout} label={`Buy ${ADDON_MESSAGES} messages for $${price}`} />
        <PaymentButton start={openBillingPortal} label="Manage subscription" />
      </div>
      <p className="muted">
        Cancelling keeps your plan until the end of the period you paid for. Payments are not refunded.
      </p>
    </section>
  );
}
