// The admin console's API under /api/admin, behind the session and admin check (401 without a session, 403 for a non-admin).
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from "fastify";
import { adminScope, currentUser } from "../../http/auth";
import { ok } from "../../http/envelope";
import { parseInput } from "../../http/validate";
import {
  presentAudit,
  presentContact,
  presentFreeSubscription,
  presentPlan,
  presentPreset,
} from "./admin.presenter";
import { IdParams, PlanBody, PlanImageBody, PresetBody } from "./admin.schemas";
import type { AdminService } from "./admin.service";
import { type AdminRouteHelpers, adminUserRoutes } from "./admin-users.routes";

/** Every admin route, as registered (method and path): the tests check each answers 403. */
export { ADMIN_ROUTES } from "../../http/auth";

/**
 * The admin console's API under /api/admin, in the admin scope (`adminScope`: the session and
 * the admin check, so a route cannot be registered without them): no session → 401, a signed-in
 * non-admin → 403 with the envelope.
 */
export async function adminRoutes(
  app: FastifyInstance,
  admin: AdminService,
  auth: onRequestAsyncHookHandler,
): Promise<void> {
  await adminScope(app, auth, "/api/admin", (scope) => {
    const get: AdminRouteHelpers["get"] = (url, handler) => void scope.get(url, handler);
    const post: AdminRouteHelpers["post"] = (url, handler) => void scope.post(url, handler);
    const id = (request: FastifyRequest) => parseInput(IdParams, request.params).id;

    get("/me", async (request) => {
      const user = currentUser(request);
      return ok("Admin.", { data: { id: user.id, email: user.email, name: user.full_name } });
    });

    get("/plans", async () => ok("Plans.", { data: (await admin.plansList()).map(presentPlan) }));
    post("/plans/:id", async (request) => {
      const body = parseInput(PlanBody, request.body);
      const plan = await admin.updatePlan(currentUser(request), id(request), {
        name: body.name,
        priceCents: body.price,
        descriptionHtml: body.description,
        url: body.url,
        stripePriceId: body.stripePriceId,
        characterLimit: body.cl,
        voiceLimit: body.vl,
        photoUpload: body.pl,
        imageGeneration: body.il,
        messageLimit: body.messageLimit,
        quotaPeriod: body.quotaPeriod,
        uncensored: body.uncensored,
      });
      return ok("Plan saved.", { data: presentPlan({ ...plan, user_count: 0 }) });
    });

    // the plan's picture on the pricing page (multipart field `image`, JPEG or PNG).
    post("/plans/:id/image", async (request) => {
      const planId = id(request);
      const { image } = parseInput(PlanImageBody, request.body);
      const plan = await admin.setPlanImage(currentUser(request), planId, image!);
      return ok("Plan picture saved.", { data: presentPlan({ ...plan, user_count: 0 }) });
    });

    get("/presets", async () => ok("Presets.", { data: (await admin.presetsList()).map(presentPreset) }));
    post("/presets", async (request) => {
      const preset = await admin.createPreset(currentUser(request), parseInput(PresetBody, request.body));
      return ok("Preset character created.", { data: preset ? presentPreset(preset) : undefined });
    });
    post("/presets/:id", async (request) => {
      const body = parseInput(PresetBody, request.body);
      const preset = await admin.updatePreset(currentUser(request), id(request), body);
      return ok("Preset character saved.", { data: preset ? presentPreset(preset) : undefined });
    });

    adminUserRoutes({ get, post, id }, admin);

    get("/contact-messages", async () =>
      ok("Contact messages.", { data: (await admin.contactMessages()).map(presentContact) }),
    );

    get("/free-subscriptions", async () =>
      ok("Free subscriptions.", { data: (await admin.freeSubscriptions()).map(presentFreeSubscription) }),
    );
    post("/free-subscriptions/:id/approve", async (request) => {
      await admin.approveFreeSubscription(currentUser(request), id(request));
      return ok("Approved: the account was created and the login details sent.");
    });

    get("/audit", async () => ok("Audit log.", { data: (await admin.auditLog()).map(presentAudit) }));
  });
}
