// The admin console's model connections as zod schemas (GET/POST /api/admin/models): connections, presets, assignments and test results.
import { z } from "zod";

/**
 * The admin console's model connections, as the API shows them (under /api/admin/models, admin
 * only, in the usual `{success, message, data}` envelope). An API key goes to the server and is
 * stored encrypted; it never comes back: a connection only says whether it has one. The routes
 * are listed in common/models-api.ts (`MODEL_ROUTES`), which re-exports these types.
 */

/** An OpenAI-compatible endpoint, or the GGUF model run in this process. */
export const ModelConnectionKind = z.enum(["openai", "embedded"]).meta({
  id: "ModelConnectionKind",
  description: "An OpenAI-compatible endpoint, or the GGUF model run in this process.",
});
export type ModelConnectionKind = z.infer<typeof ModelConnectionKind>;

/** Which kind of server an endpoint is, to fill in its address and whether it needs a key. */
export const ModelPreset = z
  .enum(["ollama", "llamacpp", "lmstudio", "vllm", "openrouter", "openai", "custom"])
  .meta({
    id: "ModelPreset",
    description: "Which kind of server an endpoint is, to fill in its address and whether it needs a key.",
  });
export type ModelPreset = z.infer<typeof ModelPreset>;

/** A preset as the form offers it: the usual address of that server and whether it wants a key. */
export const ModelPresetInfo = z
  .object({
    preset: ModelPreset,
    label: z.string(),
    /** The usual base URL (ending in /v1), "" for custom. */
    baseUrl: z.string().describe('The usual base URL (ending in /v1), "" for custom.'),
    needsApiKey: z.boolean(),
  })
  .meta({
    id: "ModelPresetInfo",
    description:
      "A preset as the form offers it: the usual address of that server and whether it wants a key.",
  });
export type ModelPresetInfo = z.infer<typeof ModelPresetInfo>;

/** The generation settings a connection carries. */
export const ModelGeneration = z
  .object({
    /** The longest reply, in tokens (1..8192). */
    maxTokens: z.number().describe("The longest reply, in tokens (1..8192)."),
    /** Sampling temperature (0..2). */
    temperature: z.number().describe("Sampling temperature (0..2)."),
    /** The context window, in tokens (512..262144). */
    contextSize: z.number().describe("The context window, in tokens (512..262144)."),
  })
  .meta({ id: "ModelGeneration", description: "The generation settings a connection carries." });
export type ModelGeneration = z.infer<typeof ModelGeneration>;

/** One stored connection. */
export const ModelConnection = ModelGeneration.extend({
  id: z.string(),
  name: z.string(),
  kind: ModelConnectionKind,
  preset: ModelPreset,
  /** The endpoint's base URL (ending in /v1 for most servers); "" for embedded. */
  baseUrl: z.string().describe('The endpoint\'s base URL (ending in /v1 for most servers); "" for embedded.'),
  /** The model's id at the endpoint, or for embedded the GGUF file's path on the server. */
  model: z
    .string()
    .describe("The model's id at the endpoint, or for embedded the GGUF file's path on the server."),
  /** Whether an API key is stored (the key itself is never sent back). */
  hasApiKey: z.boolean().describe("Whether an API key is stored (the key itself is never sent back)."),
  /** ISO 8601. */
  updatedAt: z.string().describe("ISO 8601."),
}).meta({ id: "ModelConnection", description: "One stored model connection." });
export type ModelConnection = z.infer<typeof ModelConnection>;

/**
 * What the form sends to create or update a connection. `apiKey`: a new key; "" removes the
 * stored one; absent keeps it (on update). Its OpenAPI id is "ModelConnectionBody": the document
 * names every schema's input form "<id>Input", so "ModelConnectionInput" would collide with
 * ModelConnection's.
 */
export const ModelConnectionInput = ModelGeneration.extend({
  name: z.string(),
  kind: ModelConnectionKind,
  preset: ModelPreset,
  baseUrl: z.string(),
  model: z.string(),
  apiKey: z
    .string()
    .optional()
    .describe('A new key; "" removes the stored one; absent keeps it (on update).'),
}).meta({ id: "ModelConnectionBody", description: "What the form sends to create or update a connection." });
export type ModelConnectionInput = z.infer<typeof ModelConnectionInput>;

/** Which connection answers where: the default, then per plan, then per character (most specific wins). */
export const ModelAssignments = z
  .object({
    /** The default connection, null when none is chosen (chats then say no model is connected). */
    defaultId: z
      .string()
      .nullable()
      .describe("The default connection, null when none is chosen (chats then say no model is connected)."),
    plans: z.array(
      z.object({ planId: z.string(), planName: z.string(), connectionId: z.string().nullable() }),
    ),
    /** Preset characters (the admin's own); user characters follow their owner's plan. */
    characters: z
      .array(z.object({ characterId: z.string(), name: z.string(), connectionId: z.string().nullable() }))
      .describe("Preset characters (the admin's own); user characters follow their owner's plan."),
  })
  .meta({
    id: "ModelAssignments",
    description: "Which connection answers where: the default, then per plan, then per character.",
  });
export type ModelAssignments = z.infer<typeof ModelAssignments>;

/** GET /api/admin/models: everything the Models section shows. */
export const ModelsOverview = z
  .object({
    connections: z.array(ModelConnection),
    presets: z.array(ModelPresetInfo),
    assignments: ModelAssignments,
    /** GGUF files the server can load (its models directory and LLM_MODEL_PATH), absolute paths. */
    embeddedFiles: z
      .array(z.string())
      .describe("GGUF files the server can load (its models directory and LLM_MODEL_PATH), absolute paths."),
  })
  .meta({ id: "ModelsOverview", description: "Everything the admin console's Models section shows." });
export type ModelsOverview = z.infer<typeof ModelsOverview>;

/** POST /api/admin/models/test: one short reply from the connection, timed. */
export const ModelTestResult = z
  .object({
    ok: z.boolean(),
    /** Milliseconds from the request to the first streamed text, null when none came. */
    timeToFirstTokenMs: z
      .number()
      .nullable()
      .describe("Milliseconds from the request to the first streamed text, null when none came."),
    /** Milliseconds for the whole reply. */
    totalMs: z.number().describe("Milliseconds for the whole reply."),
    /** The reply's text (at most a few sentences). */
    text: z.string().describe("The reply's text (at most a few sentences)."),
    /** Why it failed, a sentence for the admin (absent when ok). */
    error: z.string().optional().describe("Why it failed, a sentence for the admin (absent when ok)."),
  })
  .meta({ id: "ModelTestResult", description: "One short reply from the connection, timed." });
export type ModelTestResult = z.infer<typeof ModelTestResult>;

/** POST /api/admin/models/list: the model ids the endpoint offers, or for embedded the server's GGUF files. */
export const ModelList = z
  .object({
    models: z
      .array(z.string())
      .describe(
        "The model ids the endpoint offers, or for embedded the server's GGUF files (absolute paths).",
      ),
  })
  .meta({ id: "ModelList", description: "The models a connection's endpoint offers." });
export type ModelList = z.infer<typeof ModelList>;
