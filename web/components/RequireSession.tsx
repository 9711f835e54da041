// The guard of the signed-in routes (product.md §2, §6): no session goes to /login, a session keeps its token fresh.
import { useRef } from "react";
import { Navigate, Outlet } from "react-router";
import { useSessionUser } from "../hooks/useSessionUser";
import { useTokenRefresh } from "../hooks/useTokenRefresh";

function SessionKeeper() {
  useTokenRefresh();
  return <Outlet />;
}

/**
 * Guard of the protected routes (product.md §2, 6): arriving without a stored user goes to /login;
 * with one, the token is kept fresh (product.md §4) and the route renders. When the session ends while
 * a protected page is open (logout, a 401, another tab) the page goes to `/` (product.md §2: "After
 * logout the browser goes to /. A 401 from any call also redirects to /"), not to /login.
 */
export function RequireSession() {
  const user = useSessionUser();
  const hadUser = useRef(user !== null);
  if (user !== null) hadUser.current = true;
  if (user === null) return <Navigate to={hadUser.current ? "/" : "/login"} replace />;
  return <SessionKeeper />;
}
