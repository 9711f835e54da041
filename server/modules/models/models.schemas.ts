// Request shapes of the model connections' API (common/models-api.ts), each rule with its sentence.
import { z } from "zod";
import { msg, zodText } from "../../i18n/messages";

const PRESETS = ["ollama", "llamacpp", "lmstudio", "vllm", "openrouter", "openai", "custom"] as const;

const NAME = zodText(msg("models.nameMust160Characters"));
const MODEL = zodText(msg("models.modelMust1200Characters"));
/** Said for a base URL that is not an http(s) address of at most 500 characters. */
export const BASE_URL = msg("models.baseUrlMustHttpHttps");
const MAX_TOKENS = zodText(msg("models.longestReplyMustWholeNumber"));
const TEMPERATURE = zodText(msg("models.temperatureMustNumberFrom0"));
const CONTEXT = zodText(msg("models.contextSizeMustWholeNumber"));
const API_KEY = zodText(msg("models.apiKeyMustMost1000"));
const KIND = zodText(msg("models.kindMustOpenaiEmbedded"));
const ID = zodText(msg("models.connectionIdNotValid"));

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
  preset: z.enum(PRESETS, { error: zodText(msg("models.presetNotOneOfferedOnes")) }),
  baseUrl: z
    .string({ error: zodText(BASE_URL) })
    .trim()
    .max(500, zodText(BASE_URL))
    .default(""),
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
  baseUrl: z
    .string({ error: zodText(BASE_URL) })
    .trim()
    .max(500, zodText(BASE_URL))
    .default(""),
  apiKey: z.string({ error: API_KEY }).trim().max(1000, API_KEY).optional(),
});

/** Which connection answers where (null clears). */
export const AssignBody = z.object({
  scope: z
    .enum(["default", "plan", "character"], {
      error: zodText(msg("models.scopeMustDefaultPlanCharacter")),
    })
    .describe("`default`, `plan`, `character`"),
  targetId: z
    .string({ error: zodText(msg("models.targetIdNotValid")) })
    .max(100, zodText(msg("models.targetIdNotValid")))
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
