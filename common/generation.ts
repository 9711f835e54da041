// A character's own generation settings (reply length, temperature, author's note): their bounds, shared by the server's checks and the character form.

/** Fewest and most tokens a character's reply length may be set to. */
export const MAX_TOKENS_MIN = 16;
export const MAX_TOKENS_MAX = 4096;
/** Lowest and highest temperature a character may be set to. */
export const TEMPERATURE_MIN = 0;
export const TEMPERATURE_MAX = 2;
/** Most characters of an author's note. */
export const AUTHORS_NOTE_MAX_LENGTH = 2000;
/** Deepest an author's note may be placed, messages from the end of the prompt. */
export const AUTHORS_NOTE_DEPTH_MAX = 100;
/** The depth of an author's note set without one (SillyTavern's default, 4). */
export const AUTHORS_NOTE_DEFAULT_DEPTH = 4;

/**
 * A stored temperature as the model gets it: two decimals (PostgreSQL's `real` gives 0.7 back
 * as 0.699999988…); null or not a number: undefined (the connection's own).
 */
export function storedTemperature(value: number | string | null | undefined): number | undefined {
  if (value === null || value === undefined) return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? Math.round(n * 100) / 100 : undefined;
}

/**
 * Which rule a value of the Generation section breaks, or null when all hold: `maxTokens` a
 * whole number from MAX_TOKENS_MIN to MAX_TOKENS_MAX, `temperature` a number from 0 to 2,
 * `note` at most AUTHORS_NOTE_MAX_LENGTH characters, `depth` a whole number from 0 to
 * AUTHORS_NOTE_DEPTH_MAX. Blank numbers are fine (the connection's default).
 */
export function generationProblem(values: {
  maxTokens: string;
  temperature: string;
  note: string;
  depth: string;
}): "maxTokens" | "temperature" | "note" | "depth" | null {
  const number = (text: string, min: number, max: number, whole: boolean) => {
    if (text.trim() === "") return true;
    const n = Number(text);
    return Number.isFinite(n) && n >= min && n <= max && (!whole || Number.isInteger(n));
  };
  if (!number(values.maxTokens, MAX_TOKENS_MIN, MAX_TOKENS_MAX, true)) return "maxTokens";
  if (!number(values.temperature, TEMPERATURE_MIN, TEMPERATURE_MAX, false)) return "temperature";
  if (values.note.trim().length > AUTHORS_NOTE_MAX_LENGTH) return "note";
  if (!number(values.depth, 0, AUTHORS_NOTE_DEPTH_MAX, true)) return "depth";
  return null;
}
