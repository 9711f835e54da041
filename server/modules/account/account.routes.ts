// Routes of password recovery (forgot and reset, product.md §7) and of erasing one's account; the export routes are beside.
import type { FastifyInstance } from "fastify";
import { currentUser, requireUser } from "../../http/auth";
import { ok } from "../../http/envelope";
import { rateLimit } from "../../http/rate-limit";
import { parseInput } from "../../http/validate";
import { CREDENTIAL_LIMITS } from "../auth/credential-limit-table";
import { limitPerAddressAndEmail } from "../auth/credential-limits";
import { EraseBody, ForgotBody, ResetBody } from "./account.schemas";
import { type AccountService, FORGOT_PASSWORD_ANSWER } from "./account.service";
import { exportRoutes } from "./export.routes";

/**
 * product.md §7: forgot-password and the reset of `PATCH /users/change-password`; ours:
 * `POST /api/account/delete` ("Erase my account") and the data export routes
 * ("Take my data", export.routes.ts).
 */
export function accountRoutes(app: FastifyInstance, account: AccountService): void {
  const minute = 60_000;
  app.post(
    "/api/auth/forgot-password",
    limitPerAddressAndEmail(app, ...CREDENTIAL_LIMITS.resetMail),
    async (request) => {
      account.requestReset(parseInput(ForgotBody, request.body).email);
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
