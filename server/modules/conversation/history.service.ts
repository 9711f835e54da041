// The history of a chat: its entries (the user's words and the replies), their versions (swipes) and edits.
import { FIRST_MESSAGE_MARKER } from "../../../common/constants";
import type { Db } from "../../db/index";
import type { ChatHistoryRow, ChatSession, User } from "../../db/schema";
import type { CacheGroup } from "../../db/short-cache";
import { badRequest } from "../../errors";
import { type Message, msg } from "../../i18n/messages";
import { fillPlaceholders } from "../prompt/prompt";
import { assertAdultConfirmed, assertAllowedContent } from "../safety/content-rules";
import { alternateGreetings, type ChatsService, displayName, type ResolvedChat } from "./chats.service";
import {
  type EntryPatch,
  type HistoryRepo,
  type HistoryText,
  newHistoryEntry,
  type PhotoRow,
} from "./history.repo";
import { PromptWindows } from "./prompt-window";

/**
 * What a user's entry costs, decided by the caller (a message of the quota: the chat's send path,
 * a photo): taken with the entry, given back when the entry is not stored.
 */
export interface EntryCharge<C> {
  /**
   * Takes the charge at `now` (epoch ms); in the entry's transaction when given `db` (its error,
   * e.g. the limit, undoes the entry).
   */
  take(now: number, db?: Db): Promise<C>;
  /** Gives a charge taken outside the entry's transaction back when the entry was not stored. */
  giveBack(charge: C): Promise<void>;
}

/** What storing a user's entry gave: a new entry (with its charge), or the one sent earlier with the same client id. */
export type AppendResult<C> =
  | { repeated: ChatHistoryRow }
  | { session: ChatSession; entry: ChatHistoryRow; charge: C };

/**
 * The history (product.md §4, 7 "Chat", 9): the entries of a chat, the greeting, the user's
 * entries and their rules, the replies recorded on them, swipes, edits, deletes and rewinds.
 * Chat, pictures, voice and memory all reach a chat's history through this service, so the rules
 * of storing a user's entry (adult check, content rules, client-id idempotency) live in one place.
 */
export class HistoryService {
  /** The newest exchanges of each chat as its next prompt reads them (cached per process). */
  private readonly windows: PromptWindows;

  constructor(
    private readonly repo: HistoryRepo,
    /** Which chat an id names, and its session. */
    private readonly chats: ChatsService,
    private readonly now: () => number = Date.now,
    /** Where the per-process cache of the prompt windows joins (server/db/short-cache.ts); without it nothing is cached. */
    caches?: CacheGroup,
    /**
     * The lease id of this server process (InstanceLease.id): recorded as the owner of the
     * entries it stores, so another process settles them if this one stops. "" records none.
     */
    private readonly owner = "",
  ) {
    this.windows = new PromptWindows(repo, now, caches);
  }

  /** The newest `limit` exchanges of a chat after its summary, oldest first (the prompt's history). */
  promptHistory(session: ChatSession, limit: number): Promise<HistoryText[]> {
    return this.windows.read(session, limit);
  }

  /**
   * One page of history, oldest first (product.md §9: page size 10, offset from the newest). When the
   * chat has no history yet, each member with a greeting greets once first (product.md §4), stored
   * with the ##first-message## marker.
   * @throws as resolveChat.
   */
  async historyPage(user: User, id: string, offset: number, limit: number): Promise<ChatHistoryRow[]> {
    const chat = await this.chats.resolveChat(user, id);
    const session = await this.chats.session(user, chat);
    if (offset === 0 && !session.greeted) await this.greet(session, chat, user);
    return this.repo.page(session.id, offset, limit);
  }

  /** The newest entry of a session, if any. */
  async newestEntry(sessionId: string): Promise<ChatHistoryRow | undefined> {
    const [newest] = await this.repo.page(sessionId, 0, 1);
    return newest;
  }

  /** The newest entry of a session answered by `characterId`, if any. */
  newestEntryOf(sessionId: string, characterId: string): Promise<ChatHistoryRow | undefined> {
    return this.repo.newestOf(sessionId, characterId);
  }

  /**
   * GET /chat/history/photos: the chat's photos (product.md §3 "Photo history entry"), oldest first.
   * @throws as resolveChat.
   */
  async photoHistory(user: User, chatId: string): Promise<{ chat: ResolvedChat; rows: PhotoRow[] }> {
    const chat = await this.chats.resolveChat(user, chatId);
    const session = await this.chats.session(user, chat);
    return { chat, rows: await this.repo.photos(session.id) };
  }

