import { randomUUID } from "node:crypto";
import { CONTINUE_MAX_PER_REPLY, FIRST_MESSAGE_MARKER, GROUP_MAX_MEMBERS } from "../../../common/constants";
import type { Character, ChatHistoryRow, ChatSession, User } from "../../db/schema";
import { AppError, badRequest, forbidden, notFound } from "../../http/errors";
import type { BackgroundQueue } from "../../jobs/queue";
import { type LlmProvider, LlmUnavailableError } from "../../providers/llm/llm";
import type { FileStorage } from "../../providers/storage/storage";
import type { CharactersRepo } from "../characters/characters.repo";
import { type MemoryService, SUMMARY_TRIGGER } from "../memory/memory.service";
import type { QuotaService, Reservation } from "../quota/quota.service";
import { assertAdultConfirmed, assertAllowedContent } from "../safety/content-rules";
import { type ChatRepo, newHistoryEntry } from "./chat.repo";
import { buildPrompt, cleanReply, fillPlaceholders, stopStrings } from "./prompt";
import { chooseSpeakers } from "./turn-order";

/** A chat as the client names it: one character, or a group of them. */
export interface ResolvedChat {
  /** The id the client uses: the character's or the group's. */
  chatKey: string;
  groupId: string;
  members: Character[];
}

export interface SendResult {
  success: boolean;
  /** The user-facing message (the reason when success is false). */
  message: string;
  /** The stored entry, present whenever the user's message was stored. */
  entry?: ChatHistoryRow;
  /** Time spent in the language model, milliseconds. */
  modelMs: number;
}

export interface ChatOptions {
  maxReplyTokens: number;
  temperature: number;
  /** Longest a reply may take before it is cut (partial kept), milliseconds. */
  timeoutMs: number;
}

/** The abort reason of the Stop button (others are timeouts or failures). */
const STOP_REASON = "stop";
const stopReason = (signal: AbortSignal) => (signal.reason === STOP_REASON ? "stop" : "other");

/**
 * Whether a message may tell something lasting about the user: it speaks of them in the first
 * person ("I", "my", "me", …). Others are not sent to the fact extractor, which saves a model call.
 */
