// Characters, presets, voices and cards of the signed-in user: create, update, delete, import, export (product.md §7).
import { randomUUID } from "node:crypto";
import { renderAvatarJpeg, renderDefaultPictureJpeg } from "../../db/avatars";
import type { Character, CharacterProfile, User } from "../../db/schema";
import { AppError, badRequest, forbidden, notFound } from "../../errors";
import { carried, msg } from "../../i18n/messages";
import { loadSharp, normalisePicture } from "../../media/picture";
import type { LlmProvider } from "../../providers/llm/llm";
import type { FileStorage } from "../../providers/storage/storage";
import type { ChatsService } from "../conversation/chats.service";
import { type Lorebook, parseLorebookJson, storedLorebook, toCharacterBook } from "../prompt/lorebook";
import { assertAllowedContent } from "../safety/content-rules";
import { buildCards, type CardData, cardLorebook, readCard } from "./card";
import type { CharactersRepo, NewCharacter } from "./characters.repo";
import { cardGeneration, type GenerationInput, generationPatch } from "./generation";
import { writePngTextChunks } from "./png-chunks";
import { createRandomCharacter } from "./random-character";

/**
 * The character form (product.md §2 "Character form", 5): validated lengths, raw references; the
 * Generation section's fields (GenerationInput) undefined keep the stored values.
 */
export interface CharacterInput extends GenerationInput {
  name: string;
  sex: "0" | "1";
  voice: string;
  language: string;
  description: string;
  greeting: string;
  appearance: string;
  /** Uploaded photo bytes, if any. */
  photo?: Buffer;
  /**
   * The lorebook as `character_book` JSON text; '' removes it; undefined keeps the
   * stored one (a client that does not know the field).
   */
  lorebook?: string;
  /**
   * The alternate greetings (swipes of the first message), checked by the route's
   * schema; undefined keeps the stored ones.
   */
  alternate_greetings?: string[];
}

/**
 * The `lorebook` column for a book: its normalised `character_book` JSON, or null when it has no
 * entries. Entry contents and keys pass the same content rules as the character's fields.
 * @throws AppError 400 "content_minors" for refused content.
 */
function lorebookColumn(book: Lorebook | null): string | null {
  if (!book || book.entries.length === 0) return null;
  assertAllowedContent(
    msg("characters.term.lorebook"),
    ...book.entries.flatMap((e) => [e.content, ...e.keys, ...e.secondary_keys]),
  );
  return JSON.stringify(toCharacterBook(book));
}

/**
 * The form's `lorebook` text as a column value (see `CharacterInput.lorebook`).
 * @throws AppError 400 with the sentence `parseLorebookJson` gives for a bad or oversized book.
 */
function formLorebook(json: string): string | null {
  const parsed = parseLorebookJson(json);
  if (parsed === null) return null;
  if (!parsed.ok) throw new AppError("bad_request", carried(parsed) ?? parsed.message);
  return lorebookColumn(parsed.book);
}

/** The stored profile a checked form describes, with the photo's file name under characters/. */
function profileOf(input: CharacterInput, photo: string): CharacterProfile {
  return {
    name: input.name,
    sex: input.sex,
    voice: input.voice,
    language_id: input.language,
    description: input.description,
    greeting: input.greeting,
    appearance: input.appearance,
    photo,
  };
}

