import { SystemCard } from "../../components/SystemCard";

/** Any unknown path: a simple 404 with a link home. */
export function NotFoundPage() {
  return (
    <SystemCard code="404" title="Page not found" to="/" action="Go home">
      <p>The page you are looking for does not exist.</p>
    </SystemCard>
  );
}
