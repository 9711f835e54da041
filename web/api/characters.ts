import type { CharacterListItem, Envelope, PresetCharacter } from "../../common/api";
import { apiRequest, ensureSuccess } from "./client";

/** Characters and groups calls (spec 7, Characters and profile). */

/** spec 3: a group with its members (`characters/group/list`). */
export interface CharacterGroup {
  groupUUID: string;
  members: { memberName: string; memberPhoto: string }[];
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
