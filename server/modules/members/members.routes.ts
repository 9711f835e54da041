// Routes of self-hosted accounts: owner set-up, sign-up, and the admin console's accounts and invitations.
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import { adminScope, currentUser } from "../../http/auth";
import { ok } from "../../http/envelope";
import { requestOrigin } from "../../http/origin";
import { rateLimit } from "../../http/rate-limit";
import { parseInput } from "../../http/validate";
import { presentSignIn } from "../auth/auth.presenter";
import { CREDENTIAL_LIMITS } from "../auth/credential-limit-table";
import { limitPerAddressAndEmail } from "../auth/credential-limits";
import type { InvitationsService } from "./invitations";
import {
  AddUserBody,
  InvitationBody,
  InvitationParams,
  SetupBody,
  SetupParams,
  SignupFinishBody,
  SignupStartBody,
} from "./members.schemas";
import type { MembersService } from "./members.service";
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
  const minute = 60_000;

  app.get("/api/setup/:token", { config: rateLimit(30, 15 * minute) }, async (request) => {
    const { token } = parseInput(SetupParams, request.params);
    const valid = await setup.isValid(token);
    return ok(valid ? "The set-up link is valid." : "This set-up link is invalid or has expired.", {
      data: { valid },
    });
  });

  app.post("/api/setup", limitPerAddressAndEmail(app, ...CREDENTIAL_LIMITS.setup), async (request) => {
    const body = parseInput(SetupBody, request.body);
    const signIn = await setup.complete(body.token, body);
    return presentSignIn(signIn, "Welcome! Your owner account is ready.");
  });

  app.get("/api/auth/registration", async () => ok("Registration.", { data: { mode: signup.mode } }));

  app.post(
    "/api/auth/signup/start",
    limitPerAddressAndEmail(app, ...CREDENTIAL_LIMITS.signupStart),
    async (request) => {
      const body = parseInput(SignupStartBody, request.body);
      await signup.start(body.email, body.invite);
      return ok(SIGNUP_START_ANSWER);
    },
  );

  app.post(
    "/api/auth/signup/finish",
    limitPerAddressAndEmail(app, ...CREDENTIAL_LIMITS.signupFinish),
    async (request) => {
      const body = parseInput(SignupFinishBody, request.body);
      return presentSignIn(await signup.finish(body), "Welcome! Your account is ready.");
    },
  );

  await adminAccountsRoutes(app, services, auth);
}

/** The admin console's accounts and invitations, in the admin scope (the session and the admin check). */
async function adminAccountsRoutes(
  app: FastifyInstance,
  { members, invitations }: MembersServices,
  auth: onRequestAsyncHookHandler,
): Promise<void> {
  await adminScope(app, auth, "/api/admin", (scope) => {
    scope.post("/accounts", async (request) => {
      const body = parseInput(AddUserBody, request.body);
      const { user, generatedPassword } = await members.add(
        { ...body, admin: body.admin === "1" },
        currentUser(request),
      );
      return ok("User created.", {
        data: { id: user.id, email: user.email, name: user.full_name, password: generatedPassword },
      });
    });
    // Links start with PUBLIC_URL, else with the origin this browser used (so they open there).
    scope.get("/invitations", async (request) =>
      ok("Invitations.", { data: await invitations.listOpen(requestOrigin(request)) }),
    );
    scope.post("/invitations", async (request) => {
      const body = parseInput(InvitationBody, request.body);
      const view = await invitations.create(currentUser(request), body, requestOrigin(request));
      return ok("Invitation created.", { data: view });
    });
    scope.post("/invitations/:id/revoke", async (request) => {
      await invitations.revoke(currentUser(request), parseInput(InvitationParams, request.params).id);
      return ok("Invitation revoked.");
    });
  });
}