export function mightHoldFacts(message: string): boolean {
  return (
    /\b(i|i'm|im|i've|i'd|my|me|mine|we|our)\b/i.test(message) && message.trim().split(/\s+/).length >= 3
  );
}

/** Talkativeness of every character until the card has its own (0..1). */
const DEFAULT_TALKATIVENESS = 0.5;

/** Exchanges read for the prompt; the token budget then keeps what fits. */
const PROMPT_HISTORY_LIMIT = 40;

/**
 * Chat sessions, history and replies (issue 2 subset of spec 7 "Chat"). Every id from the
 * client is checked against the signed-in user before anything is read or written.
 */
export class ChatService {
  constructor(
    private readonly repo: ChatRepo,
    /** Every model run reserves one message first (issue 13: continuations too). */
    private readonly quota: QuotaService,
    private readonly characters: CharactersRepo,
    private readonly llm: LlmProvider,
    private readonly options: ChatOptions,
    private readonly memory: MemoryService,
    private readonly jobs: BackgroundQueue,
    /** The content area: New Chat removes the chat's pictures and photos with its history. */
    private readonly storage: FileStorage,
    private readonly now: () => number = Date.now,
    private readonly random: () => number = Math.random,
  ) {}

  /** Generations running in this process, by entry id (for Stop). */
  private readonly running = new Map<string, AbortController>();

  /**
   * Resolves a chat id to the user's character or group. An empty id means the chat the user
   * had last, else their first character (spec 2: the chat id is empty if none was given).
   * @throws AppError 404 for an id that is not the user's; 404 "no_character" when the user has none.
   */
  async resolveChat(user: User, id: string): Promise<ResolvedChat> {
    const key = id || (await this.repo.latestChatKey(user.id)) || "";
    if (key) {
      const character = await this.characters.findOwned(user.id, key);
      if (character) return { chatKey: character.id, groupId: "", members: [character] };
      const group = await this.repo.findOwnedGroup(user.id, key);
      if (group) return { chatKey: group.id, groupId: group.id, members: group.members };
      if (id) throw notFound("Chat not found.");
    }
    const [first] = await this.characters.listByUser(user.id);
    if (!first) throw new AppError("no_character", "Choose a character first.");
    return { chatKey: first.id, groupId: "", members: [first] };
  }

  /**
   * One page of history, oldest first (spec 9: page size 10, offset from the newest). When the
   * chat has no history yet, each member with a greeting greets once first (spec 4), stored
   * with the ##first-message## marker.
   */
  async historyPage(user: User, id: string, offset: number, limit: number): Promise<ChatHistoryRow[]> {
    const chat = await this.resolveChat(user, id);
    const session = await this.repo.ensureSession(user.id, chat.chatKey, Boolean(chat.groupId), this.now());
    if (offset === 0 && !session.greeted) await this.greet(session, chat, user);
    return this.repo.page(session.id, offset, limit);
  }

  private async greet(session: ChatSession, chat: ResolvedChat, user: User): Promise<void> {
    const now = this.now();
    const greetings = chat.members
      .filter((member) => member.greeting.trim())
      .map((member) => ({
        ...newHistoryEntry(session.id, member.id, FIRST_MESSAGE_MARKER, now),
        reply_message: fillPlaceholders(member.greeting, member.name, displayName(user)),
        reply_time: now,
        status: "replied",
      }));
    await this.repo.storeGreetingsOnce(session.id, greetings);
  }

  /**
   * Stores the user's message, then asks the model for the character's reply and stores it
   * (spec 4 "Sending"). The message is kept even when the model fails.
   * @param input.message trimmed, 1 to 150 characters (validated by the route).
   * @param input.characterId the member who answers; defaults to the chat's first member.
   * @throws AppError 404 for a chat or character that is not the user's; 429 at the daily limit.
   */
  async sendMessage(
    user: User,
    input: {
      message: string;
      chatId: string;
      characterId: string;
      clientMessageId?: string;
      /** Called once the user's message is stored (streaming: tells the client the entry's id). */
      onStored?: (entry: ChatHistoryRow) => void;
      /** Called with each piece of the reply as it is generated (streaming). */
      onToken?: (text: string) => void;
    },
  ): Promise<SendResult> {
    const chat = await this.resolveChat(user, input.chatId);
    const character = input.characterId
      ? chat.members.find((m) => m.id === input.characterId)
      : chat.members[0];
    if (!character) throw notFound("This character is not in this chat.");
    const stored = await this.storeUserMessage(
      user,
      chat,
      character.id,
      input.message,
      input.clientMessageId,
    );
    if ("repeated" in stored) return stored.repeated;
    input.onStored?.(stored.entry);
    return this.answer(user, chat, stored.session, character, stored.entry, {
      onToken: input.onToken,
      charge: stored.reservation,
    });
  }

  /**
   * A group turn (spec 7 `chat/group/reply`): stores the user's message, chooses who answers by the
   * turn order (named characters first, then by talkativeness, never the last speaker twice in a
   * row unaddressed, at most 3), and lets each answer in turn, seeing the replies before theirs.
   * The first answer fills the user's entry; each further answer is an entry of its own.
   * @returns whoReplies (character ids in order) and the entries, in order.
   * @throws AppError 404 for a chat that is not one of the user's groups; 429 at the daily limit.
   */
  async groupReply(
    user: User,
    input: { message: string; chatId: string; clientMessageId?: string },
  ): Promise<{
    success: boolean;
    message: string;
    whoReplies: string[];
    entries: ChatHistoryRow[];
    modelMs: number;
  }> {
    const chat = await this.resolveChat(user, input.chatId);
    if (!chat.groupId) throw notFound("Group not found.");
    if (chat.members.length === 0) throw badRequest("This group has no members yet.");
    const lastSpeaker = await this.repo.lastReplyCharacterId(chat.chatKey, user.id);
    const whoReplies = chooseSpeakers(
      input.message,
      chat.members.map((m) => ({ id: m.id, name: m.name, talkativeness: DEFAULT_TALKATIVENESS })),
      lastSpeaker,
      this.random,
    );
    const stored = await this.storeUserMessage(
      user,
      chat,
      whoReplies[0]!,
      input.message,
      input.clientMessageId,
    );
    if ("repeated" in stored) {
      const r = stored.repeated;
      return {
        success: r.success,
        message: r.message,
        whoReplies: [],
        entries: r.entry ? [r.entry] : [],
        modelMs: 0,
      };
    }
    const entries: ChatHistoryRow[] = [];
    let modelMs = 0;
    for (const [turn, speakerId] of whoReplies.entries()) {
      const speaker = chat.members.find((m) => m.id === speakerId)!;
      const entry =
        turn === 0 ? stored.entry : newHistoryEntry(stored.session.id, speaker.id, "", this.now());
      if (turn > 0) await this.repo.insertEntry(entry);
      // The message is charged once: only the first answer gives it back when it fails.
      const result = await this.answer(user, chat, stored.session, speaker, entry, {
        charge: turn === 0 ? stored.reservation : undefined,
      });
      modelMs += result.modelMs;
      if (result.entry) entries.push(result.entry);
      if (!result.success) {
        return {
          success: turn > 0,
          message: result.message,
          whoReplies: whoReplies.slice(0, turn + 1),
          entries,
          modelMs,
        };
      }
    }
    return { success: true, message: "Replies.", whoReplies, entries, modelMs };
  }

  /**
   * Validates and stores the user's message as a pending entry, once per client message id,
   * after reserving one message of the daily quota (atomically).
   */
  private async storeUserMessage(
    user: User,
    chat: ResolvedChat,
    characterId: string,
    message: string,
    clientMessageId = "",
  ): Promise<
    { repeated: SendResult } | { session: ChatSession; entry: ChatHistoryRow; reservation: Reservation }
  > {
    assertAdultConfirmed(user);
    if (message === FIRST_MESSAGE_MARKER) throw badRequest("message: this text is reserved.");
    assertAllowedContent("Message", message);
    const now = this.now();
    const session = await this.repo.ensureSession(user.id, chat.chatKey, Boolean(chat.groupId), now);
    if (clientMessageId) {
      const earlier = await this.repo.findByClientMessageId(session.id, clientMessageId);
      if (earlier) return { repeated: this.repeated(earlier) };
    }
    const reservation = await this.quota.reserve(user, now);
    if (!session.greeted) await this.greet(session, chat, user);
    const entry = {
      ...newHistoryEntry(session.id, characterId, message, now),
      client_message_id: clientMessageId,
    };
    try {
      await this.repo.insertEntry(entry);
    } catch (error) {
      // The same client id sent twice at once: the unique index let one in; answer with it.
      const earlier = clientMessageId
        ? await this.repo.findByClientMessageId(session.id, clientMessageId)
        : undefined;
      if (!earlier) throw error;
      await this.quota.refund(user.id, reservation);
      return { repeated: this.repeated(earlier) };
    }
    await this.repo.touchSession(session.id, now);
    return { session, entry, reservation };
  }

  /**
   * Generates `character`'s reply to the conversation so far and stores it in `entry`.
   * - `stream.onToken` receives the text as it is generated (server-sent events);
   * - `stream.continueFrom` continues that reply instead of writing a new one (the new text is
   *   appended);
   * - a Stop (`stop(entryId)`) or the timeout ends generation: the partial reply is kept and the
   *   entry marked "stopped" or "partial"; nothing stays pending.
   * - `stream.charge` is the message reserved for this run: given back to the period it was
   *   charged to when the run produced nothing (a failure before any text; a continuation that
   *   added nothing, whose continuation is then not counted either).
   * On a failure before any text the entry is marked failed (a continued entry keeps its reply).
   */
  private async answer(
    user: User,
    chat: ResolvedChat,
    session: ChatSession,
    character: Character,
    entry: ChatHistoryRow,
    stream: { onToken?: (text: string) => void; continueFrom?: string; charge?: Reservation } = {},
  ): Promise<SendResult> {
    const userName = displayName(user);
    const others = chat.groupId ? chat.members.filter((m) => m.id !== character.id).map((m) => m.name) : [];
    const names = new Map(chat.members.map((m) => [m.id, m.name]));
    const history = await this.repo.recentTexts(session.id, PROMPT_HISTORY_LIMIT, session.summary_until_seq);
    const lastUserMessage = [...history]
      .reverse()
      .find((h) => h.message && h.message !== FIRST_MESSAGE_MARKER);
    const facts = await this.memory.relevantFacts(user.id, character.id, lastUserMessage?.message ?? "");
    const prompt = buildPrompt({
      character: {
        name: character.name,
        sex: character.sex,
        backstory: character.description,
        appearance: character.appearance,
        greeting: character.greeting,
        language: await this.repo.languageName(character.language_id),
      },
      userName,
      summary: session.summary,
      history: history.map((h) => ({
        userMessage: h.message,
        // A reply being continued is sent as the assistant's last, unfinished message.
        reply: h.reply_message,
        speaker: chat.groupId ? names.get(h.character_id) : undefined,
      })),
      contextWindow: this.llm.contextWindow(),
      replyTokens: this.options.maxReplyTokens,
      countTokens: (t) => this.llm.countTokens(t),
      otherMembers: others,
      facts,
      uncensored: Boolean(user.uncensored),
    });
    const controller = new AbortController();
    this.running.set(entry.id, controller);
    const timer = setTimeout(() => controller.abort(new Error("timeout")), this.options.timeoutMs);
    const started = performance.now();
    let streamed = "";
    const prefix = stream.continueFrom ?? "";
    /** Gives the run back: its message to the period charged, and a continuation's count. */
    const giveBack = async () => {
      if (stream.charge) await this.quota.refund(user.id, stream.charge);
      if (prefix) await this.repo.releaseContinuation(entry.id);
    };
    const cannotContinue = (modelMs: number): SendResult => ({
      success: false,
      message: `${character.name} could not continue right now.`,
      entry,
      modelMs,
    });
    const finish = async (text: string, status: string, modelMs: number): Promise<SendResult> => {
      const raw = prefix ? `${prefix}${text}` : text;
      const reply = cleanReply(raw, character.name, userName, others) || "…";
      const done = { ...entry, reply_message: reply, reply_time: this.now(), status };
      await this.repo.updateEntry(entry.id, { reply_message: reply, reply_time: done.reply_time, status });
      const message =
        status === "replied" ? "Reply." : status === "stopped" ? "Stopped." : "The reply was cut short.";
      return { success: true, message, entry: done, modelMs };
    };
    try {
      const result = await this.llm.generate({
        messages: prompt,
        maxTokens: this.options.maxReplyTokens,
        temperature: this.options.temperature,
        stop: stopStrings(userName, others),
        signal: controller.signal,
        onTextChunk: (chunk) => {
          streamed += chunk;
          stream.onToken?.(chunk);
        },
      });
      if (prefix && !result.text.trim()) {
        await giveBack();
        return cannotContinue(result.modelMs);
      }
      const status = !controller.signal.aborted
        ? "replied"
        : stopReason(controller.signal) === "stop"
          ? "stopped"
          : "partial";
      const done = await finish(result.text, status, result.modelMs);
      this.remember(user, chat, session, character, entry, history.length);
      return done;
    } catch (error) {
      const modelMs = performance.now() - started;
      if (streamed.trim()) {
        // Broken mid-stream (stop, timeout, a dropped connection): keep what was said.
        return finish(streamed, stopReason(controller.signal) === "stop" ? "stopped" : "partial", modelMs);
      }
      if (prefix) {
        await this.repo.updateEntry(entry.id, {
          status: entry.status === "pending" ? "failed" : entry.status,
        });
        await giveBack();
        return cannotContinue(modelMs);
      }
      const message =
        error instanceof LlmUnavailableError
          ? error.message
          : `${character.name} could not reply right now. Please try again.`;
      await this.repo.updateEntry(entry.id, { status: "failed", error: String(error).slice(0, 500) });
      // The user is not charged for a message no character could answer.
      await giveBack();
      return { success: false, message, entry: { ...entry, status: "failed" }, modelMs };
    } finally {
      clearTimeout(timer);
      this.running.delete(entry.id);
    }
  }

  /** Queues the background memory work after a reply: facts from the user's message, the summary. */
  private remember(
    user: User,
    chat: ResolvedChat,
    session: ChatSession,
    character: Character,
    entry: ChatHistoryRow,
    unsummarized: number,
  ) {
    const userName = displayName(user);
    if (entry.message !== FIRST_MESSAGE_MARKER && mightHoldFacts(entry.message)) {
      this.jobs.push(`facts:${entry.id}`, async () => {
        await this.memory.extractFacts({
          userId: user.id,
          characterId: character.id,
          userName,
          message: entry.message,
        });
      });
    }
    if (unsummarized <= SUMMARY_TRIGGER) return;
    this.jobs.push(`summary:${session.id}`, async () => {
      await this.memory.refreshSummary({
        sessionId: session.id,
        userName,
        names: new Map(chat.members.map((m) => [m.id, m.name])),
      });
    });
  }

  /**
   * Stops the generation of an entry's reply (the Stop button). The partial reply is kept.
   * @returns false when nothing is being generated for it in this process.
   * @throws AppError 404 when the entry is not the user's.
   */
  async stop(user: User, entryId: string): Promise<boolean> {
    const entry = await this.repo.findOwnedEntry(user.id, entryId);
    if (!entry) throw notFound("Message not found.");
    const controller = this.running.get(entryId);
    if (!controller) return false;
    controller.abort(STOP_REASON);
    return true;
  }

  /**
   * Continues the newest reply of a chat (spec 7 `chat/continue-message`; payload ours: `id`, the
   * entry's chatHistoryUUID). The continuation is appended to the same entry. Issue 13: every
   * model run is accounted, so a continuation counts as one message (given back when it adds
   * nothing), and one reply can be continued at most CONTINUE_MAX_PER_REPLY times.
   * @throws AppError 404 when not the user's; 400 when it is not the newest reply or was continued
   *   CONTINUE_MAX_PER_REPLY times; 429 "rate_limit:chat" at the quota's limit (the model is not run).
   */
  async continueReply(user: User, entryId: string, onToken?: (text: string) => void): Promise<SendResult> {
    const entry = await this.repo.findOwnedEntry(user.id, entryId);
    if (!entry) throw notFound("Message not found.");
    if (!entry.reply_message || this.running.has(entryId))
      throw badRequest("There is no finished reply to continue.");
    const session = await this.repo.sessionById(entry.session_id);
    const [newest] = await this.repo.page(entry.session_id, 0, 1);
    if (!session || newest?.id !== entry.id) throw badRequest("Only the newest reply can be continued.");
    const chat = await this.resolveChat(user, session.chat_key);
    const character = chat.members.find((m) => m.id === entry.character_id);
    if (!character) throw notFound("This character is no longer in this chat.");
    if (entry.continue_count >= CONTINUE_MAX_PER_REPLY) throw continuedEnough();
    const charge = await this.quota.reserve(user, this.now());
    if (!(await this.repo.claimContinuation(entry.id, CONTINUE_MAX_PER_REPLY))) {
      await this.quota.refund(user.id, charge);
      throw continuedEnough();
    }
    return this.answer(user, chat, session, character, entry, {
      onToken,
      continueFrom: entry.reply_message,
      charge,
    });
  }

  /**
   * New chat (spec 4: "after confirmation the current history is deleted"): deletes the chat's
   * history and summary; long-term facts stay (they are deleted one by one in Settings).
   * @returns the page to open. @throws AppError 404 for a chat that is not the user's.
   */
  async newChat(user: User, chatId: string): Promise<string> {
    const chat = await this.resolveChat(user, chatId);
    const session = await this.repo.ensureSession(user.id, chat.chatKey, Boolean(chat.groupId), this.now());
    await this.repo.clearSession(session.id);
    // spec 3: the chat's pictures and the user's photos live under {character or group id}/.
    await this.storage.removeFolder(chat.chatKey);
    return `/character-select/${chat.chatKey}`;
  }

  /**
   * Starts a group chat with one of the user's characters (spec 7 `chat/group/new`).
   * @returns the page to open: the group's chat. @throws AppError 404 for another user's character.
   */
  async newGroup(user: User, characterId: string): Promise<string> {
    if (!(await this.characters.findOwned(user.id, characterId))) throw notFound("Character not found.");
    const groupId = randomUUID();
    await this.repo.createGroup(user.id, groupId, characterId, this.now());
    return `/character-select/${groupId}`;
  }

  /**
   * Adds one of the user's characters to one of their groups (spec 6: at most 4 members, only
   * the user's own characters). @returns the page to open.
   * @throws AppError 404 for a group or character that is not the user's; 403 when full; 400 when already in.
   */
  async addGroupMember(user: User, groupId: string, characterId: string): Promise<string> {
    const group = await this.repo.findOwnedGroup(user.id, groupId);
    if (!group) throw notFound("Group not found.");
    if (!(await this.characters.findOwned(user.id, characterId))) throw notFound("Character not found.");
    const result = await this.repo.addMember(groupId, characterId, GROUP_MAX_MEMBERS);
    if (result === "full")
      throw forbidden(`A group chat holds at most ${GROUP_MAX_MEMBERS} members.`, "group_full");
    if (result === "already") throw badRequest("This character is already in the group.");
    return `/character-select/${groupId}`;
  }

  /** Removes a member from one of the user's groups. @throws AppError 404 when not the user's or not a member. */
  async removeGroupMember(user: User, groupId: string, characterId: string): Promise<string> {
    const group = await this.repo.findOwnedGroup(user.id, groupId);
    if (!group) throw notFound("Group not found.");
    if (!(await this.repo.removeMember(groupId, characterId)))
      throw notFound("This character is not in the group.");
    return `/character-select/${groupId}`;
  }

  /** spec 3 "Chat profile": the user and the chat's characters. */
  async profile(user: User, id: string) {
    const chat = await this.resolveChat(user, id);
    return { user, chat };
  }

  /** The answer to a send whose client id was seen before: the entry as it stands, no new work. */
  private repeated(entry: ChatHistoryRow): SendResult {
    if (entry.status === "replied") return { success: true, message: "Reply.", entry, modelMs: 0 };
    if (entry.status === "pending") {
      return { success: false, message: "This message is still being answered.", entry, modelMs: 0 };
    }
    return {
      success: false,
      message: "This message could not be answered. Please send it again.",
      entry,
      modelMs: 0,
    };
  }
}

/** 400 past the bound of continuations of one reply (issue 13). */
const continuedEnough = () => badRequest("This reply cannot be continued any more.", "continue_limit");

/** How characters address the user: the full name, else the user name. */
export function displayName(user: User): string {
  return user.full_name.trim() || user.user_name.trim() || "friend";
}
