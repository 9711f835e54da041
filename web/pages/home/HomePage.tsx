import { Link } from "react-router";
import { FREE_DAILY_MESSAGES } from "../../../common/constants";
import { RotatingText } from "../../components/RotatingText";
import { useHomeTokenCheck } from "./hooks/useHomeTokenCheck";
import "./home.css";

/** spec 2 "Home": the phrases of the rotating tagline, in order. */
export const HOME_TAGLINES = ["Beautiful girls", "Virtual AI companions", "Uncensored chats"] as const;

/**
 * `/` and `/home` (spec 2 "Home"): the rotating tagline (every 1200 ms) and the buttons Try for
 * Free (/free-chat) and Chat with AI Girls (/start-chat). An expired stored token is cleared
 * here without a server call (spec 4).
 */
export function HomePage() {
  useHomeTokenCheck();
  return (
    <section className="home-hero">
      <p className="home-hero__kicker">Your AI companion, any time</p>
      <h1 className="home-hero__title">
        <RotatingText phrases={HOME_TAGLINES} className="home-hero__rotating" />
      </h1>
      <p className="home-hero__lead">
        Create your own character or pick one of ours, then chat by text, voice or photos, one to one or in a
        group. Start free with {FREE_DAILY_MESSAGES} messages a day.
      </p>
      <div className="home-hero__actions">
        <Link className="button button--primary button--large" to="/free-chat">
          Try for Free
        </Link>
        <Link className="button button--ghost button--large" to="/start-chat">
          Chat with AI Girls
        </Link>
      </div>
    </section>
  );
}
