// Character and group calls (product.md §7 "Characters and profile"): list, detail, save, delete, presets, voices, card import and export.
import type {
  CharacterDetail,
  CharacterGroup,
  CharacterListItem,
  ChatCharactersReply,
  Envelope,
  Language,
  LanguagesReply,
  PresetCharacter,
  VoicePreviewReply,
} from "../../common/api";
import { apiRequest, ensureSuccess } from "./client";
import { apiDownload } from "./download";

/** Characters and groups calls (product.md §7, Characters and profile). */

/** The answers' shapes, declared once in common/api (the server's presenters return them). */
export type { CharacterDetail, CharacterGroup, Language } from "../../common/api";

/** The Generation section as the form sends it: texts, '' for the model connection's default. */
export interface GenerationFields {
  maxTokens: string;
  temperature: string;
  authorsNote: string;
  authorsNoteDepth: string;
}

/**
 * What the character form sends (product.md §7 `characters/create` and `characters/update`).
 * `language` is a languageUUID, `description` the backstory; `photo` only when one was chosen,
 * `oldPhoto` the current file name and `id` the character on update.
 */
export interface CharacterInput {
  name: string;
  sex: string;
  voice: string;
  language: string;
  description: string;
  greeting: string;
  appearance: string;
  photo?: File;
  oldPhoto?: string;
  id?: string;
  /** The lorebook as `character_book` JSON; '' removes it; undefined keeps it. */
  lorebook?: string;
  /** The reply length, temperature, author's note and depth; undefined keeps the stored ones. */
  generation?: GenerationFields;
}

/** GET /characters/list/?id=<userId>: the user's characters. Throws on success 0. */
export async function listCharacters(userId: string): Promise<CharacterListItem[]> {
  const answer = ensureSuccess(
    await apiRequest<Envelope<CharacterListItem[]>>("/characters/list/", { query: { id: userId } }),
  );
  return answer.data ?? [];
}

/** GET /characters/group/list/?id=<userId>: the user's groups. Throws on success 0. */
export async function listGroups(userId: string): Promise<CharacterGroup[]> {
  const answer = ensureSuccess(
    await apiRequest<Envelope<CharacterGroup[]>>("/characters/group/list/", { query: { id: userId } }),
  );
  return answer.data ?? [];
}

/** GET /characters/selection: the preset characters. Throws on success 0. */
export async function listPresets(): Promise<PresetCharacter[]> {
  const answer = ensureSuccess(await apiRequest<Envelope<PresetCharacter[]>>("/characters/selection"));
  return answer.data ?? [];
}

/** POST /characters/create-preselect with `id` = characterPreDefinedUUID. Throws on success 0. */
export async function createFromPreset(presetId: string): Promise<Envelope> {
  return ensureSuccess(
    await apiRequest("/characters/create-preselect", {
      method: "POST",
      body: new URLSearchParams({ id: presetId }),
    }),
  );
}

/** GET /characters/?id=<characterUUID>: one of the user's characters. Throws on success 0. */
export async function getCharacter(id: string): Promise<CharacterDetail> {
  const answer = ensureSuccess(
    await apiRequest<Envelope<CharacterDetail>>("/characters/", { query: { id } }),
  );
  if (answer.data === undefined) throw new Error("The character is missing from the answer.");
  return answer.data;
}

/** GET /characters/languages: `languages` of the form's language select. Throws on success 0. */
export async function listLanguages(): Promise<Language[]> {
  const answer = ensureSuccess(await apiRequest<LanguagesReply>("/characters/languages"));
  return answer.languages ?? [];
}

/**
 * GET /characters/voice/preview/?v=<voiceName>: `audioUrl` of a short sample (product.md §4 voice
 * preview). Throws `ApiError('envelope')` with the server's message on success 0 (e.g. while no
 * text-to-speech engine is configured).
 */
