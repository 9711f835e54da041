import { useEffect, useRef, useState } from "react";
import { useParams } from "react-router";
import { BrandMark } from "../../components/BrandMark";
import { useForgotPassword } from "../../hooks/useForgotPassword";
import { useLogin } from "../../hooks/useLogin";
import { LoginIllustration, type LoginVisual } from "./components/LoginIllustration";
import { RecoverForm } from "./components/RecoverForm";
import { SignInForm } from "./components/SignInForm";

type Mode = "signin" | "recover";

/**
 * `/login` and `/login/:id` (spec 2 "Login", spec 4): Member Sign in and Recover Password
 * modes. With `:id` the demo login starts by itself; while it runs the forms are hidden and a
 * busy 'Enjoy..' button shows.
 */
export function LoginPage() {
  const { id } = useParams();
  const [mode, setMode] = useState<Mode>("signin");
  const { state, signIn, signInDemo } = useLogin();
  const forgot = useForgotPassword(() => setMode("signin"));
  const autoStarted = useRef<string | null>(null);

  useEffect(() => {
    if (!id || autoStarted.current === id) return;
    autoStarted.current = id;
    signInDemo(id);
  }, [id, signInDemo]);

  const automatic = Boolean(id) && (state === "idle" || state === "busy");
  const visual: LoginVisual =
    state === "success" ? "success" : state === "forbidden" ? "forbidden" : "welcome";

  return (
    <div className="login-screen">
      <div className="login-card card">
        <div className="login-card__brand">
          <BrandMark />
        </div>
        <LoginIllustration visual={visual} />
        {automatic || state === "success" ? (
          <button
            type="button"
            className="button button--primary button--block"
            disabled
            aria-busy={state !== "success"}
          >
            {state !== "success" && <span className="spinner spinner--small" aria-hidden="true" />}
            Enjoy..
          </button>
        ) : mode === "signin" ? (
          <SignInForm
            busy={state === "busy"}
            onSubmit={({ email, password }) => signIn(email, password)}
            onForgotPassword={() => setMode("recover")}
          />
        ) : (
          <RecoverForm
            busy={forgot.isPending}
            onSubmit={(email) => forgot.mutate(email)}
            onBackToLogin={() => setMode("signin")}
          />
        )}
      </div>
    </div>
  );
}
