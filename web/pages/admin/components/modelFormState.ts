// The Models form's state without React: its values, what a preset or kind changes, and what it sends.
import type {
  ModelConnection,
  ModelConnectionInput,
  ModelConnectionKind,
  ModelGeneration,
  ModelPreset,
  ModelPresetInfo,
} from "../../../../common/models-api";
import { ApiError } from "../../../api/errors";
import type { ModelListSource } from "../../../api/models";

/** The form's fields as typed (numbers stay text until sent). */
export interface ModelFormValues {
  name: string;
  kind: ModelConnectionKind;
  preset: ModelPreset;
  baseUrl: string;
  model: string;
  /** A new key typed in; on edit "" keeps the stored one (which is never shown). */
  apiKey: string;
  /** On edit: remove the stored key. */
  removeKey: boolean;
  maxTokens: string;
  temperature: string;
  contextSize: string;
}

/** The text fields a `set` action may change. */
export type ModelTextField =
  | "name"
  | "baseUrl"
  | "model"
  | "apiKey"
  | "maxTokens"
  | "temperature"
  | "contextSize";

/** The generation settings' names, in the form's order. */
export const GENERATION_FIELDS = ["maxTokens", "temperature", "contextSize"] as const;

/** Each generation setting's range (common/models-api.ts) and input step. */
export const GENERATION_LIMITS: Record<
  keyof ModelGeneration,
  { min: number; max: number; step: number; whole: boolean }
> = {
  maxTokens: { min: 1, max: 8192, step: 1, whole: true },
  temperature: { min: 0, max: 2, step: 0.1, whole: false },
  contextSize: { min: 512, max: 262144, step: 1, whole: true },
};

/** A new connection's generation settings. */
export const DEFAULT_GENERATION: ModelGeneration = { maxTokens: 512, temperature: 0.8, contextSize: 8192 };

export interface ModelFormState {
  values: ModelFormValues;
  /** The ids "Load models" found (offered in a select), null before a load. */
  loadedModels: string[] | null;
  /** The sentence shown next to the form: a refusal, a failed load or a broken field; "" for none. */
  problem: string;
}

export type ModelFormAction =
  | { type: "set"; field: ModelTextField; value: string }
  | { type: "removeKey"; value: boolean }
  | { type: "preset"; preset: ModelPreset; presets: readonly ModelPresetInfo[] }
  | { type: "kind"; kind: ModelConnectionKind; embeddedFiles: readonly string[] }
  | { type: "loaded"; models: string[] }
  | { type: "problem"; message: string };

/** Whether `value` is one of the presets' names. */
export function isModelPreset(value: string, presets: readonly ModelPresetInfo[]): value is ModelPreset {
  return presets.some((info) => info.preset === value);
}

/** The form's start: `connection`'s values (never its key), or a new connection on the first preset. */
export function initialModelForm(
  connection: ModelConnection | undefined,
  presets: readonly ModelPresetInfo[],
): ModelFormState {
  const first = presets[0];
  const generation = connection ?? DEFAULT_GENERATION;
  return {
    values: {
      name: connection?.name ?? "",
      kind: connection?.kind ?? "openai",
      preset: connection?.preset ?? first?.preset ?? "custom",
      baseUrl: connection?.baseUrl ?? first?.baseUrl ?? "",
      model: connection?.model ?? "",
      apiKey: "",
      removeKey: false,
      maxTokens: String(generation.maxTokens),
      temperature: String(generation.temperature),
      contextSize: String(generation.contextSize),
    },
    loadedModels: null,
    problem: "",
  };
}

/**
 * The address after choosing the preset `info`: its usual address; for one without (Custom),
 * an empty field when the address was another preset's usual one (it would not be this server's),
 * else the address typed so far.
 */
function presetBaseUrl(
  current: string,
  info: ModelPresetInfo | undefined,
  presets: readonly ModelPresetInfo[],
): string {
  if (info !== undefined && info.baseUrl !== "") return info.baseUrl;
  const presetsAddress = presets.some((item) => item.baseUrl !== "" && item.baseUrl === current.trim());
  return presetsAddress ? "" : current;
}

/**
 * The form's reducer: a preset fills its usual address (Custom clears another preset's); another
 * endpoint forgets the loaded ids.
 */
