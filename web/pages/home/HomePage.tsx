// The home page (/, product.md §2 "Home"): the rotating tagline and the ways in (Try for Free, Chat with AI Girls, Sign in), or back into the app.
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { FREE_DAILY_MESSAGES } from "../../../common/constants";
import { RotatingText } from "../../components/RotatingText";
import { useSessionUser } from "../../hooks/useSessionUser";
import { useHomeTokenCheck } from "./hooks/useHomeTokenCheck";
import { useTryFreeTarget } from "./hooks/useTryFreeTarget";
import "./home.css";

/** product.md §2 "Home": the catalogue keys (namespace "public") of the rotating tagline's phrases, in order. */
export const HOME_TAGLINES = [
  "home.taglines.girls",
  "home.taglines.companions",
  "home.taglines.uncensored",
] as const;

/** One button of the hero: where it leads, its label's key (namespace "public") and its look. */
interface HomeAction {
  to: string;
  label: string;
  look: "primary" | "ghost";
}

/**
 * The hero's buttons. Signed out: Try for Free (to `tryFree`, where this site lets people in),
 * Chat with AI Girls (/start-chat) and Sign in (/login). Signed in: the way back into the app, My
 * characters, Admin console for an admin (`isAdmin`), Log out.
 */
export function homeActions(user: { isAdmin?: boolean } | null, tryFree: string): HomeAction[] {
  if (user === null) {
    return [
      { to: tryFree, label: "home.tryFree", look: "primary" },
      { to: "/start-chat", label: "home.chatGirls", look: "ghost" },
      { to: "/login", label: "home.signIn", look: "ghost" },
    ];
  }
  return [
    { to: "/characters/list", label: "home.characters", look: "primary" },
    ...(user.isAdmin === true ? [{ to: "/admin", label: "home.admin", look: "ghost" } as const] : []),
    { to: "/logout", label: "home.logout", look: "ghost" },
  ];
}

/**
 * `/` and `/home` (product.md §2 "Home"): the rotating tagline (every 1200 ms) and the buttons of
 * `homeActions`. An expired stored token is cleared here without a server call (product.md §4),
 * which turns the buttons into the signed-out ones.
 */
export function HomePage() {
  useHomeTokenCheck();
  const { t } = useTranslation("public");
  const user = useSessionUser();
  const tryFree = useTryFreeTarget(user === null);
  const taglines = useMemo(() => HOME_TAGLINES.map((key) => t(key)), [t]);
  return (
    <section className="home-hero">
      <p className="home-hero__kicker">{t("home.kicker")}</p>
      <h1 className="home-hero__title">
        <RotatingText phrases={taglines} className="home-hero__rotating" />
      </h1>
      <p className="home-hero__lead">{t("home.lead", { n: FREE_DAILY_MESSAGES })}</p>
      <div className="home-hero__actions">
        {homeActions(user, tryFree).map(({ to, label, look }) => (
          <Link key={label} className={`button button--${look} button--large`} to={to}>
            {t(label)}
          </Link>
        ))}
      </div>
    </section>
  );
}
