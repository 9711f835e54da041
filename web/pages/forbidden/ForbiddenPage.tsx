import { Link } from "react-router";
import { RotatingText } from "../../components/RotatingText";

/** spec 2 "Access Denied": the rotating hints, in order. */
export const FORBIDDEN_HINTS = [
  "Check our pricing plans to get access.",
  "Already have an active plan? Please try again.",
  "Still stuck? Contact the site admin.",
] as const;

/** `/forbidden` (spec 2 "Access Denied"): rotating hints and a Check Pricing button to /pricing. */
export function ForbiddenPage() {
  return (
    <section className="public-page system-page">
      <div className="card card--narrow system-card">
        <p className="system-card__code" aria-hidden="true">
          403
        </p>
        <h1>Access Denied</h1>
        <p className="system-card__hint">
          <RotatingText phrases={FORBIDDEN_HINTS} />
        </p>
        <Link className="button button--primary" to="/pricing">
          Check Pricing
        </Link>
      </div>
    </section>
  );
}
