// Where the home page's Try for Free leads: the way in this site offers (demo, free subscription, sign-up), else sign-in.
import { useQuery } from "@tanstack/react-query";
import { getSiteInfo, type SiteInfo, type SiteRegistration } from "../../../api/site";
import { useFreeSubscribeOffered } from "../../../hooks/useFreeSubscribeOffered";

/** The guest demo's path when the site's info names none: `/login/` and DEMO_LOGIN_ID's default. */
export const DEFAULT_DEMO_PATH = "/login/demo";

/** What this site lets a visitor in by, as its public answers say. */
export interface WaysIn {
  /** The guest demo's path (`/login/<id>`) while the demo is open, else null. */
  demoPath: string | null;
  /** Whether the free subscription is offered (GET /users/free/subscribe). */
  freeSubscription: boolean;
  /** Who may sign up (GET /site). */
  registration: SiteRegistration;
}

/**
 * Where Try for Free leads, never to a refusal: the guest demo while it is open, else the free
 * subscription (/free-chat) where it is offered, else sign-up (/signup) while registration is
 * open or by invitation, else sign-in (/login).
 */
export function tryFreeTarget(ways: WaysIn): string {
  if (ways.demoPath !== null) return ways.demoPath;
  if (ways.freeSubscription) return "/free-chat";
  if (ways.registration !== "closed") return "/signup";
  return "/login";
}

/**
 * The demo's path from the site's info: null while the demo is closed (or the info is missing);
 * the path the info names when it names one, else `DEFAULT_DEMO_PATH`.
 */
export function demoPathOf(info: (SiteInfo & { demoPath?: unknown }) | undefined): string | null {
  if (info?.demo !== true) return null;
  return typeof info.demoPath === "string" && info.demoPath.startsWith("/login/")
    ? info.demoPath
    : DEFAULT_DEMO_PATH;
}

/**
 * Try for Free's destination (`tryFreeTarget`) from the server's public answers (GET /site, GET
 * /users/free/subscribe); sign-in while they are pending or when they fail. `asked` false (a
 * signed-in user, who does not see the button) asks nothing.
 */
export function useTryFreeTarget(asked: boolean): string {
  const site = useQuery({
    queryKey: ["site", "info"],
    queryFn: getSiteInfo,
    enabled: asked,
    staleTime: 60_000,
    meta: { silent: true },
  });
  const free = useFreeSubscribeOffered(asked);
  return tryFreeTarget({
    demoPath: demoPathOf(site.data),
    freeSubscription: free.offered,
    registration: site.data?.registration ?? "closed",
  });
}
