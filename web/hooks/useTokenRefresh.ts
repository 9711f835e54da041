// Keeping the session token fresh while signed in (product.md §4, §9): checked every 180 s, extended or logged out.
import { useEffect } from "react";
import { TOKEN_CHECK_INTERVAL_MS } from "../../common/constants";
import { extendToken } from "../api/auth";
import { endSession } from "../api/client";
import { readToken, saveToken, saveUser } from "../lib/session";
import { decideTokenAction } from "../lib/tokenPolicy";

/**
 * Keeps the session token fresh while a signed-in screen is mounted (product.md §4, 9): checks once
 * on mount and then every 180,000 ms. Expired → logout; under 300,000 ms left → POST
 * /auth/extend and set the expiry one hour ahead, storing the fresh session user it answers
 * (flags follow a plan change); extend fails → logout.
 */
export function useTokenRefresh(): void {
  useEffect(() => {
    let busy = false;
    const check = async (): Promise<void> => {
      if (busy) return;
      busy = true;
      try {
        const token = readToken();
        const action = decideTokenAction(token, Date.now());
        if (action === "logout") {
          await endSession("/");
        } else if (action === "extend" && token !== null) {
          try {
            const extended = await extendToken(token.token);
            saveToken(extended.token);
            // the server's fresh flags (a plan change) replace the stored ones.
            if (extended.user !== undefined) saveUser(extended.user);
          } catch (error) {
            console.error("extend", error);
            await endSession("/");
          }
        }
      } finally {
        busy = false;
      }
    };
    void check();
    const timer = window.setInterval(() => void check(), TOKEN_CHECK_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, []);
}
