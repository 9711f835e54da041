// The model connections' API under /api/admin/models (common/models-api.ts), admin only.
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import { z } from "zod";
import {
  envelopeOf,
  ModelAssignments,
  ModelConnection,
  ModelList,
  ModelsOverview,
  ModelTestResult,
} from "../../../common/api";
import { MODEL_ROUTES } from "../../../common/models-api";
import { adminScope, currentUser } from "../../http/auth";
import { ok } from "../../http/envelope";
import { answers } from "../../http/route-schemas";
import { msg } from "../../i18n/messages";
import { AssignBody, ConnectionBody, IdBody, ListBody, modelsDoc, UpdateBody } from "./models.schemas";
import type { ModelsService } from "./models.service";

/** Every route of this plugin (method and path): the tests check each answers 403 to a non-admin. */
export const MODEL_ROUTE_LIST: Array<{ method: "GET" | "POST"; url: string }> = [
  { method: "GET", url: MODEL_ROUTES },
  ...["create", "update", "delete", "list", "test", "assign"].map((name) => ({
    method: "POST" as const,
    url: `${MODEL_ROUTES}/${name}`,
  })),
];

/**
 * The admin console's Models section (product.md §9). Like the other admin routes, every route
 * sits in the admin scope (`adminScope`: the session and the admin check): no session → 401, a
 * signed-in non-admin → 403. Bodies are JSON (form fields are accepted too). Answers never
 * carry an API key.
 */
export async function modelsRoutes(
  app: FastifyInstance,
  models: ModelsService,
  auth: onRequestAsyncHookHandler,
): Promise<void> {
  await adminScope(app, auth, MODEL_ROUTES, (scope) => {
    const overview = {
      ...modelsDoc("`data`: `ModelsOverview` (connections, presets, assignments, embeddedFiles)"),
      response: answers(envelopeOf(ModelsOverview)),
    };
    scope.get("/", { schema: overview }, async () =>
      ok(msg("models.modelConnections"), { data: await models.overview() }),
    );

    const saved = answers(envelopeOf(ModelConnection));
    const create = { ...modelsDoc("`data`: `ModelConnection`"), body: ConnectionBody, response: saved };
    scope.post("/create", { schema: create }, async (request) =>
      ok(msg("models.connectionSaved"), { data: await models.create(currentUser(request), request.body) }),
    );

    const update = { ...modelsDoc("`data`: `ModelConnection`"), body: UpdateBody, response: saved };
    scope.post("/update", { schema: update }, async (request) => {
      const { id, ...input } = request.body;
      return ok(msg("models.connectionSaved"), {
        data: await models.update(currentUser(request), id, input),
      });
    });

    const remove = {
      ...modelsDoc("`data: null` (its assignments are cleared)"),
      body: IdBody,
      response: answers(envelopeOf(z.null())),
    };
    scope.post("/delete", { schema: remove }, async (request) => {
      await models.remove(currentUser(request), request.body.id);
      return ok(msg("models.connectionDeleted"), { data: null });
    });

    const list = {
      ...modelsDoc("`data: { models }`"),
      body: ListBody,
      response: answers(envelopeOf(ModelList)),
    };
    scope.post("/list", { schema: list }, async (request) =>
      ok(msg("models.modelsListed"), { data: await models.listModels(request.body) }),
    );

    const test = {
      ...modelsDoc("`data`: `ModelTestResult`"),
      body: IdBody,
      response: answers(envelopeOf(ModelTestResult)),
    };
    scope.post("/test", { schema: test }, async (request) =>
      ok(msg("models.connectionTested"), { data: await models.test(request.body.id) }),
    );

    const assign = {
      ...modelsDoc("`data`: `ModelAssignments`"),
      body: AssignBody,
      response: answers(envelopeOf(ModelAssignments)),
    };
    scope.post("/assign", { schema: assign }, async (request) => {
      const { body } = request;
      const data = await models.assign(currentUser(request), body.scope, body.targetId, body.connectionId);
      return ok(msg("models.assignmentSaved"), { data });
    });
  });
}
