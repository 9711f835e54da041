// Which sign-in the login screen starts by itself (product.md §2 "Login", §4): OAuth return, app device, demo.
/**
 * Which sign-in the login screen starts by itself (product.md §2 "Login", product.md §4):
 * - `/login/youtube?code=..&state=..`: the video platform's OAuth return → POST /youtube/callback;
 * - `/login` or `/login/<id>` in an app wrapper whose user agent carries the device marker
 *   `CompanionDevice/<deviceId>` (deviceId = 20 or more of `A-Z a-z 0-9 _ -`): device login with
 *   that deviceId (with a route id too, as product.md §2 says "demo or device login"; the
 *   secret is read from the agent, never from the address, so it stays out of history and logs);
 * - `/login/<id>` otherwise: demo login with that id.
 * Only the OAuth return wins over the marker: it completes a sign-in the person just started.
 */
export type AutomaticLogin =
  | { kind: "youtube"; code: string; state: string }
  | { kind: "demo"; id: string }
  | { kind: "device"; id: string };

const DEVICE_MARKER = /(?:^|[\s;(])CompanionDevice\/([A-Za-z0-9_-]{20,})(?=$|[\s;)])/;

/** The device id in a user agent string, or null when the `CompanionDevice/<id>` marker is absent. */
export function deviceIdFromUserAgent(userAgent: string): string | null {
  return DEVICE_MARKER.exec(userAgent)?.[1] ?? null;
}

/**
 * Decides the automatic sign-in from the route id, the query string (`?code&state`) and the
 * user agent; null when the screen should simply show the forms.
 */
export function decideAutomaticLogin(
  routeId: string | undefined,
  search: URLSearchParams,
  userAgent: string,
): AutomaticLogin | null {
  const code = search.get("code");
  const state = search.get("state");
  if (routeId === "youtube" && code && state) return { kind: "youtube", code, state };
  const deviceId = deviceIdFromUserAgent(userAgent);
  if (deviceId !== null) return { kind: "device", id: deviceId };
  return routeId ? { kind: "demo", id: routeId } : null;
}
