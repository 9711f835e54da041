// Request shapes of the model connections' API (common/models-api.ts), each rule with its sentence.
import { z } from "zod";

const PRESETS = ["ollama", "llamacpp", "lmstudio", "vllm", "openrouter", "openai", "custom"] as const;

const NAME = "The name must be 1 to 60 characters.";
const MODEL = "The model must be 1 to 200 characters.";
/** Said for a base URL that is not an http(s) address of at most 500 characters. */
export const BASE_URL = "The base URL must be an http:// or https:// address of at most 500 characters.";
const MAX_TOKENS = "The longest reply must be a whole number from 1 to 8192 tokens.";
const TEMPERATURE = "The temperature must be a number from 0 to 2.";
const CONTEXT = "The context size must be a whole number from 512 to 262144 tokens.";
const API_KEY = "The API key must be at most 1000 characters.";
const KIND = "The kind must be 'openai' or 'embedded'.";
const ID = "The connection id is not valid.";

/** A number from a JSON body or a form field. */
const numberField = (sentence: string) =>
  z.preprocess(
    (v) => (typeof v === "string" && v.trim() !== "" ? Number(v) : v),
    z.number({ error: sentence }),
  );

const kind = z.enum(["openai", "embedded"], { error: KIND });

/** A connection as the form sends it (ModelConnectionInput). */
export const ConnectionBody = z.object({
  name: z.string({ error: NAME }).trim().min(1, NAME).max(60, NAME),
  kind,
  preset: z.enum(PRESETS, { error: "The preset is not one of the offered ones." }),
  baseUrl: z.string({ error: BASE_URL }).trim().max(500, BASE_URL).default(""),
  model: z.string({ error: MODEL }).trim().min(1, MODEL).max(200, MODEL),
  maxTokens: numberField(MAX_TOKENS).pipe(
    z.number().int(MAX_TOKENS).min(1, MAX_TOKENS).max(8192, MAX_TOKENS),
  ),
  temperature: numberField(TEMPERATURE).pipe(z.number().min(0, TEMPERATURE).max(2, TEMPERATURE)),
  contextSize: numberField(CONTEXT).pipe(z.number().int(CONTEXT).min(512, CONTEXT).max(262_144, CONTEXT)),
  apiKey: z.string({ error: API_KEY }).trim().max(1000, API_KEY).optional(),
});
export type ConnectionInput = z.infer<typeof ConnectionBody>;

const connectionId = z.string({ error: ID }).min(1, ID).max(100, ID);

/** `{ id }` of an existing connection. */
export const IdBody = z.object({ id: connectionId });

/** An update: the id and the whole connection. */
export const UpdateBody = ConnectionBody.extend({ id: connectionId });

/** The models of a stored connection (`id`) or of the form's unsaved address (`kind`, `baseUrl`, `apiKey`). */
export const ListBody = z.object({
  id: connectionId.optional(),
  kind: kind.default("openai"),
  baseUrl: z.string({ error: BASE_URL }).trim().max(500, BASE_URL).default(""),
  apiKey: z.string({ error: API_KEY }).trim().max(1000, API_KEY).optional(),
});

/** Which connection answers where (null clears). */
export const AssignBody = z.object({
  scope: z
    .enum(["default", "plan", "character"], {
      error: "The scope must be 'default', 'plan' or 'character'.",
    })
    .describe("`default`, `plan`, `character`"),
  targetId: z
    .string({ error: "The target id is not valid." })
    .max(100, "The target id is not valid.")
    .default(""),
  connectionId: connectionId.nullable().describe("null clears"),
});

/**
 * The documentation of a model connections route in its schema (the OpenAPI document): docs/api.md's
 * "Admin: model connections" section, what the route answers (the table's Answers cell), and where it
 * comes from (the table has no From column: product.md §7 lists `/api/admin/models` under "Ours").
 */
export const modelsDoc = (description: string) => ({
  tags: ["Admin: model connections"],
  description,
  "x-from": "ours (listed in §7)",
});
