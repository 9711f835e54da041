// The ZIP of a user's data export: their characters as cards, their chats as SillyTavern JSONL, their photos and chat pictures, and account.json.
import type { User } from "../../db/schema";
import type { FileStorage } from "../../providers/storage/storage";
import type { ExportRepo } from "./export.repo";
import { entryMessages, humanizedDate, jsonLine, safeFileName } from "./export-format";
import { ZipBuilder } from "./zip-builder";

/** History entries read per page while a chat is written. */
const HISTORY_PAGE = 500;

/** The character card of the characters module (`CharactersService.exportCard`): a V2+V3 PNG. */
export interface CardExporter {
  exportCard(user: User, id: string): Promise<{ png: Buffer; fileName: string }>;
}

/** Where an archive's contents come from, and its limits. */
export interface ArchiveSources {
  repo: ExportRepo;
  storage: FileStorage;
  cards: CardExporter;
  /** Largest single file put in the ZIP, bytes (larger ones are skipped with a note). */
  maxFileBytes: number;
  /** Most bytes put in one ZIP before compression (files past it are skipped with a note). */
  maxTotalBytes: number;
  now: () => number;
}

/**
 * The ZIP of everything of `user` (ExportService has the contents), in bounded memory: chats are
 * read in pages. What did not fit the limits is listed in account.json's `skipped`.
 * @returns the ZIP's bytes. @throws what reading the data or the storage throws.
 */
export function buildArchive(sources: ArchiveSources, user: User): Promise<Buffer> {
  return new Archive(sources, user).build();
}

/** One archive being built: the ZIP so far, its size and what was skipped. */
class Archive {
  private readonly zip = new ZipBuilder();
  private readonly skipped: string[] = [];
  /** Bytes put in the ZIP so far, before compression. */
  private total = 0;
  private readonly userName: string;

  constructor(
    private readonly src: ArchiveSources,
    private readonly user: User,
  ) {
    this.userName = user.full_name || user.user_name;
  }

  async build(): Promise<Buffer> {
    const names = await this.addCharacters();
    const { user } = this;
    if (user.picture) await this.addStored(`users/${user.picture}`, `photos/profile/${user.picture}`);
    await this.addChats(names);
    // The account itself, last (it lists what was skipped).
    const account = await this.account();
    this.zip.add("account.json", Buffer.from(`${JSON.stringify(account, null, 2)}\n`), true);
    return this.zip.finish();
  }

  /** Whether `size` more bytes fit; notes `what` as skipped when not. */
  private fits(what: string, size: number): boolean {
    if (size > this.src.maxFileBytes || this.total + size > this.src.maxTotalBytes) {
      this.skipped.push(`${what} (${size} bytes): larger than the export allows`);
      return false;
    }
    this.total += size;
    return true;
  }

  /** Adds the stored file `key` as `name` when it exists and fits. @returns whether it was added. */
  private async addStored(key: string, name: string): Promise<boolean> {
    const file = await this.src.storage.stat(key);
    if (!file || !this.fits(name, file.size)) return false;
    const bytes = await this.src.storage.read(key);
    if (!bytes) return false;
    this.zip.add(name, bytes, false);
    return true;
  }

  /**
   * Characters: V3 PNG cards (the characters module's own export), and their photos.
   * @returns the characters' names by id.
   */
  private async addCharacters(): Promise<Map<string, string>> {
    const { user } = this;
    const characters = await this.src.repo.characters(user.id);
    for (const character of characters) {
      const name = `characters/${safeFileName(character.name, "character")}-${character.id}.png`;
      const card = await this.src.cards.exportCard(user, character.id);
      if (this.fits(name, card.png.length)) this.zip.add(name, card.png, false);
      if (character.photo)
        await this.addStored(`characters/${character.photo}`, `photos/characters/${character.photo}`);
    }
    return new Map(characters.map((c) => [c.id, c.name]));
  }

