// Routes of password recovery (forgot and reset, product.md §7) and of erasing one's account; the export routes are beside.
import type { FastifyInstance } from "fastify";
import { Envelope } from "../../../common/api";
import { currentUser, requireUser } from "../../http/auth";
import { ok } from "../../http/envelope";
import { rateLimit } from "../../http/rate-limit";
import { answers, zodApp } from "../../http/route-schemas";
import { msg } from "../../i18n/messages";
import { CREDENTIAL_LIMITS } from "../auth/credential-limit-table";
import { limitPerAddressAndEmail } from "../auth/credential-limits";
import { accountDoc, EraseBody, ForgotBody, ResetBody, sessionDoc } from "./account.schemas";
import { type AccountService, FORGOT_PASSWORD_ANSWER } from "./account.service";
import { exportRoutes } from "./export.routes";

const FORGOT_ANSWERS = "the same sentence whether or not the address exists; mails a reset link";

/**
 * product.md §7: forgot-password and the reset of `PATCH /users/change-password`; ours:
 * `POST /api/account/delete` ("Erase my account") and the data export routes
 * ("Take my data", export.routes.ts).
 */
export function accountRoutes(app: FastifyInstance, account: AccountService): void {
  const api = zodApp(app);
  const minute = 60_000;
  // every answer here is the bare envelope (`success`, `message`, maybe `page`).
  const bare = answers(Envelope);
  api.post(
    "/api/auth/forgot-password",
    {
      ...limitPerAddressAndEmail(app, ...CREDENTIAL_LIMITS.resetMail),
      schema: { ...accountDoc("Auth and accounts", FORGOT_ANSWERS, "§7"), body: ForgotBody, response: bare },
    },
    async (request) => {
      account.requestReset(request.body.email);
      return ok(FORGOT_PASSWORD_ANSWER);
    },
  );

  const reset = {
    ...accountDoc("Auth and accounts", '`page: "/login"`', "§7", "public (the reset code is the proof)"),
    body: ResetBody,
    response: bare,
  };
  api.patch(
    "/api/users/change-password",
    { config: rateLimit(10, 15 * minute), schema: reset },
    async (request) => {
      const { body } = request;
      await account.resetPassword(body.code, body.npassword, body.rtpassword);
      return ok(msg("account.passwordBeenChangedSignNew"), { page: "/login" });
    },
  );

  // the session is checked at onRequest, before the body is read; the user comes from
  // the token only (the body names no user). Limited like the other password checks.
  const erase = {
    ...sessionDoc('`page: "/"`; the account and its data are gone'),
    body: EraseBody,
    response: bare,
  };
  api.post(
    "/api/account/delete",
    {
      onRequest: requireUser((token) => account.sessionUser(token)),
      config: rateLimit(5, 15 * minute),
      schema: erase,
    },
    async (request) => {
      await account.erase(currentUser(request), request.bearer ?? "", request.body);
      return ok(msg("account.accountBeenDeleted"), { page: "/" });
    },
  );

  exportRoutes(app, account.exports, (token) => account.sessionUser(token));
}
