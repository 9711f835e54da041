// The root redirector (/start-chat, product.md §2): a valid stored token goes to the character list, else to /login.
import { useEffect } from "react";
import { Navigate } from "react-router";
import { clearSession, readToken } from "../../lib/session";
import { isTokenExpired } from "../../lib/tokenPolicy";

/**
 * `/start-chat`, the root redirector (product.md §2): a stored session token → /characters/list,
 * otherwise /login. An expired token counts as none and is cleared locally, with no server
 * call (product.md §4).
 */
export function RootRedirect() {
  const token = readToken();
  const expired = token !== null && isTokenExpired(token, Date.now());
  useEffect(() => {
    if (expired) clearSession();
  }, [expired]);
  return <Navigate to={token !== null && !expired ? "/characters/list" : "/login"} replace />;
}