  /** Chats, each a JSONL file with its pictures (the user's photos among them). */
  private async addChats(names: Map<string, string>): Promise<void> {
    const { repo, storage } = this.src;
    const groups = new Map((await repo.groups(this.user.id)).map((g) => [g.id, g.names]));
    for (const chat of await repo.chats(this.user.id)) {
      const chatName = chat.isGroup
        ? (groups.get(chat.chatKey) ?? []).join(" & ") || "Group"
        : (names.get(chat.chatKey) ?? "Character");
      const pictures = new Set<string>();
      for (const key of await storage.list(chat.chatKey).catch(() => [] as string[]))
        if (await this.addStored(key, `photos/chats/${key}`)) pictures.add(key);
      const header = {
        user_name: this.userName,
        character_name: chatName,
        create_date: humanizedDate(chat.createdAt),
        chat_metadata: {
          exported_from: "companion-chat",
          chat_id: chat.chatKey,
          is_group: chat.isGroup,
          ...(chat.isGroup ? { members: groups.get(chat.chatKey) ?? [] } : {}),
        },
      };
      await this.writeChat(chat, header, { names, chatName, pictures });
    }
  }

  /**
   * Writes one chat's JSONL file: the header line, then its history page by page; a chat past the
   * export's total is cut with a note.
   */
  private async writeChat(
    chat: { chatKey: string; sessionId: string },
    header: object,
    of: { names: Map<string, string>; chatName: string; pictures: Set<string> },
  ): Promise<void> {
    const { repo } = this.src;
    const picture = (key: string) => (of.pictures.has(key) ? `photos/chats/${key}` : undefined);
    const file = `chats/${safeFileName(of.chatName)}-${chat.chatKey}.jsonl`;
    const lines = this.zip.text(file);
    let written = jsonLine(header).length;
    lines.push(jsonLine(header));
    let after = Number.MIN_SAFE_INTEGER;
    for (;;) {
      const page = await repo.historyPage(chat.sessionId, after, HISTORY_PAGE);
      if (page.length === 0) break;
      const swipes = await repo.swipes(page.map((e) => e.id));
      let text = "";
      for (const entry of page) {
        const messages = entryMessages(
          entry,
          this.userName,
          of.names.get(entry.character_id) ?? of.chatName,
          swipes.get(entry.id) ?? [],
          {
            message: entry.message_image
              ? picture(`${chat.chatKey}/user_photo/${entry.message_image}`)
              : undefined,
            reply: entry.reply_image ? picture(`${chat.chatKey}/${entry.reply_image}`) : undefined,
          },
        );
        for (const message of messages) text += jsonLine(message);
      }
      // A chat counts against the total as it is written; one past it is cut with a note.
      if (this.total + written + text.length > this.src.maxTotalBytes) {
        this.skipped.push(`${file}: cut after ${Math.round(written / 1024)} KB, the export's limit`);
        break;
      }
      written += text.length;
      lines.push(text);
      after = page.at(-1)?.seq ?? after;
      if (page.length < HISTORY_PAGE) break;
    }
    this.total += written;
    lines.end();
  }

  /** account.json: the profile, the plan, the settings, the memories and what was skipped. */
  private async account() {
    const { user } = this;
    const { repo } = this.src;
    return {
      exported_at: new Date(this.src.now()).toISOString(),
      user: {
        id: user.id,
        email: user.email,
        full_name: user.full_name,
        user_name: user.user_name,
        picture: user.picture ? `photos/profile/${user.picture}` : "",
        role: user.role,
        is_demo: Boolean(user.is_demo),
        created_at: new Date(user.created_at).toISOString(),
        adult_confirmed_at: user.adult_confirmed_at ? new Date(user.adult_confirmed_at).toISOString() : null,
        ui_language: user.ui_language,
      },
      plan: {
        name: await repo.planName(user.plan_id),
        character_limit: user.character_limit,
        voice_limit: user.voice_limit,
        photo_upload: Boolean(user.photo_upload),
        image_generation: Boolean(user.image_generation),
        uncensored: Boolean(user.uncensored),
        chat_limit: user.chat_limit,
        extra_messages: user.extra_messages,
        ends_at: user.plan_ends_at ? new Date(user.plan_ends_at).toISOString() : null,
      },
      settings: {
        checkins: (await repo.checkinSettings(user.id)).map((s) => ({
          character: s.character ?? "",
          enabled: Boolean(s.enabled),
          time_zone: s.time_zone,
        })),
      },
      memories: (await repo.memories(user.id)).map((m) => ({
        character: m.character ?? "",
        fact: m.fact,
        created_at: new Date(m.created_at).toISOString(),
      })),
      skipped: this.skipped,
    };
  }
}
