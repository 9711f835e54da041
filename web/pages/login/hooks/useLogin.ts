// Signing in (product.md §4 "Session", §8): password, demo, device or OAuth return, the session stored, the screen's state.
import { useMutation } from "@tanstack/react-query";
import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { TOAST_LOGIN_SUCCESS_MS } from "../../../../common/constants";
import {
  demoLogin,
  deviceLogin,
  type LoginEnvelope,
  loginWithPassword,
  youtubeCallback,
} from "../../../api/auth";
import { classifyFailure } from "../../../api/failure";
import type { AutomaticLogin } from "../../../lib/autoLogin";
import { succeed, warnPublic } from "../../../lib/notify";
import { saveSession } from "../../../lib/session";
import { isInAppPath } from "../../../lib/text";

/** Where the sign-in stands: `success` shows the success video, `forbidden` the forbidden art. */
export type LoginState = "idle" | "busy" | "success" | "forbidden";

type LoginRequest = { kind: "password"; email: string; password: string } | AutomaticLogin;

export interface Login {
  state: LoginState;
  /**
   * A refusal the screen keeps showing above the sign-in form, not as a passing toast: the
   * server's sentence when the owner has turned the guest demo off (code `demo_off`); else null.
   */
  notice: string | null;
  /** POST /auth/login with the form's email and password. */
  signIn: (email: string, password: string) => void;
  /**
   * The sign-ins the screen starts by itself (product.md §2): demo (POST /auth/demo-login), device
   * (POST /auth/device-login) or the YouTube OAuth return (POST /youtube/callback).
   */
  signInAutomatically: (request: AutomaticLogin) => void;
}

const DEFAULT_PAGE = "/characters/list";

function send(request: LoginRequest): Promise<LoginEnvelope> {
  switch (request.kind) {
    case "password":
      return loginWithPassword(request);
    case "demo":
      return demoLogin(request.id);
    case "device":
      return deviceLogin(request.id);
    case "youtube":
      return youtubeCallback(request.code, request.state);
  }
}

/**
 * Signing in (product.md §4 "Session", "Login screen"; product.md §8): on success 1 the token (expiring in
 * one hour) and user are stored, the state turns `success` (the video replaces the picture), a
 * 4 s success toast shows top-right and, when it goes away, the app opens the page the server
 * named. On failure the server message (or the error's) shows as a warning toast bottom-right
 * for 3 s and the state turns `forbidden`; a demo sign-in refused because the owner turned the
 * guest demo off keeps its sentence on the screen instead (`notice`).
 */
export function useLogin(): Login {
  const { t } = useTranslation("auth");
  const navigate = useNavigate();
  const [state, setState] = useState<LoginState>("idle");
  const [notice, setNotice] = useState<string | null>(null);

  const { mutate } = useMutation({ mutationFn: send, meta: { silent: true } });

  const run = useCallback(
    (request: LoginRequest) => {
      setState("busy");
      setNotice(null);
      mutate(request, {
        onSuccess: (answer) => {
          if (answer.success !== 1 || answer.data === undefined) {
            setState("forbidden");
            if (answer.code === "demo_off" && answer.message) setNotice(answer.message);
            else warnPublic(answer.message || t("login.failed"));
            return;
          }
          saveSession(answer.data);
          setState("success");
          const page = isInAppPath(answer.page) ? answer.page : DEFAULT_PAGE;
          succeed(answer.message || t("login.success"), TOAST_LOGIN_SUCCESS_MS, () => navigate(page));
        },
        onError: (error) => {
          console.error("login", error);
          setState("forbidden");
          if (classifyFailure(error) !== "handled") warnPublic(error.message || t("login.failed"));
        },
      });
    },
    [mutate, navigate, t],
  );

  const signIn = useCallback(
    (email: string, password: string) => run({ kind: "password", email, password }),
    [run],
  );
  return { state, notice, signIn, signInAutomatically: run };
}
