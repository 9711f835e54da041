// The periodic token check's decision (product.md §4, §9): keep, extend or log out; whether a token has expired.
import type { SessionToken } from "../../common/api";
import { TOKEN_REFRESH_MARGIN_MS } from "../../common/constants";

/** What the periodic token check should do (product.md §4). */
export type TokenAction = "keep" | "extend" | "logout";

/**
 * Decides the periodic token check (product.md §4, 9): no token or expired → logout; under
 * 5 minutes (300,000 ms) left → extend; otherwise keep. `now` is epoch ms.
 */
export function decideTokenAction(token: SessionToken | null, now: number): TokenAction {
  if (token === null) return "logout";
  const remaining = token.expirationTime - now;
  if (remaining <= 0) return "logout";
  if (remaining < TOKEN_REFRESH_MARGIN_MS) return "extend";
  return "keep";
}

/** True when a stored token exists and has not expired (the home page's check, product.md §4). */
export function isTokenExpired(token: SessionToken, now: number): boolean {
  return token.expirationTime <= now;
}