/** Characters, presets, voices and cards of the signed-in user (product.md §7 "Characters and profile"). */
export class CharactersService {
  constructor(
    private readonly repo: CharactersRepo,
    private readonly storage: FileStorage,
    private readonly llm: LlmProvider,
    /** Voice samples (server/modules/voice, cached by voice and text). */
    private readonly voiceSamples: { preview(voiceName: string): Promise<string> },
    /**
     * The chat path's per-process caches of characters and chat sessions: an update drops the
     * character's cached row, a deletion its chat's too (the rule of server/db/short-cache.ts).
     */
    private readonly cached: Pick<ChatsService, "characterChanged" | "chatRemoved">,
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

  languages() {
    return this.repo.languages();
  }

  voices() {
    return this.repo.voices();
  }

  /** @throws AppError 404 when the character is not the user's. */
  async get(user: User, id: string): Promise<Character> {
    const character = await this.repo.findOwned(user.id, id);
    if (!character) throw notFound(msg("characters.characterNotFound"));
    return character;
  }

  /**
   * Creates the user's own copy of a preset character (product.md §4: "Choosing a preset creates it,
   * then redirects to the list"), its photo copied under characters/.
   * @throws AppError 404 for an unknown preset; 403 "character_limit" at the user's limit cl.
   */
  async createFromPreset(user: User, presetId: string): Promise<Character> {
    const preset = await this.repo.findPreset(presetId);
    if (!preset) throw notFound(msg("characters.presetCharacterDoesNotExist"));
    const photo = `${randomUUID()}.jpg`;
    await this.storage.copy(`predefined-characters/${preset.photo}`, `characters/${photo}`);
    return this.insert(user, {
      preset_id: preset.id,
      name: preset.name,
      sex: preset.sex,
      voice: preset.voice,
      language_id: preset.language_id,
      description: preset.description,
      greeting: preset.greeting,
      appearance: preset.appearance,
      photo,
    });
  }

  /**
   * Creates a character from the form (product.md §7 `characters/create`). Rules enforced here, not only
   * in the browser: voice and language from the lists, the photo only with pl, the
   * appearance only with il, the creation limit cl.
   * @throws AppError 400 for an unknown voice or language or a bad photo; 403 for a plan rule.
   */
  async create(user: User, input: CharacterInput): Promise<Character> {
    await this.checkInput(user, input);
    const lorebook = input.lorebook === undefined ? null : formLorebook(input.lorebook);
    const photo = input.photo
      ? await this.storePhoto(input.photo)
      : await this.defaultPhoto(input.sex, input.name);
    return this.insert(user, {
      preset_id: null,
      ...profileOf(input, photo),
      lorebook,
      alternate_greetings: JSON.stringify(input.alternate_greetings ?? []),
      ...generationPatch(input),
    });
  }

  /**
   * Updates a character of the user (product.md §7 `characters/update`); a new photo replaces the old
   * file, which is removed. The client's `old_photo` is not trusted: the stored name is used.
   * Without il the form has no appearance field (product.md §2), so the stored appearance is kept
   * (an edit after a downgrade must not erase it); only a different non-empty one is
   * refused, as at `create`.
   * @throws AppError 404 for another user's character; as `create` otherwise.
   */
  async update(user: User, id: string, input: CharacterInput): Promise<Character> {
    const character = await this.get(user, id);
    if (!user.image_generation && input.appearance === "") {
      input = { ...input, appearance: character.appearance };
    }
    await this.checkInput(user, input, character.appearance);
    const lorebook = input.lorebook === undefined ? {} : { lorebook: formLorebook(input.lorebook) };
    const photo = input.photo ? await this.storePhoto(input.photo) : character.photo;
    const greetings =
      input.alternate_greetings === undefined
        ? {}
        : { alternate_greetings: JSON.stringify(input.alternate_greetings) };
    const patch = { ...profileOf(input, photo), ...lorebook, ...greetings, ...generationPatch(input) };
    await this.repo.updateOwned(user.id, id, patch);
    this.cached.characterChanged(user.id, id);
    if (photo !== character.photo) await this.storage.remove(`characters/${character.photo}`);
    return this.get(user, id);
  }

  /**
   * Deletes a character with its chat and photo (product.md §7 `characters/delete`).
   * @throws AppError 404 when not the user's; 403 "last_character" for the user's only one.
   */
  async delete(user: User, id: string): Promise<void> {
    const character = await this.get(user, id);
    const result = await this.repo.deleteOwnedUnlessLast(user.id, id);
    if (result === "missing") throw notFound(msg("characters.characterNotFound"));
    if (result === "last") throw forbidden(msg("characters.cannotDeleteOnlyCharacter"), "last_character");
    this.cached.chatRemoved(user.id, id);
    await this.storage.remove(`characters/${character.photo}`);
    // Its chat's pictures and the user's photos (product.md §3: under {character id}/).
    await this.storage.removeFolder(character.id);
  }

  /** Deletes a group of the user with its chat. @throws AppError 404 when not the user's. */
  async deleteGroup(user: User, id: string): Promise<void> {
    if (!(await this.repo.deleteOwnedGroup(user.id, id))) throw notFound(msg("characters.groupNotFound"));
    this.cached.chatRemoved(user.id, id);
    await this.storage.removeFolder(id);
  }

  /**
   * Creates a random character (product.md §7 `create-random`): composed by the language model when one
   * is ready, from curated parts otherwise.
   * @throws AppError 403 at the creation limit.
   */
  async createRandom(user: User): Promise<Character> {
    const existing = await this.repo.listByUser(user.id);
    const random = await createRandomCharacter(this.llm, new Set(existing.map((c) => c.name.toLowerCase())));
    const [language] = await this.repo.languages();
    const voices = await this.repo.voices();
    const voice = voices.find((v) => v.sex === random.sex && v.language_code === language?.code) ?? voices[0];
    if (!language || !voice)
      throw new Error("Languages and voices are missing: the database was not seeded.");
    return this.insert(user, {
      preset_id: null,
      name: random.name,
      sex: random.sex,
      voice: voice.name,
      language_id: language.id,
      description: random.backstory,
      greeting: random.greeting,
      appearance: user.image_generation ? random.appearance : "",
      photo: await this.defaultPhoto(random.sex, random.name),
    });
  }

  /**
   * A short sample of a voice in its language (product.md §7 `voice/preview`), stored under voice/ and
   * cached by voice and text.
   * @returns the audio's path under /content/. @throws AppError 404 for an unknown voice;
   * TtsUnavailableError while no engine is configured.
   */
  async previewVoice(voiceName: string): Promise<string> {
    return this.voiceSamples.preview(voiceName);
  }

  /**
   * Imports a Character Card V2/V3 (PNG with `chara`/`ccv3`, or JSON) as a new character; the
   * whole card is kept with it. A PNG's picture becomes the photo only on plans with photo upload
   * (pl, as for the form); otherwise the character gets the default picture. The card's
   * `character_book` becomes the character's lorebook, its `depth_prompt` the author's note and
   * our `companion` extension the reply length and temperature (generation.ts).
   * @throws AppError 400 with the reason for a bad card or lorebook; 403 at the creation limit.
   */
  async importCard(user: User, bytes: Buffer): Promise<Character> {
    const card = readCard(bytes);
    const lorebook = lorebookColumn(cardLorebook(card.data));
    const generation = cardGeneration(card.data.extensions);
    assertAllowedContent(
      msg("characters.term.card"),
      card.name,
      card.backstory,
      card.greeting,
      card.data.description,
      card.data.personality,
      card.data.scenario,
      card.data.first_mes,
      ...card.data.alternate_greetings,
      generation.authors_note ?? "",
    );
    const [language] = await this.repo.languages();
    const voices = await this.repo.voices();
    const voice = voices.find((v) => v.sex === "0" && v.language_code === language?.code) ?? voices[0];
    if (!language || !voice)
      throw new Error("Languages and voices are missing: the database was not seeded.");
    const customPhoto = bytes[0] === 0x89 && Boolean(user.photo_upload);
    const photo = customPhoto ? await this.storePhoto(bytes) : await this.defaultPhoto("0", card.name);
    return this.insert(user, {
      preset_id: null,
      name: card.name,
      sex: "0",
      voice: voice.name,
      language_id: language.id,
      description: card.backstory,
      greeting: card.greeting,
      appearance: user.image_generation ? card.appearance : "",
      photo,
      card: JSON.stringify(card.data),
      lorebook,
      alternate_greetings: JSON.stringify(card.alternateGreetings),
      ...generation,
    });
  }

  /**
   * Exports a character as a PNG character card carrying both a V2 (`chara`) and a V3 (`ccv3`)
   * chunk with the same data, the lorebook as `character_book`. @throws AppError 404 when not the
   * user's.
   */
  async exportCard(user: User, id: string): Promise<{ png: Buffer; fileName: string }> {
    const character = await this.get(user, id);
    const stored = character.card ? (JSON.parse(character.card) as CardData) : undefined;
    const cards = buildCards(character, stored, storedLorebook(character.lorebook));
    // No photo: the default picture (the key "characters/" is a folder, which S3 refuses to read).
    const photo = character.photo ? await this.storage.read(`characters/${character.photo}`) : undefined;
    const picture = photo ?? (await renderDefaultPictureJpeg());
    const png = await loadSharp()(picture).png().toBuffer();
    const b64 = (value: object) => Buffer.from(JSON.stringify(value), "utf8").toString("base64");
    return {
      png: writePngTextChunks(png, { chara: b64(cards.v2), ccv3: b64(cards.v3) }),
      fileName: `${character.name.replace(/[^\w-]+/g, "_") || "character"}.png`,
    };
  }

  /** Plan and list rules of the form; `storedAppearance` is the edited character's (kept without il). */
  private async checkInput(user: User, input: CharacterInput, storedAppearance = ""): Promise<void> {
    assertAllowedContent(
      msg("characters.term.character"),
      input.name,
      input.description,
      input.greeting,
      input.appearance,
      ...(input.alternate_greetings ?? []),
      input.authors_note ?? "",
    );
    if (!(await this.repo.findVoice(input.voice))) throw badRequest(msg("characters.chooseVoiceFromList"));
    if (!(await this.repo.findLanguage(input.language)))
      throw badRequest(msg("characters.chooseLanguageFromList"));
    if (input.photo && !user.photo_upload) {
      throw forbidden(msg("characters.planDoesNotIncludePhoto"), "plan_photo");
    }
    if (input.appearance && input.appearance !== storedAppearance && !user.image_generation) {
      throw forbidden(msg("characters.planDoesNotIncludeAppearance"), "plan_appearance");
    }
  }

  private async storePhoto(bytes: Buffer): Promise<string> {
    const jpeg = await normalisePicture(bytes);
    const name = `${randomUUID()}.jpg`;
    await this.storage.put(`characters/${name}`, jpeg);
    return name;
  }

  private async defaultPhoto(sex: string, seed: string): Promise<string> {
    const name = `${randomUUID()}.jpg`;
    const look =
      sex === "1"
        ? { top: "shortFlat", background: "c1f4c5", skin: "edb98a", hair: "4a312c", male: true }
        : { top: "straight02", background: "ffd5dc", skin: "edb98a", hair: "2c1b18", male: false };
    await this.storage.put(`characters/${name}`, await renderAvatarJpeg(seed, look));
    return name;
  }

  private async insert(
    user: User,
    fields: Omit<NewCharacter, "id" | "user_id" | "created_at">,
  ): Promise<Character> {
    const character: NewCharacter = { ...fields, id: randomUUID(), user_id: user.id, created_at: this.now() };
    const created = await this.repo.insertWithinLimit(character, user.character_limit);
    if (!created) {
      await this.storage.remove(`characters/${fields.photo}`);
      throw forbidden(
        msg("characters.haveReachedLimitCharactersUpgrade", { character_limit: user.character_limit }),
        "character_limit",
      );
    }
    return this.get(user, character.id!);
  }
}
