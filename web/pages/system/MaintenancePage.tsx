import { Link } from "react-router";

/** `/maintenance` (spec 2 "Under Work"): work is under way to make the experience better; a Home button. */
export function MaintenancePage() {
  return (
    <section className="public-page system-page">
      <div className="card card--narrow system-card">
        <h1>Under work</h1>
        <p>We are working to make your experience better. Please come back in a little while.</p>
        <Link className="button button--primary" to="/">
          Home
        </Link>
      </div>
    </section>
  );
}
