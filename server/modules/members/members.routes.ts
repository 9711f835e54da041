// Routes of self-hosted accounts: owner set-up and sign-up; the admin console's accounts and invitations in members-admin.routes.ts.
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import { envelopeOf, RegistrationStatus, SetupLinkStatus } from "../../../common/api";
import { ok } from "../../http/envelope";
import { rateLimit } from "../../http/rate-limit";
import { answers, zodApp } from "../../http/route-schemas";
import { msg } from "../../i18n/messages";
import { presentSignIn } from "../auth/auth.presenter";
import { CREDENTIAL_LIMITS } from "../auth/credential-limit-table";
import { limitPerAddressAndEmail } from "../auth/credential-limits";
import type { InvitationsService } from "./invitations";
import {
  BARE_ANSWER,
  membersDoc,
  SetupBody,
  SetupParams,
  SIGN_IN_ANSWER,
  SignupFinishBody,
  SignupStartBody,
} from "./members.schemas";
import type { MembersService } from "./members.service";
import { adminAccountsRoutes } from "./members-admin.routes";
import type { SetupService } from "./setup.service";
import { SIGNUP_START_ANSWER, type SignupService } from "./signup.service";

/** The services these routes call (built by the container). */
export interface MembersServices {
  setup: SetupService;
  members: MembersService;
  invitations: InvitationsService;
  signup: SignupService;
}

/** The admin routes of this module (method and path): the security tests check each answers 403. */
export const MEMBERS_ADMIN_ROUTES = [
  { method: "POST", url: "/api/admin/accounts" },
  { method: "GET", url: "/api/admin/invitations" },
  { method: "POST", url: "/api/admin/invitations" },
  { method: "POST", url: "/api/admin/invitations/:id/revoke" },
] as const;

/** The "From" of the owner set-up routes in docs/api.md. */
const FROM_SETUP = "ours (§2, listed in §7)";
/** The Answers cell of docs/api.md for the sign-up's end. */
const FINISH_ANSWERS =
  "sign-in; `signup_code`, `email_taken`, `registration_closed`, `invitation_invalid` on refusal";

/**
 * product.md §2 "Owner set-up" and "Sign-up", product.md §7: `GET /api/setup/:token`,
 * `POST /api/setup`, `GET /api/auth/registration`, `POST /api/auth/signup/start|finish`, and
 * behind the admin check `POST /api/admin/accounts`, `GET|POST /api/admin/invitations`,
 * `POST /api/admin/invitations/:id/revoke`. The sign-ins answer as POST /api/auth/login does.
 */
export async function membersRoutes(
  app: FastifyInstance,
  services: MembersServices,
  auth: onRequestAsyncHookHandler,
): Promise<void> {
  const { setup, signup } = services;
  const api = zodApp(app);
  const minute = 60_000;

  const linkSchema = {
    ...membersDoc("Auth and accounts", "`data.valid`: whether the owner set-up link still works", FROM_SETUP),
    params: SetupParams,
    response: answers(envelopeOf(SetupLinkStatus)),
  };
  api.get(
    "/api/setup/:token",
    { config: rateLimit(30, 15 * minute), schema: linkSchema },
    async (request) => {
      const valid = await setup.isValid(request.params.token);
      return ok(valid ? msg("members.setUpLinkValid") : msg("members.setUpLinkInvalidExpiredShort"), {
        data: { valid },
      });
    },
  );

  const setupSchema = {
    ...membersDoc("Auth and accounts", "sign-in as the owner (admin)", FROM_SETUP),
    "x-who": "public (with the link's token)",
    body: SetupBody,
    response: SIGN_IN_ANSWER,
  };
  api.post(
    "/api/setup",
    { ...limitPerAddressAndEmail(app, ...CREDENTIAL_LIMITS.setup), schema: setupSchema },
    async (request) => {
      const { body } = request;
      const signIn = await setup.complete(body.token, body);
      return presentSignIn(signIn, msg("members.welcomeOwnerAccountReady"));
    },
  );

  const registrationSchema = {
    ...membersDoc("Auth and accounts", "`data.mode`: `closed`, `invite` or `open`"),
    response: answers(envelopeOf(RegistrationStatus)),
  };
  api.get("/api/auth/registration", { schema: registrationSchema }, async () =>
    ok(msg("members.registration"), { data: { mode: signup.mode } }),
  );

  const startSchema = {
    ...membersDoc("Auth and accounts", "mails a 6-digit code"),
    body: SignupStartBody,
    response: BARE_ANSWER,
  };
  api.post(
    "/api/auth/signup/start",
    {
      ...limitPerAddressAndEmail(app, ...CREDENTIAL_LIMITS.signupStart),
      schema: startSchema,
    },
    async (request) => {
      await signup.start(request.body.email, request.body.invite);
      return ok(SIGNUP_START_ANSWER);
    },
  );

  const finishSchema = {
    ...membersDoc("Auth and accounts", FINISH_ANSWERS),
    body: SignupFinishBody,
    response: SIGN_IN_ANSWER,
  };
  api.post(
    "/api/auth/signup/finish",
    {
      ...limitPerAddressAndEmail(app, ...CREDENTIAL_LIMITS.signupFinish),
      schema: finishSchema,
    },
    async (request) => presentSignIn(await signup.finish(request.body), msg("members.welcomeAccountReady")),
  );

  await adminAccountsRoutes(app, services, auth);
}
