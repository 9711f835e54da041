// The card of the system pages (product.md §2): Access Denied, Under Work and the 404 page.
import type { ReactNode } from "react";
import { Link } from "react-router";

interface SystemCardProps {
  /** The big status number above the title (403, 404), when the page has one. */
  code?: string;
  title: string;
  /** The text under the title. */
  children: ReactNode;
  /** The one button: where it goes and what it says. */
  to: string;
  action: string;
}

/** The card of the system pages (product.md §2: 'Access Denied', 'Under Work', the 404 page). */
export function SystemCard({ code, title, children, to, action }: SystemCardProps) {
  return (
    <section className="public-page system-page">
      <div className="card card--narrow system-card">
        {code && (
          <p className="system-card__code" aria-hidden="true">
            {code}
          </p>
        )}
        <h1>{title}</h1>
        {children}
        <Link className="button button--primary" to={to}>
          {action}
        </Link>
      </div>
    </section>
  );
}
