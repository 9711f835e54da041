// Importing a SillyTavern chat: the file checked whole, then the character's history replaced by it as New Chat deletes it, memory bounded.
import { CHAT_IMPORT_MAX_BYTES, FIRST_MESSAGE_MARKER } from "../../../common/constants";
import type { ChatHistoryRow, User } from "../../db/schema";
import { AppError, notFound } from "../../errors";
import { msg } from "../../i18n/messages";
import type { FileStorage } from "../../providers/storage/storage";
import { displayName } from "../conversation/chats.service";
import type { Conversation } from "../conversation/conversation";
import { importedHistory, parseSillyTavernChat } from "../conversation/sillytavern";
import type { ReplyMemory } from "./reply-generator";

/**
 * Exchanges of an imported history left after its summary point: memory's rolling summary
 * starts there, so its first refresh folds at most this many minus memory's SUMMARY_KEEP_RECENT
 * (20) in one prompt, and later ones go on in the usual steps. The older imported exchanges are not
 * summarised (they stay in the history, where the chat's search and recall find them).
 */
export const IMPORT_SUMMARY_EXCHANGES = 40;
/**
 * Characters of the exchanges after an imported history's summary point, at most: fewer
 * exchanges are left after it when they are long, so no summary prompt grows past about 10 000
 * tokens however long the imported messages are (up to CHAT_IMPORT_MESSAGE_MAX_LENGTH each).
 */
export const IMPORT_SUMMARY_CHARS = 40_000;
/**
 * The user's newest messages of an imported history that long-term facts are drawn from
 * (memory's background extraction, which reads at most 40 per job): the older ones are marked
 * done, so an import of thousands of messages never sets off thousands of model calls.
 */
export const IMPORT_FACTS_MESSAGES = 36;

/** CHAT_IMPORT_MAX_BYTES in megabytes, as the refusal says it. */
const IMPORT_MAX_MEGABYTES = CHAT_IMPORT_MAX_BYTES / 1024 / 1024;

/** What an import did: how many of the file's messages became the history. */
export interface ImportResult {
  imported: number;
}

/**
 * "Import a SillyTavern chat": a SillyTavern chat file (server/modules/conversation/sillytavern.ts
 * reads it; the data export writes the same format) replaces the history of one of the user's
 * characters, the way New Chat deletes it (ChatService.newChat): facts of the old messages
 * not extracted yet are extracted first (memory's beforeClear), the chat's pictures and photos are
 * removed, the cached session and prompt window dropped. A refused file stores and deletes nothing:
 * it is read whole before anything is written, and the history is replaced in one transaction.
 */
export class ChatImportService {
  constructor(
    /** The chats (ownership, session) and their history. */
    private readonly conversation: Conversation,
    /** Memory's ports: beforeClear as New Chat uses it, afterReply to queue the bounded background work. */
    private readonly memory: Pick<ReplyMemory, "beforeClear" | "afterReply">,
    /** The content area: the replaced history's pictures and photos go with it. */
    private readonly storage: FileStorage,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Replaces the history of the user's character `characterId` with the chat file `file`.
   * Imported messages keep their dates and order (sillytavern.ts), are not held to the 150
   * characters of typed messages and cost no message of the quota (nothing is generated).
   * Memory afterwards: the summary starts IMPORT_SUMMARY_EXCHANGES (or IMPORT_SUMMARY_CHARS) from
   * the end and facts are drawn from the IMPORT_FACTS_MESSAGES newest user's messages, both by the
   * usual background jobs, queued here.
   * @param file the upload, at most CHAT_IMPORT_MAX_BYTES (the route reads one byte more at most).
   * @returns how many messages were imported.
   * @throws AppError 404 when the character is not the user's (a group's id too: an import is
   *   one to one); 413 "chat_file_too_large" past CHAT_IMPORT_MAX_BYTES; 400 as parseSillyTavernChat.
   */
  async importSillyTavern(user: User, characterId: string, file: Buffer): Promise<ImportResult> {
    const character = await this.conversation.chats.findOwnedCharacter(user, characterId);
    if (!character) throw notFound(msg("characters.characterNotFound"));
    if (file.length > CHAT_IMPORT_MAX_BYTES) {
      throw new AppError("chat_file_too_large", msg("chat.chatFileTooLargeMost", { IMPORT_MAX_MEGABYTES }));
    }
    const now = this.now();
    const messages = parseSillyTavernChat(file, now);
    const chat = await this.conversation.chats.resolveChat(user, character.id);
    const session = await this.conversation.chats.session(user, chat);
    const imported = importedHistory(messages, session.id, character.id, now);
    const points = memoryPoints(imported.entries);
    const userName = displayName(user);
    // As New Chat: the facts of the messages about to go are taken first (in the background).
    await this.memory.beforeClear({ userId: user.id, userName, sessionId: session.id });
    await this.conversation.history.replaceHistory(session, imported, points);
    // product.md §3: the chat's pictures and the user's photos live under {character id}/.
    await this.storage.removeFolder(chat.chatKey);
    const window = imported.entries.filter((entry) => entry.seq > points.summaryUntilSeq);
    this.memory.afterReply({
      userId: user.id,
      userName,
      sessionId: session.id,
      exchanges: window.length,
      window: window.map((entry) => ({ seq: entry.seq, message: userWords(entry) })),
      kept: window.length,
      full: true,
      factsUntilSeq: points.factsUntilSeq,
    });
    return { imported: messages.length };
  }
}

/** An entry's words of the user's ("" for a greeting-like entry, which holds the marker). */
const userWords = (entry: ChatHistoryRow) => (entry.message === FIRST_MESSAGE_MARKER ? "" : entry.message);

/**
 * Where memory starts on an imported history (order keys, µs; 0 = from the start): the summary
 * point leaves at most IMPORT_SUMMARY_EXCHANGES exchanges and IMPORT_SUMMARY_CHARS characters after
 * it (at least one exchange); the facts point leaves the IMPORT_FACTS_MESSAGES newest user's messages.
 */
export function memoryPoints(entries: readonly ChatHistoryRow[]): {
  summaryUntilSeq: number;
  factsUntilSeq: number;
} {
  let chars = 0;
  let start = entries.length;
  while (start > 0 && entries.length - start < IMPORT_SUMMARY_EXCHANGES) {
    const entry = entries[start - 1]!;
    chars += userWords(entry).length + entry.reply_message.length;
    if (chars > IMPORT_SUMMARY_CHARS && start < entries.length) break;
    start -= 1;
  }
  let users = 0;
  let factsFrom = entries.length;
  while (factsFrom > 0 && users < IMPORT_FACTS_MESSAGES) {
    factsFrom -= 1;
    if (userWords(entries[factsFrom]!)) users += 1;
  }
  const before = (index: number) => (index > 0 ? entries[index - 1]!.seq : 0);
  return { summaryUntilSeq: before(start), factsUntilSeq: before(factsFrom) };
}
