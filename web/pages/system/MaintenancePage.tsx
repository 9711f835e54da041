import { SystemCard } from "../../components/SystemCard";

/** `/maintenance` (spec 2 "Under Work"): work is under way to make the experience better; a Home button. */
export function MaintenancePage() {
  return (
    <SystemCard title="Under work" to="/" action="Home">
      <p>We are working to make your experience better. Please come back in a little while.</p>
    </SystemCard>
  );
}
