import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { ok } from "../../http/envelope";
import { rateLimit } from "../../http/rate-limit";
import { EmailField, parseInput } from "../../http/validate";
import { limitPerAddressAndEmail } from "../auth/credential-limits";
import { type AccountService, FORGOT_PASSWORD_ANSWER } from "./account.service";

const ForgotBody = z.object({ email: EmailField });
/** Passwords: at least 8 characters; the spec names no rule, this is ours. */
const Password = z.string().min(8, "must be at least 8 characters").max(256);
const ResetBody = z.object({
  npassword: Password,
  rtpassword: z.string().max(256),
  code: z.string().trim().min(20, "is not a reset code").max(200),
});

/** spec 7: forgot-password and the reset of `PATCH /users/change-password` (issue 3). */
export function accountRoutes(app: FastifyInstance, account: AccountService): void {
  const minute = 60_000;
  // issue 13: per client address across e-mails, and per e-mail across addresses (no address
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
}