  /** A history entry when it belongs to one of the user's chats, else undefined. */
  findOwnedEntry(user: User, entryId: string): Promise<ChatHistoryRow | undefined> {
    return this.repo.findOwnedEntry(user.id, entryId);
  }
  private async greet(session: ChatSession, chat: ResolvedChat, user: User): Promise<void> {
    const now = this.now();
    const swipes = new Map<string, string[]>();
    const greetings = chat.members
      .filter((member) => member.greeting.trim())
      .map((member) => {
        const fill = (text: string) => fillPlaceholders(text, member.name, displayName(user));
        const entry = {
          ...newHistoryEntry(session.id, member.id, FIRST_MESSAGE_MARKER, now),
          reply_message: fill(member.greeting),
          reply_time: now,
          status: "replied",
        };
        // A card's alternate greetings are swipes of the first message.
        const others = alternateGreetings(member.alternate_greetings);
        if (others.length > 0) swipes.set(entry.id, [entry.reply_message, ...others.map(fill)]);
        return entry;
      });
    await this.repo.storeGreetingsOnce(session.id, greetings, swipes);
    this.chats.forgetSession(session);
    this.windows.drop(session.id);
  }

  /**
   * Stores a user's entry in a chat, the one place of its rules: the adult check (product.md §5), the
   * reserved marker and the content rules of every plan, the caller's `charge` (a message of the
   * quota) taken atomically with the entry, the greeting first when the chat has none yet
   * (product.md §4), and at most one entry per client message id (a retry answers the earlier
   * entry, nothing is charged).
   * @param input.message the user's words, already trimmed and length-checked by the route.
   * @param input.contentLabel what the content rules call the text ("Message").
   * @param input.fields the entry's fields beyond the message (a photo's file, a loading picture).
   * @param input.store stores the new entry (default: insert it), e.g. with its picture job in one
   *   transaction; given the charge to record. On a failure the charge is given back.
   * @param charge what the entry costs (taken in the entry's transaction by the plain insert).
   * @throws AppError 403 before the adult confirmation; 400 for the marker or refused content;
   *   whatever `charge.take` throws (429 "quota_reached" at the quota's limit).
   */
  async appendUserEntry<C>(
    user: User,
    chat: ResolvedChat,
    input: {
      characterId: string;
      message: string;
      clientMessageId?: string;
      contentLabel?: Message;
      fields?: Partial<ChatHistoryRow>;
      store?: (entry: ChatHistoryRow, charge: C) => Promise<void>;
    },
    charge: EntryCharge<C>,
  ): Promise<AppendResult<C>> {
    const clientMessageId = input.clientMessageId ?? "";
    assertAdultConfirmed(user);
    if (input.message === FIRST_MESSAGE_MARKER) throw badRequest(msg("conversation.messageTextReserved"));
    assertAllowedContent(input.contentLabel ?? msg("conversation.term.message"), input.message);
    const now = this.now();
    const session = await this.chats.ensureSession(user.id, chat.chatKey, Boolean(chat.groupId), now);
    const touch = this.chats.touchDue(user.id, session, now);
    const store = input.store;
    if (!store) {
      // The plain message: charge, entry and the session's time in one
      // transaction; the limit or a repeated client id (the unique index refuses the entry)
      // undoes all of it, and then the earlier entry is the answer. No read before: a repeat is rare.
      if (!session.greeted) await this.greet(session, chat, user);
      const entry = this.userEntry(session, input, clientMessageId, now);
      try {
        const taken = await this.repo.insertEntryReserving(
          entry,
          (trx) => charge.take(now, trx),
          touch ? now : undefined,
        );
        // The cached session knows its new time, so the next message does not write it again.
        if (touch) session.updated_at = now;
        this.windows.append(entry);
        return { session, entry, charge: taken };
      } catch (error) {
        return { repeated: await this.earlierOrThrow(session.id, clientMessageId, error) };
      }
    }
    if (clientMessageId) {
      const earlier = await this.repo.findByClientMessageId(session.id, clientMessageId);
      if (earlier) return { repeated: earlier };
    }
    const taken = await charge.take(now);
    if (!session.greeted) await this.greet(session, chat, user);
    const entry = this.userEntry(session, input, clientMessageId, now);
    try {
      await store(entry, taken);
    } catch (error) {
      await charge.giveBack(taken);
      return { repeated: await this.earlierOrThrow(session.id, clientMessageId, error) };
    }
    this.windows.append(entry);
    if (touch) await this.chats.recordUse(session, now);
    return { session, entry, charge: taken };
  }

  /** A new user entry of `session`, not stored yet. */
  private userEntry(
    session: ChatSession,
    input: { characterId: string; message: string; fields?: Partial<ChatHistoryRow> },
    clientMessageId: string,
    now: number,
  ): ChatHistoryRow {
    return {
      ...newHistoryEntry(session.id, input.characterId, input.message, now, this.owner),
      ...input.fields,
      client_message_id: clientMessageId,
    };
  }

  /**
   * After a failed insert: the entry stored with the same client id (sent twice at once, the
   * unique index let one in), else `error` is rethrown.
   */
  private async earlierOrThrow(sessionId: string, clientMessageId: string, error: unknown) {
    const earlier = clientMessageId
      ? await this.repo.findByClientMessageId(sessionId, clientMessageId)
      : undefined;
    if (!earlier) throw error;
    return earlier;
  }

