// The admin console's API under /api/admin, behind the session and admin check (401 without a session, 403 for a non-admin).
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import { adminScope, currentUser } from "../../http/auth";
import { ok } from "../../http/envelope";
import { msg } from "../../i18n/messages";
import {
  presentAudit,
  presentContact,
  presentFreeSubscription,
  presentPlan,
  presentPreset,
} from "./admin.presenter";
import { AdminAnswer, adminDoc, IdParams, PlanBody, PlanImageBody, PresetBody } from "./admin.schemas";
import type { AdminService } from "./admin.service";
import { adminUserRoutes } from "./admin-users.routes";

/** Every admin route, as registered (method and path): the tests check each answers 403. */
export { ADMIN_ROUTES } from "../../http/auth";

/**
 * The admin console's API under /api/admin, in the admin scope (`adminScope`: the session and
 * the admin check, so a route cannot be registered without them): no session → 401, a signed-in
 * non-admin → 403 with the envelope. Each route declares its request schemas, checked after
 * those hooks.
 */
export async function adminRoutes(
  app: FastifyInstance,
  admin: AdminService,
  auth: onRequestAsyncHookHandler,
): Promise<void> {
  await adminScope(app, auth, "/api/admin", (scope) => {
    scope.get("/me", { schema: adminDoc("`data: { id, email, name }`", AdminAnswer.me) }, async (request) => {
      const user = currentUser(request);
      return ok(msg("admin.admin"), { data: { id: user.id, email: user.email, name: user.full_name } });
    });

    scope.get(
      "/plans",
      { schema: adminDoc("`data`: plans with their user counts", AdminAnswer.plans) },
      async () => ok(msg("admin.plans"), { data: (await admin.plansList()).map(presentPlan) }),
    );
    const planSchema = {
      ...adminDoc("`data`: the plan", AdminAnswer.plan),
      params: IdParams,
      body: PlanBody,
    };
    scope.post("/plans/:id", { schema: planSchema }, async (request) => {
      const { body } = request;
      const plan = await admin.updatePlan(currentUser(request), request.params.id, {
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
      return ok(msg("admin.planSaved"), { data: presentPlan({ ...plan, user_count: 0 }) });
    });

    // the plan's picture on the pricing page (multipart field `image`, JPEG or PNG).
    const imageSchema = {
      ...adminDoc("`data`: the plan", AdminAnswer.plan),
      consumes: ["multipart/form-data"],
      params: IdParams,
      body: PlanImageBody,
    };
    scope.post("/plans/:id/image", { schema: imageSchema }, async (request) => {
      const plan = await admin.setPlanImage(currentUser(request), request.params.id, request.body.image);
      return ok(msg("admin.planPictureSaved"), { data: presentPlan({ ...plan, user_count: 0 }) });
    });

    scope.get("/presets", { schema: adminDoc("`data`: preset characters", AdminAnswer.presets) }, async () =>
      ok(msg("admin.presets"), { data: (await admin.presetsList()).map(presentPreset) }),
    );
    scope.post(
      "/presets",
      { schema: { ...adminDoc("`data`: the preset", AdminAnswer.preset), body: PresetBody } },
      async (request) => {
        const preset = await admin.createPreset(currentUser(request), request.body);
        return ok(msg("admin.presetCharacterCreated"), { data: preset ? presentPreset(preset) : undefined });
      },
    );
    const presetSchema = {
      ...adminDoc("`data`: the preset", AdminAnswer.preset),
      params: IdParams,
      body: PresetBody,
    };
    scope.post("/presets/:id", { schema: presetSchema }, async (request) => {
      const preset = await admin.updatePreset(currentUser(request), request.params.id, request.body);
      return ok(msg("admin.presetCharacterSaved"), { data: preset ? presentPreset(preset) : undefined });
    });

    adminUserRoutes(scope, admin);

    scope.get(
      "/contact-messages",
      {
        schema: adminDoc("`data`: messages sent with `/api/contact`", AdminAnswer.contactMessages),
      },
      async () =>
        ok(msg("admin.contactMessages"), { data: (await admin.contactMessages()).map(presentContact) }),
    );

    scope.get(
      "/free-subscriptions",
      { schema: adminDoc("`data`: requests", AdminAnswer.freeSubscriptions) },
      async () =>
        ok(msg("admin.freeSubscriptions"), {
          data: (await admin.freeSubscriptions()).map(presentFreeSubscription),
        }),
    );
    const approveSchema = {
      ...adminDoc("creates the account, mails the login", AdminAnswer.done),
      params: IdParams,
    };
    scope.post("/free-subscriptions/:id/approve", { schema: approveSchema }, async (request) => {
      await admin.approveFreeSubscription(currentUser(request), request.params.id);
      return ok(msg("admin.approvedAccountWasCreatedLogin"));
    });

    scope.get("/audit", { schema: adminDoc("`data`: the audit log", AdminAnswer.audit) }, async () =>
      ok(msg("admin.auditLog"), { data: (await admin.auditLog()).map(presentAudit) }),
    );
  });
}