export function modelFormReducer(state: ModelFormState, action: ModelFormAction): ModelFormState {
  const values = state.values;
  switch (action.type) {
    case "set": {
      const endpoint = action.field === "baseUrl" || action.field === "apiKey";
      return {
        ...state,
        values: { ...values, [action.field]: action.value },
        loadedModels: endpoint ? null : state.loadedModels,
      };
    }
    case "removeKey":
      return { ...state, values: { ...values, removeKey: action.value, apiKey: "" } };
    case "preset": {
      const info = action.presets.find((item) => item.preset === action.preset);
      return {
        ...state,
        values: {
          ...values,
          preset: action.preset,
          baseUrl: presetBaseUrl(values.baseUrl, info, action.presets),
        },
        loadedModels: null,
      };
    }
    case "kind": {
      const model =
        action.kind === "embedded" && !action.embeddedFiles.includes(values.model)
          ? (action.embeddedFiles[0] ?? "")
          : values.model;
      return { ...state, values: { ...values, kind: action.kind, model }, loadedModels: null };
    }
    case "loaded":
      return { ...state, loadedModels: action.models, problem: "" };
    case "problem":
      return { ...state, problem: action.message };
  }
}

/**
 * Whether the API key field shows: for an endpoint whose preset wants a key, always for custom
 * and openai, and whenever a key is stored (to replace or remove it).
 */
export function keyFieldShown(
  values: ModelFormValues,
  presets: readonly ModelPresetInfo[],
  connection?: ModelConnection,
): boolean {
  if (values.kind !== "openai") return false;
  if (values.preset === "custom" || values.preset === "openai" || connection?.hasApiKey === true) return true;
  return presets.find((info) => info.preset === values.preset)?.needsApiKey === true;
}

/** The first generation setting out of its range, with the range, or null when all fit. */
export function generationProblem(
  values: ModelFormValues,
): { field: keyof ModelGeneration; min: number; max: number } | null {
  for (const field of GENERATION_FIELDS) {
    const { min, max, whole } = GENERATION_LIMITS[field];
    const text = values[field].trim();
    const number = Number(text);
    const fits = text !== "" && Number.isFinite(number) && number >= min && number <= max;
    if (!fits || (whole && !Number.isInteger(number))) return { field, min, max };
  }
  return null;
}

/**
 * What the form sends. The key: a typed one is sent; on edit "remove key" sends "" and an empty
 * field sends none (the stored key stays). An embedded connection has no address, key or preset
 * of its own ("custom").
 */
export function toModelInput(
  values: ModelFormValues,
  connection: ModelConnection | undefined,
  keyShown: boolean,
): ModelConnectionInput {
  const embedded = values.kind === "embedded";
  const input: ModelConnectionInput = {
    name: values.name.trim(),
    kind: values.kind,
    preset: embedded ? "custom" : values.preset,
    baseUrl: embedded ? "" : values.baseUrl.trim(),
    model: values.model.trim(),
    maxTokens: Number(values.maxTokens),
    temperature: Number(values.temperature),
    contextSize: Number(values.contextSize),
  };
  const key = values.apiKey.trim();
  if (connection?.hasApiKey === true && (embedded || values.removeKey)) input.apiKey = "";
  else if (!embedded && keyShown && key !== "") input.apiKey = key;
  return input;
}

/**
 * Whom "Load models" asks: the stored connection while the form still points where it does (its
 * stored key is used), else the form's address with the typed key.
 */
export function modelListSource(values: ModelFormValues, connection?: ModelConnection): ModelListSource {
  const key = values.apiKey.trim();
  const unchanged =
    connection !== undefined &&
    connection.kind === values.kind &&
    connection.baseUrl === values.baseUrl.trim() &&
    key === "" &&
    !values.removeKey;
  if (unchanged) return { id: connection.id };
  return key === ""
    ? { kind: values.kind, baseUrl: values.baseUrl.trim() }
    : { kind: values.kind, baseUrl: values.baseUrl.trim(), apiKey: key };
}

/**
 * The sentence for a failed call: the server's for a refusal, `unreachable` when no answer came,
 * "" when the client already told the user (session expired, maintenance).
 */
export function failureText(error: unknown, unreachable: string): string {
  if (error instanceof ApiError) {
    if (error.handled) return "";
    return error.kind === "envelope" ? error.message : unreachable;
  }
  return unreachable;
}
