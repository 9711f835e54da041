// The pricing page (/pricing, product.md §2 "Pricing"): the plan cards, checkout for a signed-in user, and the add-on at the limit.
import { useTranslation } from "react-i18next";
import { Link, useLocation } from "react-router";
import { ADDON_MESSAGES, ADDON_PRICE_CENTS, PRODUCT_NAME } from "../../../common/constants";
import type { PricingPlan } from "../../api/public";
import { usePaymentOptions } from "../../hooks/usePaymentOptions";
import { useSessionUser } from "../../hooks/useSessionUser";
import { formatPrice } from "../../i18n";
import { CheckoutButton } from "./components/CheckoutButton";
import { PLAN_PANEL, PlanAction } from "./components/PlanAction";
import { type CardTarget, PricingCard } from "./components/PricingCard";
import { usePricingPlans } from "./hooks/usePricingPlans";
import { useAddOnCheckout, useStartCheckout } from "./hooks/useStartCheckout";
import "./pricing.css";

/** The message a page sent along when it opened this one (e.g. the chat at the limit). */
function noticeOf(state: unknown): string {
  if (typeof state !== "object" || state === null || !("notice" in state)) return "";
  return typeof state.notice === "string" ? state.notice.slice(0, 500) : "";
}

/** An in-app plan URL (e.g. the seeded /login) is for visitors; an outside one is the plan's own site. */
const isInApp = (url: string) => url.trim().startsWith("/") && !url.trim().startsWith("//");

/** One plan card and its action; a signed-in user's card leads to checkout or the plan panel. */
function PlanItem({ plan, signedIn }: { plan: PricingPlan; signedIn: boolean }) {
  const checkout = useStartCheckout();
  const planId = plan.pricingPlanUUID;
  const sold = plan.pricingCheckout === 1 && plan.pricingCurrent !== 1 && planId !== undefined;
  const start = () => {
    if (planId !== undefined && !checkout.isPending) checkout.mutate(planId);
  };
  const target: CardTarget | undefined =
    signedIn && (sold || isInApp(plan.pricingUrl))
      ? { to: PLAN_PANEL, onOpen: sold ? start : undefined }
      : undefined;
  return (
    <li>
      <PricingCard plan={plan} target={target} />
      {signedIn && <PlanAction plan={plan} onCheckout={start} pending={checkout.isPending} />}
    </li>
  );
}

/**
 * The add-on (product.md §9: 100 more messages for $1.99 when the monthly limit is reached), offered to a
 * signed-in user on a monthly plan at its limit: checkout when payments are on, else the plan panel
 *.
 */
function AddOnOffer({ payments }: { payments: boolean }) {
  const checkout = useAddOnCheckout();
  const { t } = useTranslation("public");
  const price = formatPrice(ADDON_PRICE_CENTS / 100, "USD");
  const label = t("pricing.addOn.buy", { n: ADDON_MESSAGES, price });
  return (
    <section className="pricing-addon card" aria-label={t("pricing.addOn.label")}>
      <p>{t("pricing.addOn.text", { n: ADDON_MESSAGES, price })}</p>
      {payments ? (
        <CheckoutButton pending={checkout.isPending} onClick={() => checkout.mutate()}>
          {label}
        </CheckoutButton>
      ) : (
        <Link className="button button--primary" to={PLAN_PANEL}>
          {t("pricing.addOn.howTo", { n: ADDON_MESSAGES })}
        </Link>
      )}
    </section>
  );
}

/**
 * `/pricing` (product.md §2 "Pricing"): plan cards from GET /payment/pricing and a footer with the
 * current year. A load failure is only logged (product.md §8); the page then shows no cards. A
 * signed-in user can subscribe to plans sold here through Stripe Checkout; with payments
 * off the cards lead to the profile's plan panel. A page that sent the user here with a
 * `notice` (the chat at the limit) has it shown on top, with the add-on for a monthly plan.
 */
export function PricingPage() {
  const { t } = useTranslation("public");
  const plans = usePricingPlans();
  const signedIn = useSessionUser() !== null;
  const options = usePaymentOptions(signedIn).data;
  const notice = noticeOf(useLocation().state);
  const offerAddOn = signedIn && options?.monthly === 1 && options.atLimit === 1 && options.addOn !== 0;
  const offerAskAdmin = signedIn && options?.monthly === 1 && options.atLimit === 1 && options.payments === 0;
  return (
    <section className="public-page">
      <h1>{t("pricing.title")}</h1>
      <p className="public-page__lead">{t("pricing.lead")}</p>
      {notice !== "" && (
        <p className="pricing-notice" role="alert">
          {notice}
        </p>
      )}
      {(offerAddOn || offerAskAdmin) && <AddOnOffer payments={options?.payments === 1} />}
      {plans.data !== undefined && plans.data.length > 0 && (
        <ul className="pricing-grid" aria-label={t("pricing.plans")}>
          {plans.data.map((plan) => (
            <PlanItem key={`${plan.pricingPlanName}-${plan.pricingUrl}`} plan={plan} signedIn={signedIn} />
          ))}
        </ul>
      )}
      <footer className="public-page__footer">
        {t("pricing.footer", { year: new Date().getFullYear(), product: PRODUCT_NAME })}
      </footer>
    </section>
  );
}
