// The home page's token check (product.md §4): an expired stored token is removed every 180 s, with no server call.
import { useEffect } from "react";
import { TOKEN_CHECK_INTERVAL_MS } from "../../../../common/constants";
import { clearSession, readToken } from "../../../lib/session";
import { isTokenExpired } from "../../../lib/tokenPolicy";

/**
 * The home page's token check (product.md §4): on arrival and then every 180,000 ms, an expired
 * stored token is removed together with the stored user. No server call is made, and a valid
 * token is left alone (no extend here).
 */
export function useHomeTokenCheck(): void {
  useEffect(() => {
    const check = (): void => {
      const token = readToken();
      if (token !== null && isTokenExpired(token, Date.now())) clearSession();
    };
    check();
    const timer = window.setInterval(check, TOKEN_CHECK_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, []);
}
