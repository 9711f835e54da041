// The login screen's picture (product.md §2, §4): the welcome art, the success video, or the forbidden sign.
import { useTranslation } from "react-i18next";
import successVideo from "../../../assets/login-success.webm";
import { BrandGradient } from "../../../components/BrandMark";

/** What the login screen's picture shows (product.md §4): the welcome art, success, or forbidden. */
export type LoginVisual = "welcome" | "success" | "forbidden";

/**
 * The login screen's picture: a welcome heart (inline SVG), after a successful sign-in the
 * bundled success video (product.md §2: "a success video replaces the image"; 1.7 s, played once,
 * muted), or a forbidden sign after a failed one.
 */
export function LoginIllustration({ visual }: { visual: LoginVisual }) {
  const { t } = useTranslation("auth");
  if (visual === "forbidden") {
    return (
      <div className="login-art login-art--forbidden">
        <svg viewBox="0 0 120 120" width="120" height="120" role="img" aria-label={t("login.forbiddenArt")}>
          <circle cx="60" cy="60" r="50" fill="none" stroke="currentColor" strokeWidth="10" />
          <line
            x1="25"
            y1="95"
            x2="95"
            y2="25"
            stroke="currentColor"
            strokeWidth="10"
            strokeLinecap="round"
          />
        </svg>
        <p>{t("login.denied")}</p>
      </div>
    );
  }
  if (visual === "success") {
    return (
      <div className="login-art login-art--success">
        <video
          className="login-art__video"
          src={successVideo}
          width={160}
          height={160}
          autoPlay
          muted
          playsInline
          preload="auto"
          aria-label={t("login.signedIn")}
        />
        <p>{t("login.welcome")}</p>
      </div>
    );
  }
  return (
    <div className="login-art login-art--welcome">
      <svg viewBox="0 0 120 120" width="120" height="120" aria-hidden="true">
        <BrandGradient id="login-gradient" />
        <path
          d="M60 104S14 76 14 44c0-14 11-25 24-25 9 0 17 5 22 12 5-7 13-12 22-12 13 0 24 11 24 25 0 32-46 60-46 60z"
          fill="url(#login-gradient)"
        />
      </svg>
    </div>
  );
}
