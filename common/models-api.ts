// The admin console's model connections contract (GET/POST /api/admin/models): connections, presets, assignments and test results.
/**
 * The admin console's model connections, as the API shows them (under /api/admin/models, admin
 * only, in the usual `{success, message, data}` envelope). An API key goes to the server and is
 * stored encrypted; it never comes back: a connection only says whether it has one.
 */

/** An OpenAI-compatible endpoint, or the GGUF model run in this process. */
export type ModelConnectionKind = "openai" | "embedded";

/** Which kind of server an endpoint is, to fill in its address and whether it needs a key. */
export type ModelPreset = "ollama" | "llamacpp" | "lmstudio" | "vllm" | "openrouter" | "openai" | "custom";

/** A preset as the form offers it: the usual address of that server and whether it wants a key. */
export interface ModelPresetInfo {
  preset: ModelPreset;
  label: string;
  /** The usual base URL (ending in /v1), "" for custom. */
  baseUrl: string;
  needsApiKey: boolean;
}

/** The generation settings a connection carries. */
export interface ModelGeneration {
  /** The longest reply, in tokens (1..8192). */
  maxTokens: number;
  /** Sampling temperature (0..2). */
  temperature: number;
  /** The context window, in tokens (512..262144). */
  contextSize: number;
}

/** One stored connection. */
export interface ModelConnection extends ModelGeneration {
  id: string;
  name: string;
  kind: ModelConnectionKind;
  preset: ModelPreset;
  /** The endpoint's base URL (ending in /v1 for most servers); "" for embedded. */
  baseUrl: string;
  /** The model's id at the endpoint, or for embedded the GGUF file's path on the server. */
  model: string;
  /** Whether an API key is stored (the key itself is never sent back). */
  hasApiKey: boolean;
  /** ISO 8601. */
  updatedAt: string;
}

/**
 * What the form sends to create or update a connection. `apiKey`: a new key; "" removes the
 * stored one; absent keeps it (on update).
 */
export interface ModelConnectionInput extends ModelGeneration {
  name: string;
  kind: ModelConnectionKind;
  preset: ModelPreset;
  baseUrl: string;
  model: string;
  apiKey?: string;
}

/** Which connection answers where: the default, then per plan, then per character (most specific wins). */
export interface ModelAssignments {
  /** The default connection, null when none is chosen (chats then say no model is connected). */
  defaultId: string | null;
  plans: Array<{ planId: string; planName: string; connectionId: string | null }>;
  /** Preset characters (the admin's own); user characters follow their owner's plan. */
  characters: Array<{ characterId: string; name: string; connectionId: string | null }>;
}

/** GET /api/admin/models: everything the Models section shows. */
export interface ModelsOverview {
  connections: ModelConnection[];
  presets: ModelPresetInfo[];
  assignments: ModelAssignments;
  /** GGUF files the server can load (its models directory and LLM_MODEL_PATH), absolute paths. */
  embeddedFiles: string[];
}

/** POST /api/admin/models/test: one short reply from the connection, timed. */
export interface ModelTestResult {
  ok: boolean;
  /** Milliseconds from the request to the first streamed text, null when none came. */
  timeToFirstTokenMs: number | null;
  /** Milliseconds for the whole reply. */
  totalMs: number;
  /** The reply's text (at most a few sentences). */
  text: string;
  /** Why it failed, a sentence for the admin (absent when ok). */
  error?: string;
}

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
