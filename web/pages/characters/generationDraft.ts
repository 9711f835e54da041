// The character form's Generation section as texts (reply length, temperature, author's note, depth), from and to the character detail.
import { generationProblem } from "../../../common/generation";
import type { CharacterDetail, GenerationFields } from "../../api/characters";

/** The section's fields as the form holds them: '' is the model connection's default. */
export function generationFieldsOf(character: CharacterDetail | undefined): GenerationFields {
  const text = (value: number | null | undefined) =>
    value === null || value === undefined ? "" : String(value);
  return {
    maxTokens: text(character?.characterMaxTokens),
    temperature: text(character?.characterTemperature),
    authorsNote: character?.characterAuthorsNote ?? "",
    authorsNoteDepth: text(character?.characterAuthorsNoteDepth),
  };
}

/** Whether any field of the section is set (the section then opens at once). */
export function hasGeneration(fields: GenerationFields): boolean {
  return Object.values(fields).some((value) => value.trim() !== "");
}

/** The key (catalogue "characters") of the first rule `fields` break (common/generation.ts), or null. */
export function generationProblemKey(fields: GenerationFields): string | null {
  const problem = generationProblem({
    maxTokens: fields.maxTokens,
    temperature: fields.temperature,
    note: fields.authorsNote,
    depth: fields.authorsNoteDepth,
  });
  if (problem === null) return null;
  const keys = {
    maxTokens: "generation.errors.maxTokens",
    temperature: "generation.errors.temperature",
    note: "generation.errors.authorsNote",
    depth: "generation.errors.depth",
  } as const;
  return keys[problem];
}
