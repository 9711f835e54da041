// The admin console's user management routes: search, plan, limits, blocking, message count.
import type { FastifyRequest } from "fastify";
import { currentUser } from "../../http/auth";
import { ok } from "../../http/envelope";
import { parseInput } from "../../http/validate";
import { presentAdminUser } from "./admin.presenter";
import { BlockBody, LimitsBody, SearchQuery, UserPlanBody } from "./admin.schemas";
import type { AdminService } from "./admin.service";

/** A route handler of the admin scope. */
type AdminHandler = (request: FastifyRequest) => Promise<unknown>;

/**
 * How admin.routes.ts registers a route in its admin scope (behind the session and the admin
 * check, listed in ADMIN_ROUTES), and reads the `:id` parameter.
 */
export interface AdminRouteHelpers {
  get: (url: string, handler: AdminHandler) => void;
  post: (url: string, handler: AdminHandler) => void;
  id: (request: FastifyRequest) => string;
}

/** Registers the user management routes (/api/admin/users…) through the admin scope's helpers. */
export function adminUserRoutes({ get, post, id }: AdminRouteHelpers, admin: AdminService): void {
  get("/users", async (request) => {
    const { q } = parseInput(SearchQuery, request.query);
    return ok("Users.", { data: (await admin.searchUsers(q)).map(presentAdminUser) });
  });
  post("/users/:id/plan", async (request) => {
    const body = parseInput(UserPlanBody, request.body);
    await admin.setUserPlan(currentUser(request), id(request), body.plan);
    return ok("Plan changed.");
  });
  post("/users/:id/limits", async (request) => {
    const body = parseInput(LimitsBody, request.body);
    await admin.setUserLimits(currentUser(request), id(request), {
      characterLimit: body.cl,
      voiceLimit: body.vl,
      photoUpload: body.pl,
      imageGeneration: body.il,
      chatLimit: body.chatLimit,
      extraMessages: body.extraMessages,
    });
    return ok("Limits saved.");
  });
  post("/users/:id/block", async (request) => {
    const body = parseInput(BlockBody, request.body);
    await admin.setBlocked(currentUser(request), id(request), body.blocked);
    return ok(body.blocked ? "User blocked." : "User unblocked.");
  });
  post("/users/:id/reset-count", async (request) => {
    await admin.resetCount(currentUser(request), id(request));
    return ok("Message count reset.");
  });
}
