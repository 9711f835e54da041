// The login screen (/login, product.md §2 "Login", §4): sign-in and recover modes, and the sign-ins it starts by itself.
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { useParams, useSearchParams } from "react-router";
import { BrandMark } from "../../components/BrandMark";
import { decideAutomaticLogin } from "../../lib/autoLogin";
import { LoginIllustration, type LoginVisual } from "./components/LoginIllustration";
import { SignInForm } from "./components/SignInForm";
import { useLogin } from "./hooks/useLogin";
import "./login.css";

type Mode = "signin" | "recover";

// Loaded after the page shows (the public pages' script budget, bench/bundle-size.ts): the sign-up
// link, which asks the server whether sign-up is open, and Recover Password, which a few open.
const CreateAccountLink = lazy(() =>
  import("./components/CreateAccountLink").then((module) => ({ default: module.CreateAccountLink })),
);
const RecoverPanel = lazy(() =>
  import("./components/RecoverPanel").then((module) => ({ default: module.RecoverPanel })),
);

/**
 * `/login` and `/login/:id` (product.md §2 "Login", product.md §4): Member Sign in and Recover Password
 * modes. A sign-in starts by itself for `/login/youtube?code&state` (OAuth return), a
 * `CompanionDevice/<id>` user agent on `/login` or `/login/:id` (device) and any other
 * `/login/:id` (demo); while it runs the forms are hidden and a busy 'Enjoy..' button shows.
 * Below the sign-in form, "Create an account" when the server's sign-up is open (REGISTRATION).
 * A demo link while the owner has the guest demo off shows the server's sentence above the form.
 */
export function LoginPage() {
  const { t } = useTranslation("auth");
  const { id } = useParams();
  const [search] = useSearchParams();
  const [mode, setMode] = useState<Mode>("signin");
  const { state, notice, signIn, signInAutomatically } = useLogin();
  const query = search.toString();
  const automatic = useMemo(
    () => decideAutomaticLogin(id, new URLSearchParams(query), navigator.userAgent),
    [id, query],
  );
  // One automatic sign-in per distinct request (StrictMode runs effects twice).
  const started = useRef<string | null>(null);

  useEffect(() => {
    if (automatic === null) return;
    const key = JSON.stringify(automatic);
    if (started.current === key) return;
    started.current = key;
    signInAutomatically(automatic);
  }, [automatic, signInAutomatically]);

  const running = automatic !== null && (state === "idle" || state === "busy");
  const visual: LoginVisual =
    state === "success" ? "success" : state === "forbidden" ? "forbidden" : "welcome";

  return (
    <div className="login-screen">
      <div className="login-card card">
        <div className="login-card__brand">
          <BrandMark />
        </div>
        <LoginIllustration visual={visual} />
        {running || state === "success" ? (
          <button
            type="button"
            className="button button--primary button--block"
            disabled
            aria-busy={state !== "success"}
          >
            {state !== "success" && <span className="spinner spinner--small" aria-hidden="true" />}
            {t("login.enjoy")}
          </button>
        ) : mode === "signin" ? (
          <>
            {notice && (
              <p className="login-card__notice" role="alert">
                {notice}
              </p>
            )}
            <SignInForm
              busy={state === "busy"}
              onSubmit={({ email, password }) => signIn(email, password)}
              onForgotPassword={() => setMode("recover")}
            />
            <Suspense fallback={null}>
              <CreateAccountLink />
            </Suspense>
          </>
        ) : (
          <Suspense fallback={null}>
            <RecoverPanel onBackToLogin={() => setMode("signin")} />
          </Suspense>
        )}
      </div>
    </div>
  );
}
