import { Navigate, Outlet } from "react-router";
import { useSessionUser } from "../hooks/useSessionUser";
import { useTokenRefresh } from "../hooks/useTokenRefresh";

function SessionKeeper() {
  useTokenRefresh();
  return <Outlet />;
}

/**
 * Guard of the protected routes (spec 2, 6): without a stored user go to /login; with one,
 * keep the token fresh (spec 4) and render the route.
 */
export function RequireSession() {
  const user = useSessionUser();
  if (user === null) return <Navigate to="/login" replace />;
  return <SessionKeeper />;
}
