// The admin console's accounts and invitations (product.md §2): adding a user, and listing, making and revoking invitations.
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import { adminScope, currentUser } from "../../http/auth";
import { ok } from "../../http/envelope";
import { requestOrigin } from "../../http/origin";
import { msg } from "../../i18n/messages";
import type { InvitationsService } from "./invitations";
import {
  ADDED_USER_ANSWER,
  AddUserBody,
  BARE_ANSWER,
  INVITATION_ANSWER,
  INVITATIONS_ANSWER,
  InvitationBody,
  InvitationParams,
  membersDoc,
} from "./members.schemas";
import type { MembersService } from "./members.service";

/** The Answers cells of docs/api.md for these routes. */
const ADD_ANSWERS = "`data: { id, email, name, password }` (password only when generated)";
const OPEN_ANSWERS =
  "`data`: open invitations; each `link` starts with `PUBLIC_URL`, else the origin the request was made to";
const INVITE_ANSWERS = "`data`: the invitation (its link as above); one made for an e-mail is mailed there";

/** The admin console's accounts and invitations, in the admin scope (the session and the admin check). */
export async function adminAccountsRoutes(
  app: FastifyInstance,
  { members, invitations }: { members: MembersService; invitations: InvitationsService },
  auth: onRequestAsyncHookHandler,
): Promise<void> {
  await adminScope(app, auth, "/api/admin", (scope) => {
    const addSchema = { ...membersDoc("Admin", ADD_ANSWERS), body: AddUserBody, response: ADDED_USER_ANSWER };
    scope.post("/accounts", { schema: addSchema }, async (request) => {
      const { body } = request;
      const { user, generatedPassword } = await members.add(
        { ...body, admin: body.admin === "1" },
        currentUser(request),
      );
      return ok(msg("members.userCreated"), {
        data: { id: user.id, email: user.email, name: user.full_name, password: generatedPassword },
      });
    });
    // Links start with PUBLIC_URL, else with the origin this browser used (so they open there).
    const openSchema = { ...membersDoc("Admin", OPEN_ANSWERS), response: INVITATIONS_ANSWER };
    scope.get("/invitations", { schema: openSchema }, async (request) =>
      ok(msg("members.invitations"), { data: await invitations.listOpen(requestOrigin(request)) }),
    );
    const inviteSchema = {
      ...membersDoc("Admin", INVITE_ANSWERS),
      body: InvitationBody,
      response: INVITATION_ANSWER,
    };
    scope.post("/invitations", { schema: inviteSchema }, async (request) => {
      const view = await invitations.create(currentUser(request), request.body, requestOrigin(request));
      return ok(msg("members.invitationCreated"), { data: view });
    });
    const revokeSchema = { ...membersDoc("Admin", "–"), params: InvitationParams, response: BARE_ANSWER };
    scope.post("/invitations/:id/revoke", { schema: revokeSchema }, async (request) => {
      await invitations.revoke(currentUser(request), request.params.id);
      return ok(msg("members.invitationRevoked"));
    });
  });
}
