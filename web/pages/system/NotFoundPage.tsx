import { Link } from "react-router";

/** Any unknown path: a simple 404 with a link home. */
export function NotFoundPage() {
  return (
    <section className="public-page system-page">
      <div className="card card--narrow system-card">
        <p className="system-card__code" aria-hidden="true">
          404
        </p>
        <h1>Page not found</h1>
        <p>The page you are looking for does not exist.</p>
        <Link className="button button--primary" to="/">
          Go home
        </Link>
      </div>
    </section>
  );
}
