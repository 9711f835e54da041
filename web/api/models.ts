// The admin console's model connection calls (/api/admin/models): overview, create, update, delete, list model ids, test, assign.
import type { Envelope } from "../../common/api";
import {
  MODEL_ROUTES,
  type ModelAssignments,
  type ModelConnection,
  type ModelConnectionInput,
  type ModelConnectionKind,
  type ModelsOverview,
  type ModelTestResult,
} from "../../common/models-api";
import { apiRequest, ensureSuccess } from "./client";
import { ApiError } from "./errors";

/**
 * The admin console's model connections (common/models-api.ts), under /api/admin/models, admin
 * only. The POST bodies are JSON (the contract has nested values and nulls: `apiRequest`'s
 * `json`). A refusal throws `ApiError('envelope')` with the server's sentence.
 */

/** Which connection `listModelIds` asks: a stored one, or the form's endpoint before it is saved. */
export type ModelListSource =
  | { id: string }
  | { kind: ModelConnectionKind; baseUrl: string; apiKey?: string };

/** Where `assignModel` points a connection (null: back to "Default"). */
export interface ModelAssignment {
  scope: "default" | "plan" | "character";
  /** The plan's or character's id; absent for the default. */
  targetId?: string;
  connectionId: string | null;
}

/** MODEL_ROUTES as `apiRequest` takes it (the client adds the `/api` prefix itself). */
const MODELS_PATH = MODEL_ROUTES.slice("/api".length);

/**
 * One call to `/api/admin/models<path>` through `apiRequest`: GET, or POST with `body` as JSON.
 * Answers the envelope when `success` is 1; throws `ApiError('envelope')` with the server's
 * sentence otherwise, after the client answered 401 and 503.
 */
async function call<T>(path: string, body?: unknown): Promise<Envelope<T>> {
  return ensureSuccess(
    await apiRequest<Envelope<T>>(`${MODELS_PATH}${path}`, {
      method: body === undefined ? "GET" : "POST",
      json: body,
    }),
  );
}

/** The answer's `data`, or a network error when a successful answer carries none. */
function dataOf<T>(envelope: Envelope<T>): T {
  if (envelope.data === undefined) throw new ApiError("No data in the answer", "network");
  return envelope.data;
}

/** GET /api/admin/models: the connections, presets, assignments and the server's GGUF files. */
export async function getModelsOverview(): Promise<ModelsOverview> {
  return dataOf(await call<ModelsOverview>(""));
}

/** POST /create: a new connection (its key, when given, is stored encrypted). */
export async function createModelConnection(input: ModelConnectionInput): Promise<ModelConnection> {
  return dataOf(await call<ModelConnection>("/create", input));
}

/** POST /update: `apiKey` absent keeps the stored key, "" removes it. */
export async function updateModelConnection(
  id: string,
  input: ModelConnectionInput,
): Promise<ModelConnection> {
  return dataOf(await call<ModelConnection>("/update", { id, ...input }));
}

/** POST /delete: the connection goes, and every assignment to it with it. */
export async function deleteModelConnection(id: string): Promise<void> {
  await call<null>("/delete", { id });
}

/** POST /list: the model ids the endpoint offers. */
export async function listModelIds(source: ModelListSource): Promise<string[]> {
  const answer = dataOf(await call<{ models: string[] }>("/list", source));
  return Array.isArray(answer.models) ? answer.models : [];
}

/** POST /test: one short timed reply (a failure is an answer with `ok: false` and its sentence). */
export async function testModelConnection(id: string): Promise<ModelTestResult> {
  return dataOf(await call<ModelTestResult>("/test", { id }));
}

/** POST /assign: answers the assignments as they now are. */
export async function assignModel(assignment: ModelAssignment): Promise<ModelAssignments> {
  return dataOf(await call<ModelAssignments>("/assign", assignment));
}
