// The model connections' API under /api/admin/models (common/models-api.ts), admin only.
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import { MODEL_ROUTES } from "../../../common/models-api";
import { adminScope, currentUser } from "../../http/auth";
import { ok } from "../../http/envelope";
import { parseInput } from "../../http/validate";
import { AssignBody, ConnectionBody, IdBody, ListBody, UpdateBody } from "./models.schemas";
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
    scope.get("/", async () => ok("Model connections.", { data: await models.overview() }));

    scope.post("/create", async (request) => {
      const input = parseInput(ConnectionBody, request.body);
      return ok("Connection saved.", { data: await models.create(currentUser(request), input) });
    });

    scope.post("/update", async (request) => {
      const { id, ...input } = parseInput(UpdateBody, request.body);
      return ok("Connection saved.", { data: await models.update(currentUser(request), id, input) });
    });

    scope.post("/delete", async (request) => {
      await models.remove(currentUser(request), parseInput(IdBody, request.body).id);
      return ok("Connection deleted.", { data: null });
    });

    scope.post("/list", async (request) => {
      const body = parseInput(ListBody, request.body);
      return ok("Models listed.", { data: await models.listModels(body) });
    });

    scope.post("/test", async (request) => {
      const { id } = parseInput(IdBody, request.body);
      return ok("Connection tested.", { data: await models.test(id) });
    });

    scope.post("/assign", async (request) => {
      const body = parseInput(AssignBody, request.body);
      const data = await models.assign(currentUser(request), body.scope, body.targetId, body.connectionId);
      return ok("Assignment saved.", { data });
    });
  });
}
