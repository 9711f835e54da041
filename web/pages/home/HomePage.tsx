// The home page (/, product.md §2 "Home"): the rotating tagline and the buttons Try for Free and Chat with AI Girls.
import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { FREE_DAILY_MESSAGES } from "../../../common/constants";
import { RotatingText } from "../../components/RotatingText";
import { useHomeTokenCheck } from "./hooks/useHomeTokenCheck";
import "./home.css";

/** product.md §2 "Home": the catalogue keys (namespace "public") of the rotating tagline's phrases, in order. */
export const HOME_TAGLINES = [
  "home.taglines.girls",
  "home.taglines.companions",
  "home.taglines.uncensored",
] as const;

/** product.md §2 "Home": the two buttons, in order: where each leads, its label's key and its look. */
const HOME_ACTIONS = [
  { to: "/free-chat", label: "home.tryFree", look: "primary" },
  { to: "/start-chat", label: "home.chatGirls", look: "ghost" },
] as const;

/**
 * `/` and `/home` (product.md §2 "Home"): the rotating tagline (every 1200 ms) and the buttons Try for
 * Free (/free-chat) and Chat with AI Girls (/start-chat). An expired stored token is cleared
 * here without a server call (product.md §4).
 */
export function HomePage() {
  useHomeTokenCheck();
  const { t } = useTranslation("public");
  const taglines = useMemo(() => HOME_TAGLINES.map((key) => t(key)), [t]);
  return (
    <section className="home-hero">
      <p className="home-hero__kicker">{t("home.kicker")}</p>
      <h1 className="home-hero__title">
        <RotatingText phrases={taglines} className="home-hero__rotating" />
      </h1>
      <p className="home-hero__lead">{t("home.lead", { n: FREE_DAILY_MESSAGES })}</p>
      <div className="home-hero__actions">
        {HOME_ACTIONS.map(({ to, label, look }) => (
          <Link key={to} className={`button button--${look} button--large`} to={to}>
            {t(label)}
          </Link>
        ))}
      </div>
    </section>
  );
}
