import { RotatingText } from "../../components/RotatingText";
import { SystemCard } from "../../components/SystemCard";

/** spec 2 "Access Denied": the rotating hints, in order. */
export const FORBIDDEN_HINTS = [
  "Check our pricing plans to get access.",
  "Already have an active plan? Please try again.",
  "Still stuck? Contact the site admin.",
] as const;

/** `/forbidden` (spec 2 "Access Denied"): rotating hints and a Check Pricing button to /pricing. */
export function ForbiddenPage() {
  return (
    <SystemCard code="403" title="Access Denied" to="/pricing" action="Check Pricing">
      <p className="system-card__hint">
        <RotatingText phrases={FORBIDDEN_HINTS} />
      </p>
    </SystemCard>
  );
}
