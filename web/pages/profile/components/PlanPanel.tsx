import { useEffect, useRef } from "react";
import { Link, useLocation } from "react-router";
import { ADDON_MESSAGES, ADDON_PRICE_CENTS, dollars } from "../../../../common/constants";
import { openBillingPortal, startAddOnCheckout } from "../../../api/payments";
import type { UserProfile } from "../../../api/users";
import { usePaymentOptions } from "../../../hooks/usePaymentOptions";
import { usePaymentPage } from "../hooks/usePaymentPage";

/** The address of this panel: plan cards and the add-on lead here when payments are off (issue 16). */
export const PLAN_PANEL_ID = "plan";

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
 * count as the server reports them, a link to the plans, and only what can be done here
 * (GET /payment/options, issue 16): the add-on when a monthly plan's limit is reached and
 * payments are on, the Stripe portal when the user paid online (access lasts to the end of the
 * paid period; no refunds). With payments off it says so and leads to the admin's contact form.
 * Opened as /user/profile#plan it scrolls into view.
 */
export function PlanPanel({ profile }: { profile: UserProfile }) {
  const price = dollars(ADDON_PRICE_CENTS);
  const options = usePaymentOptions(true).data;
  const { hash } = useLocation();
  const root = useRef<HTMLElement>(null);
  useEffect(() => {
    if (hash === `#${PLAN_PANEL_ID}`) root.current?.scrollIntoView({ block: "start" });
  }, [hash]);
  const paymentsOff = options?.payments === 0;
  const monthlyAtLimit = options?.monthly === 1 && options.atLimit === 1;
  return (
    <section id={PLAN_PANEL_ID} ref={root} className="plan-panel" aria-labelledby="plan-panel-title">
      <h2 id="plan-panel-title">Plan and messages</h2>
      <p>
        You are on <strong>{profile.pricingPlanName}</strong>: {profile.chatCount} of {profile.chatLimit}{" "}
        messages used.
      </p>
      {monthlyAtLimit && (
        <p className="plan-panel__notice" role="status">
          You have used this month's messages. {ADDON_MESSAGES} more cost ${price}.
        </p>
      )}
      {paymentsOff && (
        <p className="plan-panel__notice">
          Online payments are not set up on this server. To change your plan
          {monthlyAtLimit ? ` or get ${ADDON_MESSAGES} more messages` : ""}, please{" "}
          <Link to="/contact">contact the site admin</Link>.
        </p>
      )}
      <div className="entity-form__actions">
        <Link className="button button--ghost" to="/pricing">
          {paymentsOff ? "See the plans" : "Change plan"}
        </Link>
        {options?.addOn === 1 && (
          <PaymentButton start={startAddOnCheckout} label={`Buy ${ADDON_MESSAGES} messages for $${price}`} />
        )}
        {options?.manage === 1 && <PaymentButton start={openBillingPortal} label="Manage subscription" />}
      </div>
      <p className="muted">
        Cancelling keeps your plan until the end of the period you paid for. Payments are not refunded.
      </p>
    </section>
  );
}
