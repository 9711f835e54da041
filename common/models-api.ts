// The admin console's model connections contract (GET/POST /api/admin/models): the routes, and the types of connections, presets, assignments and test results.
/**
 * The admin console's model connections, as the API shows them (under /api/admin/models, admin
 * only, in the usual `{success, message, data}` envelope). An API key goes to the server and is
 * stored encrypted; it never comes back: a connection only says whether it has one.
 *
 * The shapes are zod schemas in common/api/models.ts (re-exported by common/api.ts); this file
 * re-exports their types and holds no zod, so the SPA may import `MODEL_ROUTES` from it.
 */
export type {
  ModelAssignments,
  ModelConnection,
  ModelConnectionInput,
  ModelConnectionKind,
  ModelGeneration,
  ModelPreset,
  ModelPresetInfo,
  ModelsOverview,
  ModelTestResult,
} from "./api/models";

/**
 * The routes (all POST bodies JSON; answers in the envelope's `data`):
 * - GET  /api/admin/models                    -> ModelsOverview
 * - POST /api/admin/models/create             ModelConnectionInput -> ModelConnection
 * - POST /api/admin/models/update             { id } & ModelConnectionInput -> ModelConnection
 * - POST /api/admin/models/delete             { id } -> null (assignments to it are cleared)
 * - POST /api/admin/models/list               { id } or { kind, baseUrl, apiKey? } -> { models: string[] }
 * - POST /api/admin/models/test               { id } -> ModelTestResult
 * - POST /api/admin/models/assign             { scope: "default" | "plan" | "character", targetId?, connectionId: string | null } -> ModelAssignments
 */
export const MODEL_ROUTES = "/api/admin/models" as const;
