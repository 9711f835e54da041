// The profile's plan panel (product.md §9): the plan, its limit and count, the add-on and managing the subscription.
import { useEffect, useRef } from "react";
import { Trans, useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { ADDON_MESSAGES, ADDON_PRICE_CENTS } from "../../../../common/constants";
import { openBillingPortal, startAddOnCheckout } from "../../../api/payments";
import type { UserProfile } from "../../../api/users";
import { usePaymentOptions } from "../../../hooks/usePaymentOptions";
import { formatPrice } from "../../../i18n";
import { planDisplayName } from "../../../lib/planName";
import { usePaymentPage } from "../hooks/usePaymentPage";

/** The address of this panel: plan cards and the add-on lead here when payments are off. */
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
 * The plan part of the profile (product.md §9): the plan, its chat limit and this period's
 * count as the server reports them, a link to the plans, and only what can be done here
 * (GET /payment/options): the add-on when a monthly plan's limit is reached and
 * payments are on, the Stripe portal when the user paid online (access lasts to the end of the
 * paid period; no refunds). With payments off it says so and leads to the admin's contact form.
 * Opened as /user/profile#plan it scrolls into view.
 */
export function PlanPanel({ profile }: { profile: UserProfile }) {
  const { t } = useTranslation("profile");
  const price = formatPrice(ADDON_PRICE_CENTS / 100, "USD");
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
      <h2 id="plan-panel-title">{t("plan.title")}</h2>
      <p>
        <Trans
          t={t}
          i18nKey="plan.usage"
          values={{
            plan: planDisplayName(profile.pricingPlanName),
            used: profile.chatCount,
            limit: profile.chatLimit,
          }}
          components={{ strong: <strong /> }}
        />
      </p>
      {monthlyAtLimit && (
        <p className="plan-panel__notice" role="status">
          {t("plan.atLimit", { n: ADDON_MESSAGES, price })}
        </p>
      )}
      {paymentsOff && (
        <p className="plan-panel__notice">
          <Trans
            t={t}
            i18nKey={monthlyAtLimit ? "plan.paymentsOffAtLimit" : "plan.paymentsOff"}
            values={{ n: ADDON_MESSAGES }}
            components={{ contact: <Link to="/contact" /> }}
          />
        </p>
      )}
      <div className="entity-form__actions">
        <Link className="button button--ghost" to="/pricing">
          {paymentsOff ? t("plan.seePlans") : t("plan.change")}
        </Link>
        {options?.addOn === 1 && (
          <PaymentButton start={startAddOnCheckout} label={t("plan.buy", { n: ADDON_MESSAGES, price })} />
        )}
        {options?.manage === 1 && <PaymentButton start={openBillingPortal} label={t("plan.manage")} />}
      </div>
      <p className="muted">{t("plan.cancelNote")}</p>
    </section>
  );
}
