import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { RULES } from "../../../common/validation";
import { currentUser, requireUser } from "../../http/auth";
import { ok } from "../../http/envelope";
import { rateLimit } from "../../http/rate-limit";
import { EmailField, parseInput, textField } from "../../http/validate";
import { limitPerAddressAndEmail } from "../auth/credential-limits";
import { type AccountService, FORGOT_PASSWORD_ANSWER } from "./account.service";
import { exportRoutes } from "./export.routes";

/** the password (accounts with one) or the typed e-mail / user name (accounts without). */
const EraseBody = z.object({
  password: z.string().max(200, "The password is too long.").optional(),
  confirm: z.string().max(320, "The confirmation is too long.").optional(),
});
const ForgotBody = z.object({ email: EmailField });
/** product.md §5 "Reset password": both fields required; at least 8 characters is ours (common/validation.ts). */
const ResetBody = z.object({
  npassword: textField(RULES.newPassword),
  rtpassword: textField(RULES.confirmPassword),
  code: z
    .string()
    .trim()
    .min(20, "The reset link is not valid; please ask for a new one.")
    .max(200, "The reset link is not valid; please ask for a new one."),
});

/**
 * product.md §7: forgot-password and the reset of `PATCH /users/change-password`; ours:
 * `POST /api/account/delete` ("Erase my account") and the data export routes
 * ("Take my data", export.routes.ts).
 */
export function accountRoutes(app: FastifyInstance, account: AccountService): void {
  const minute = 60_000;
  // per client address across e-mails, and per e-mail across addresses (no address
  // can be flooded with reset mail by many clients).
  app.post(
    "/api/auth/forgot-password",
    limitPerAddressAndEmail(
      app,
      { max: 10, windowMs: 15 * minute },
      {
        name: "forgot-email",
        max: 5,
        windowMs: 15 * minute,
        message: "Too many reset requests for this e-mail.",
      },
    ),
    async (request) => {
      const body = parseInput(ForgotBody, request.body);
      account.requestReset(body.email);
      return ok(FORGOT_PASSWORD_ANSWER);
    },
  );

  app.patch("/api/users/change-password", { config: rateLimit(10, 15 * minute) }, async (request) => {
    const body = parseInput(ResetBody, request.body);
    await account.resetPassword(body.code, body.npassword, body.rtpassword);
    return ok("Your password has been changed. Please sign in with the new password.", { page: "/login" });
  });

  // the session is checked at onRequest, before the body is read; the user comes from
  // the token only (the body names no user). Limited like the other password checks.
  app.post(
    "/api/account/delete",
    { onRequest: requireUser((token) => account.sessionUser(token)), config: rateLimit(5, 15 * minute) },
    async (request) => {
      const body = parseInput(EraseBody, request.body);
      await account.erase(currentUser(request), request.bearer ?? "", body);
      return ok("Your account has been deleted.", { page: "/" });
    },
  );

  exportRoutes(app, account.exports, (token) => account.sessionUser(token));
}
