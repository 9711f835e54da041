// A character's own generation settings (product.md §2 "Character form", Generation): the form's values as columns, and as Character Card extensions.
import {
  AUTHORS_NOTE_DEFAULT_DEPTH,
  AUTHORS_NOTE_DEPTH_MAX,
  AUTHORS_NOTE_MAX_LENGTH,
  MAX_TOKENS_MAX,
  MAX_TOKENS_MIN,
  storedTemperature,
  TEMPERATURE_MAX,
  TEMPERATURE_MIN,
} from "../../../common/generation";
import type { CharactersTable } from "../../db/schema";

/** The generation columns of `characters` (see server/db/schema-characters.ts). */
export type GenerationColumns = Pick<CharactersTable, "max_tokens" | "temperature" | "authors_note_depth"> & {
  authors_note: string;
};

/**
 * The form's generation fields (checked by the route's schema): undefined keeps the stored value,
 * null clears a number, '' clears the note.
 */
export interface GenerationInput {
  max_tokens?: number | null;
  temperature?: number | null;
  authors_note?: string;
  authors_note_depth?: number | null;
}

/** The columns `input` sets: only its defined fields (the others keep their stored value). */
export function generationPatch(input: GenerationInput): Partial<GenerationColumns> {
  const patch: Partial<GenerationColumns> = {};
  if (input.max_tokens !== undefined) patch.max_tokens = input.max_tokens;
  if (input.temperature !== undefined) patch.temperature = input.temperature;
  if (input.authors_note !== undefined) patch.authors_note = input.authors_note;
  if (input.authors_note_depth !== undefined) patch.authors_note_depth = input.authors_note_depth;
  return patch;
}

/** The character detail's generation fields (product.md §3 "Character (detail)", ours): null where unset. */
export function presentGeneration(c: Partial<GenerationColumns>) {
  return {
    characterMaxTokens: c.max_tokens ?? null,
    characterTemperature: storedTemperature(c.temperature) ?? null,
    characterAuthorsNote: c.authors_note ?? "",
    characterAuthorsNoteDepth: c.authors_note_depth ?? null,
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  Boolean(v) && typeof v === "object" && !Array.isArray(v);
/** A number within `min`..`max` (rounded when `whole`), else undefined. */
const within = (v: unknown, min: number, max: number, whole: boolean) => {
  const n = typeof v === "string" && v.trim() !== "" ? Number(v) : v;
  if (typeof n !== "number" || !Number.isFinite(n) || n < min || n > max) return undefined;
  return whole ? Math.round(n) : n;
};

/**
 * The generation settings a card's `data.extensions` carries: the author's note as SillyTavern
 * writes it (`depth_prompt: { prompt, depth, role }`), the reply length and temperature under
 * ours (`companion: { max_tokens, temperature }`; V2/V3 have no field for them). Values out of
 * bounds are left out (the connection's default); the note is cut to AUTHORS_NOTE_MAX_LENGTH.
 */
export function cardGeneration(extensions: Record<string, unknown>): Partial<GenerationColumns> {
  const out: Partial<GenerationColumns> = {};
  const depthPrompt = extensions.depth_prompt;
  if (isRecord(depthPrompt) && typeof depthPrompt.prompt === "string" && depthPrompt.prompt.trim()) {
    out.authors_note = depthPrompt.prompt.trim().slice(0, AUTHORS_NOTE_MAX_LENGTH);
    out.authors_note_depth = within(depthPrompt.depth, 0, AUTHORS_NOTE_DEPTH_MAX, true) ?? null;
  }
  const ours = extensions.companion;
  if (isRecord(ours)) {
    const maxTokens = within(ours.max_tokens, MAX_TOKENS_MIN, MAX_TOKENS_MAX, true);
    const temperature = within(ours.temperature, TEMPERATURE_MIN, TEMPERATURE_MAX, false);
    if (maxTokens !== undefined) out.max_tokens = maxTokens;
    if (temperature !== undefined) out.temperature = temperature;
  }
  return out;
}

/**
 * A card's `data.extensions` with the character's generation settings (the inverse of
 * `cardGeneration`): `depth_prompt` when it has a note, `companion` when it has a reply length or
 * temperature; a stored card's ones are replaced (or removed when the setting was cleared).
 */
export function withCardGeneration(
  extensions: Record<string, unknown>,
  c: Partial<GenerationColumns>,
): Record<string, unknown> {
  const { depth_prompt: _note, companion: _ours, ...rest } = extensions;
  const temperature = storedTemperature(c.temperature);
  const ours = {
    ...(c.max_tokens ? { max_tokens: c.max_tokens } : {}),
    ...(temperature !== undefined ? { temperature } : {}),
  };
  return {
    ...rest,
    ...(c.authors_note
      ? {
          depth_prompt: {
            prompt: c.authors_note,
            depth: c.authors_note_depth ?? AUTHORS_NOTE_DEFAULT_DEPTH,
            role: "system",
          },
        }
      : {}),
    ...(Object.keys(ours).length > 0 ? { companion: ours } : {}),
  };
}