export async function previewVoice(voiceName: string): Promise<string> {
  const answer = ensureSuccess(
    await apiRequest<VoicePreviewReply>("/characters/voice/preview/", {
      query: { v: voiceName },
    }),
  );
  if (!answer.audioUrl) throw new Error("The voice preview has no audio.");
  return answer.audioUrl;
}

/**
 * POST /characters/create, or /characters/update when `input.id` is set: multipart with name,
 * sex, voice, language, description, greeting, appearance, photo (only when chosen), old_photo
 * and id (product.md §7), the lorebook as a JSON file part, and the Generation section's
 * max_tokens, temperature, authors_note and authors_note_depth. Returns the envelope (message, page); throws on success 0 and on HTTP 4xx.
 */
export async function saveCharacter(input: CharacterInput): Promise<Envelope> {
  const form = new FormData();
  form.set("name", input.name.trim());
  form.set("sex", input.sex);
  form.set("voice", input.voice);
  form.set("language", input.language);
  form.set("description", input.description.trim());
  form.set("greeting", input.greeting.trim());
  form.set("appearance", input.appearance.trim());
  if (input.photo !== undefined) form.set("photo", input.photo, input.photo.name);
  if (input.oldPhoto) form.set("old_photo", input.oldPhoto);
  if (input.id !== undefined) form.set("id", input.id);
  // A file part, not a text field: the server caps multipart text fields at 64 KB.
  if (input.lorebook !== undefined) {
    form.set("lorebook", new Blob([input.lorebook], { type: "application/json" }), "lorebook.json");
  }
  if (input.generation !== undefined) {
    form.set("max_tokens", input.generation.maxTokens.trim());
    form.set("temperature", input.generation.temperature.trim());
    form.set("authors_note", input.generation.authorsNote.trim());
    form.set("authors_note_depth", input.generation.authorsNoteDepth.trim());
  }
  const path = input.id === undefined ? "/characters/create" : "/characters/update";
  return ensureSuccess(await apiRequest(path, { method: "POST", body: form }));
}

/** DELETE /characters/delete/?id=<characterUUID>. Throws on success 0 (403 for the only character). */
export async function deleteCharacter(id: string): Promise<Envelope> {
  return ensureSuccess(await apiRequest("/characters/delete/", { method: "DELETE", query: { id } }));
}

/** DELETE /characters/group/delete/?id=<groupUUID>. Throws on success 0. */
export async function deleteGroup(id: string): Promise<Envelope> {
  return ensureSuccess(await apiRequest("/characters/group/delete/", { method: "DELETE", query: { id } }));
}

/** POST /characters/create-random: a new random character (product.md §4). Throws on success 0 (e.g. at the limit cl). */
export async function createRandomCharacter(): Promise<Envelope> {
  return ensureSuccess(await apiRequest("/characters/create-random", { method: "POST" }));
}

/**
 * POST /characters/import: multipart field `card` holding a Character Card V2/V3 (a PNG with a
 * `chara`/`ccv3` text chunk, or the JSON). Throws on success 0 with the server's reason.
 */
export async function importCharacterCard(card: File): Promise<Envelope> {
  const form = new FormData();
  form.set("card", card, card.name);
  return ensureSuccess(await apiRequest("/characters/import", { method: "POST", body: form }));
}

/**
 * GET /characters/export/?id=<characterUUID>: the character as a PNG character card (V2 `chara`
 * and V3 `ccv3` chunks), with the file name the server suggests.
 */
export function exportCharacterCard(id: string): Promise<{ blob: Blob; fileName: string }> {
  return apiDownload("/characters/export/", { id }, "character.png");
}

/** GET /characters/list/chat: the user's characters with greetings (product.md §7). */
export async function listChatCharacters(): Promise<CharacterListItem[]> {
  const answer = ensureSuccess(await apiRequest<ChatCharactersReply>("/characters/list/chat"));
  return answer.characters ?? [];
}