  /** Stores a further answer's entry of a group turn (no user words, pending its reply). */
  async appendReplyEntry(session: ChatSession, characterId: string): Promise<ChatHistoryRow> {
    const entry = newHistoryEntry(session.id, characterId, "", this.now(), this.owner);
    await this.repo.insertEntry(entry);
    this.windows.append(entry);
    return entry;
  }

  /** Records a reply, its speech or its failure on an entry. */
  async updateEntry(entryId: string, patch: EntryPatch): Promise<void> {
    await this.repo.updateEntry(entryId, patch);
    this.windows.patch(entryId, patch);
  }

  /**
   * Swipes: the swipes of the given entries, by entry id (one query for a page of
   * history; entries with fewer than two are left out).
   */
  async swipesOf(rows: ReadonlyArray<Pick<ChatHistoryRow, "id">>): Promise<Map<string, string[]>> {
    const all = await this.repo.versions.swipes(rows.map((r) => r.id));
    const texts = new Map<string, string[]>();
    for (const [id, list] of all)
      if (list.length >= 2)
        texts.set(
          id,
          list.map((a) => a.reply_message),
        );
    return texts;
  }

  /**
   * Stores a regenerated reply of `entry` as its next swipe and chooses it (the
   * first time, the reply it had becomes swipe 0). @returns its index; "full" when the
   * entry has `max` swipes already; "gone" when it was deleted meanwhile.
   */
  async addSwipe(
    entry: ChatHistoryRow,
    reply: { reply_message: string; reply_time: number; status: string },
    max: number,
  ): Promise<number | "full" | "gone"> {
    const index = await this.repo.versions.addSwipe(entry.id, reply, max);
    this.windows.drop(entry.session_id);
    return index;
  }

  /**
   * Chooses an entry's swipe `index`; its reply and audio become the entry's.
   * @returns the entry as it is now, undefined when it has no swipe `index`.
   */
  async chooseSwipe(entry: ChatHistoryRow, index: number): Promise<ChatHistoryRow | undefined> {
    const chosen = await this.repo.versions.chooseSwipe(entry.id, index);
    if (!chosen) return undefined;
    this.windows.drop(entry.session_id);
    return { ...entry, ...chosen, swipe_index: index, continue_count: 0 };
  }

  /** A continued reply is written into the entry's chosen swipe too, when it has some. */
  continueChosenSwipe(entry: ChatHistoryRow, reply: string): Promise<void> {
    return this.repo.versions.continueChosenSwipe(entry.id, entry.swipe_index, reply);
  }

  /** Records the audio of an entry's chosen swipe (audio per swipe). */
  setSwipeAudio(entryId: string, index: number, audioUrl: string): Promise<void> {
    return this.repo.versions.setSwipeAudio(entryId, index, audioUrl);
  }

  /**
   * Edit: replaces the user's message or the reply's text (the chosen swipe's
   * too; the reply's audio is dropped). @returns the entry as it is now.
   */
  async editEntry(
    entry: ChatHistoryRow,
    edit: { message: string } | { reply_message: string },
  ): Promise<ChatHistoryRow> {
    await this.repo.versions.editEntry(entry, edit);
    this.windows.drop(entry.session_id);
    return "message" in edit ? { ...entry, ...edit } : { ...entry, ...edit, reply_audio_url: "" };
  }

  /** Rewind: the entries of a session after `afterSeq`, oldest first. */
  entriesAfter(sessionId: string, afterSeq: number): Promise<ChatHistoryRow[]> {
    return this.repo.entriesAfter(sessionId, afterSeq);
  }

  /** Delete , "Rewind": removes entries of a session (with their swipes). */
  async removeEntries(sessionId: string, entryIds: string[]): Promise<void> {
    await this.repo.deleteEntries(sessionId, entryIds);
    this.windows.drop(sessionId);
  }

  /**
   * Replaces a session's history with imported entries (and their swipes) in one transaction, as
   * New Chat clears it (summary emptied, caches of the session and its prompt window dropped); the
   * greeting is not stored again. The caller has checked the chat is the user's.
   * @param points where memory's summary and extraction of facts start (order keys, µs).
   */
  async replaceHistory(
    session: ChatSession,
    imported: { entries: ChatHistoryRow[]; swipes: ReadonlyMap<string, string[]> },
    points: { summaryUntilSeq: number; factsUntilSeq: number },
  ): Promise<void> {
    await this.repo.replaceSession(session.id, imported.entries, imported.swipes, points);
    this.chats.forgetSession(session);
    this.windows.drop(session.id);
  }

  /**
   * New chat (product.md §4): deletes the chat's history and summary; the greeting comes again on the
   * next load. @returns the chat. @throws as resolveChat.
   */
  async clear(user: User, chatId: string): Promise<ResolvedChat> {
    const chat = await this.chats.resolveChat(user, chatId);
    const session = await this.chats.session(user, chat);
    await this.repo.clearSession(session.id);
    this.chats.forgetSession(session);
    this.windows.drop(session.id);
    return chat;
  }
}
