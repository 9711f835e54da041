import { randomUUID } from "node:crypto";
import type { Character, User } from "../../db/schema";
import { forbidden, notFound } from "../../http/errors";
import type { FileStorage } from "../../providers/storage/storage";
import type { CharactersRepo } from "./characters.repo";

/** Characters, presets and groups of the signed-in user (issue 2 subset of spec 7). */
export class CharactersService {
  constructor(
    private readonly repo: CharactersRepo,
    private readonly storage: FileStorage,
    private readonly now: () => number = Date.now,
  ) {}

  list(user: User): Promise<Character[]> {
    return this.repo.listByUser(user.id);
  }

  listGroups(user: User) {
    return this.repo.listGroups(user.id);
  }

  listPresets() {
    return this.repo.listPresets();
  }

  /**
   * Creates the user's own copy of a preset character (spec 4: "Choosing a preset creates it,
   * then redirects to the list"), its photo copied under characters/.
   * @throws AppError 404 for an unknown preset; 403 "character_limit" at the user's limit cl.
   */
  async createFromPreset(user: User, presetId: string): Promise<Character> {
    const preset = await this.repo.findPreset(presetId);
    if (!preset) throw notFound("This preset character does not exist.");
    const id = randomUUID();
    const photo = `${id}.jpg`;
    const character: Character = {
      id,
      user_id: user.id,
      preset_id: preset.id,
      name: preset.name,
      sex: preset.sex,
      voice: preset.voice,
      language_id: preset.language_id,
      description: preset.description,
      greeting: preset.greeting,
      appearance: preset.appearance,
      photo,
      created_at: this.now(),
    };
    await this.storage.copy(`predefined-characters/${preset.photo}`, `characters/${photo}`);
    const created = await this.repo.insertWithinLimit(character, user.character_limit);
    if (!created) {
      await this.storage.remove(`characters/${photo}`);
      throw forbidden(
        `You have reached your limit of ${user.character_limit} characters. Upgrade your plan to create more.`,
        "character_limit",
      );
    }
    return character;
  }
}
