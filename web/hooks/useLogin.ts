import { useMutation } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useNavigate } from "react-router";
import { TOAST_LOGIN_SUCCESS_MS } from "../../common/constants";
import { demoLogin, type LoginEnvelope, loginWithPassword } from "../api/auth";
import { succeed, warnPublic } from "../lib/notify";
import { saveSession } from "../lib/session";
import { isInAppPath } from "../lib/text";

/** Where the sign-in stands: `success` shows the success art, `forbidden` the forbidden art. */
export type LoginState = "idle" | "busy" | "success" | "forbidden";

type LoginRequest =
  | { kind: "password"; email: string; password: string; id?: string }
  | { kind: "demo"; id: string };

export interface Login {
  state: LoginState;
  /** POST /auth/login with the form's email and password. */
  signIn: (email: string, password: string) => void;
  /** POST /auth/demo-login with the route id (spec 2: /login/:id starts it automatically). */
  signInDemo: (id: string) => void;
}

const DEFAULT_PAGE = "/characters/list";

/**
 * Signing in (spec 4 "Session", "Login screen"; spec 8): on success 1 the token (expiring in
 * one hour) and user are stored, a 4 s success toast shows top-right and, when it goes away,
 * the app opens the page the server named. On failure the server message (or the error's)
 * shows as a warning toast bottom-right and the state turns `forbidden`.
 */
export function useLogin(): Login {
  const navigate = useNavigate();
  const [state, setState] = useState<LoginState>("idle");

  const { mutate } = useMutation({
    mutationFn: (request: LoginRequest): Promise<LoginEnvelope> =>
      request.kind === "demo" ? demoLogin(request.id) : loginWithPassword(request),
    meta: { silent: true },
  });

  const run = useCallback(
    (request: LoginRequest) => {
      setState("busy");
      mutate(request, {
        onSuccess: (answer) => {
          if (answer.success !== 1 || answer.data === undefined) {
            setState("forbidden");
            warnPublic(answer.message || "Login failed.");
            return;
          }
          saveSession(answer.data);
          setState("success");
          const page = isInAppPath(answer.page) ? answer.page : DEFAULT_PAGE;
          succeed(answer.message || "Login successful.", TOAST_LOGIN_SUCCESS_MS, () => navigate(page));
        },
        onError: (error) => {
          console.error("login", error);
          setState("forbidden");
          warnPublic(error.message || "Login failed.");
        },
      });
    },
    [mutate, navigate],
  );

  const signIn = useCallback(
    (email: string, password: string) => run({ kind: "password", email, password }),
    [run],
  );
  const signInDemo = useCallback((id: string) => run({ kind: "demo", id }), [run]);
  return { state, signIn, signInDemo };
}
