import { Link } from "react-router";

/** `/maintenance` (spec 2 "Under Work"): a short message and a Home button. */
export function MaintenancePage() {
  return (
    <div className="center-screen">
      <div className="card card--narrow system-card">
        <h1>Under work</h1>
        <p>We are working to make your experience better. Please come back in a little while.</p>
        <Link className="button button--primary" to="/">
          Home
        </Link>
      </div>
    </div>
  );
}
