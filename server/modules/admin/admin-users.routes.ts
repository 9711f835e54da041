// The admin console's user management routes: search, plan, limits, blocking, message count.
import { currentUser } from "../../http/auth";
import { ok } from "../../http/envelope";
import type { ZodApp } from "../../http/route-schemas";
import { msg } from "../../i18n/messages";
import { presentAdminUser } from "./admin.presenter";
import {
  AdminAnswer,
  adminDoc,
  BlockBody,
  IdParams,
  LimitsBody,
  SearchQuery,
  UserPlanBody,
} from "./admin.schemas";
import type { AdminService } from "./admin.service";

/**
 * Registers the user management routes (/api/admin/users…) on the admin scope of admin.routes.ts
 * (behind the session and the admin check, listed in ADMIN_ROUTES), each with its request schemas.
 */
export function adminUserRoutes(scope: ZodApp, admin: AdminService): void {
  scope.get(
    "/users",
    { schema: { ...adminDoc("`data`: users", AdminAnswer.users), querystring: SearchQuery } },
    async (request) =>
      ok(msg("admin.users"), { data: (await admin.searchUsers(request.query.q)).map(presentAdminUser) }),
  );

  scope.post(
    "/users/:id/plan",
    { schema: { ...adminDoc("–", AdminAnswer.done), params: IdParams, body: UserPlanBody } },
    async (request) => {
      await admin.setUserPlan(currentUser(request), request.params.id, request.body.plan);
      return ok(msg("admin.planChanged"));
    },
  );

  const limitsSchema = { ...adminDoc("–", AdminAnswer.done), params: IdParams, body: LimitsBody };
  scope.post("/users/:id/limits", { schema: limitsSchema }, async (request) => {
    const { body } = request;
    await admin.setUserLimits(currentUser(request), request.params.id, {
      characterLimit: body.cl,
      voiceLimit: body.vl,
      photoUpload: body.pl,
      imageGeneration: body.il,
      chatLimit: body.chatLimit,
      extraMessages: body.extraMessages,
    });
    return ok(msg("admin.limitsSaved"));
  });

  scope.post(
    "/users/:id/block",
    { schema: { ...adminDoc("–", AdminAnswer.done), params: IdParams, body: BlockBody } },
    async (request) => {
      const { blocked } = request.body;
      await admin.setBlocked(currentUser(request), request.params.id, blocked);
      return ok(blocked ? msg("admin.userBlocked") : msg("admin.userUnblocked"));
    },
  );

  const resetSchema = { ...adminDoc("resets the message count", AdminAnswer.done), params: IdParams };
  scope.post("/users/:id/reset-count", { schema: resetSchema }, async (request) => {
    await admin.resetCount(currentUser(request), request.params.id);
    return ok(msg("admin.messageCountReset"));
  });
}
