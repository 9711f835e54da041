import { CONTINUE_MAX_PER_REPLY } from "../../../common/constants";
import type { Character, ChatHistoryRow, ChatSession, User } from "../../db/schema";
import { badRequest, notFound } from "../../errors";
import * as metrics from "../../http/metrics";
import { type LlmProvider, LlmUnavailableError } from "../../providers/llm/llm";
import type { FileStorage } from "../../providers/storage/storage";
import {
  type AppendResult,
  type ConversationService,
  displayName,
  type ResolvedChat,
} from "../conversation/conversation.service";
import { cleanReply } from "../conversation/prompt";
import type { QuotaService, Reservation } from "../quota/quota.service";
import type { ReplyOutcome } from "./chat.presenter";
import type { ChatRepo } from "./chat.repo";
import { chooseSpeakers } from "./turn-order";

export interface SendResult extends ReplyOutcome {
  /** Time spent in the language model, milliseconds. */
  modelMs: number;
}

export interface ChatOptions {
  maxReplyTokens: number;
  temperature: number;
  /** Longest a reply may take before it is cut (partial kept), milliseconds. */
  timeoutMs: number;
}

/**
 * What the chat engine needs of memory (issue 5), a port the composition root fills with the
 * memory module's service.
 */
export interface ReplyMemory {
  /** The facts the character remembers that matter for the user's last words. */
  relevantFacts(userId: string, characterId: string, message: string): Promise<string[]>;
  /** Queues the background work after a reply: facts from the user's words, the summary. */
  afterReply(input: {
    userId: string;
    userName: string;
    characterId: string;
    entry: Pick<ChatHistoryRow, "id" | "message">;
    sessionId: string;
    names: Map<string, string>;
    /** Exchanges after the summary read for this reply's prompt. */
    exchanges: number;
  }): void;
}

/** The abort reason of the Stop button (others are timeouts or failures). */
const STOP_REASON = "stop";
const stopReason = (signal: AbortSignal) => (signal.reason === STOP_REASON ? "stop" : "other");

/** Talkativeness of every character until the card has its own (0..1). */
const DEFAULT_TALKATIVENESS = 0.5;

/** Exchanges read for the prompt; the token budget then keeps what fits. */
const PROMPT_HISTORY_LIMIT = 40;

/** A group turn's outcome (spec 7 `chat/group/reply`). */
export interface GroupResult {
  success: boolean;
  message: string;
  /** Character ids in the order they answered. */
  whoReplies: string[];
  entries: ChatHistoryRow[];
  modelMs: number;
}

/**
 * Characters' replies (spec 4 "Sending", 7 "Chat"): a message, a group turn, a continuation, Stop
 * and New Chat. The user's entry is stored by the conversation module (its rules live there);
 * this service runs the model and stores what it wrote. Every id from the client is checked
 * against the signed-in user before anything is read or written.
 */
export class ChatService {
  constructor(
    private readonly repo: ChatRepo,
    private readonly conversation: ConversationService,
    /** Every model run reserves one message first (issue 13: continuations too). */
    private readonly quota: QuotaService,
    private readonly llm: LlmProvider,
    private readonly options: ChatOptions,
    private readonly memory: ReplyMemory,
    /** The content area: New Chat removes the chat's pictures and photos with its history. */
    private readonly storage: FileStorage,
    private readonly now: () => number = Date.now,
    private readonly random: () => number = Math.random,
  ) {}

  /** Generations running in this process, by entry id (for Stop). */
  private readonly running = new Map<string, AbortController>();

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
    const chat = await this.conversation.resolveChat(user, input.chatId);
    const character = input.characterId
      ? chat.members.find((m) => m.id === input.characterId)
      : chat.members[0];
    if (!character) throw notFound("This character is not in this chat.");
    const stored = await this.append(user, chat, character.id, input.message, input.clientMessageId);
    if ("repeated" in stored) return repeated(stored.repeated);
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
   * @throws AppError 404 for a chat that is not one of the user's groups; 429 at the daily limit.
   */
  async groupReply(
    user: User,
    input: { message: string; chatId: string; clientMessageId?: string },
  ): Promise<GroupResult> {
    const chat = await this.conversation.resolveChat(user, input.chatId);
    if (!chat.groupId) throw notFound("Group not found.");
    if (chat.members.length === 0) throw badRequest("This group has no members yet.");
    const lastSpeaker = await this.repo.lastReplyCharacterId(chat.chatKey, user.id);
    const whoReplies = chooseSpeakers(
      input.message,
      chat.members.map((m) => ({ id: m.id, name: m.name, talkativeness: DEFAULT_TALKATIVENESS })),
      lastSpeaker,
      this.random,
    );
    const stored = await this.append(user, chat, whoReplies[0]!, input.message, input.clientMessageId);
    if ("repeated" in stored) {
      const r = repeated(stored.repeated);
      return {
        success: r.success,
        message: r.message,
        whoReplies: [],
        entries: [stored.repeated],
        modelMs: 0,
      };
    }
    const entries: ChatHistoryRow[] = [];
    let modelMs = 0;
    for (const [turn, speakerId] of whoReplies.entries()) {
      const speaker = chat.members.find((m) => m.id === speakerId)!;
      const entry =
        turn === 0 ? stored.entry : await this.conversation.appendReplyEntry(stored.session, speaker.id);
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

  private append(
    user: User,
    chat: ResolvedChat,
    characterId: string,
    message: string,
    clientMessageId?: string,
  ): Promise<AppendResult> {
    return this.conversation.appendUserEntry(user, chat, { characterId, message, clientMessageId });
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
    const prompt = await this.conversation.replyPrompt({
      user,
      chat,
      session,
      character,
      historyLimit: PROMPT_HISTORY_LIMIT,
      model: this.llm,
      replyTokens: this.options.maxReplyTokens,
      facts: (words) => this.memory.relevantFacts(user.id, character.id, words),
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
    const cannotContinue = (modelMs: number): SendResult => {
      metrics.replyFinished("cannot_continue");
      return { success: false, message: `${character.name} could not continue right now.`, entry, modelMs };
    };
    const finish = async (text: string, status: string, modelMs: number): Promise<SendResult> => {
      const raw = prefix ? `${prefix}${text}` : text;
      const reply = cleanReply(raw, character.name, userName, prompt.others) || "…";
      const done = { ...entry, reply_message: reply, reply_time: this.now(), status };
      await this.conversation.updateEntry(entry.id, {
        reply_message: reply,
        reply_time: done.reply_time,
        status,
      });
      const message =
        status === "replied" ? "Reply." : status === "stopped" ? "Stopped." : "The reply was cut short.";
      metrics.replyFinished(status);
      return { success: true, message, entry: done, modelMs };
    };
    try {
      const result = await this.llm.generate({
        messages: prompt.messages,
        maxTokens: this.options.maxReplyTokens,
        temperature: this.options.temperature,
        stop: prompt.stop,
        signal: controller.signal,
        onTextChunk: (chunk) => {
          if (!streamed) metrics.firstToken(performance.now() - started);
          streamed += chunk;
          stream.onToken?.(chunk);
        },
      });
      if (prefix && !result.text.trim()) {
        await giveBack();
        return cannotContinue(result.modelMs);
      }
      // A timeout that ends the reply (kept as partial) is a model failure too.
      if (controller.signal.aborted && stopReason(controller.signal) !== "stop") {
        metrics.modelError(controller.signal.reason);
      }
      const status = !controller.signal.aborted
        ? "replied"
        : stopReason(controller.signal) === "stop"
          ? "stopped"
          : "partial";
      const done = await finish(result.text, status, result.modelMs);
      this.memory.afterReply({
        userId: user.id,
        userName,
        characterId: character.id,
        entry,
        sessionId: session.id,
        names: new Map(chat.members.map((m) => [m.id, m.name])),
        exchanges: prompt.exchanges,
      });
      return done;
    } catch (error) {
      if (stopReason(controller.signal) !== "stop") {
        metrics.modelError(controller.signal.aborted ? controller.signal.reason : error);
      }
      const modelMs = performance.now() - started;
      if (streamed.trim()) {
        // Broken mid-stream (stop, timeout, a dropped connection): keep what was said.
        return finish(streamed, stopReason(controller.signal) === "stop" ? "stopped" : "partial", modelMs);
      }
      if (prefix) {
        await this.conversation.updateEntry(entry.id, {
          status: entry.status === "pending" ? "failed" : entry.status,
        });
        await giveBack();
        return cannotContinue(modelMs);
      }
      const message =
        error instanceof LlmUnavailableError
          ? error.message
          : `${character.name} could not reply right now. Please try again.`;
      await this.conversation.updateEntry(entry.id, { status: "failed", error: String(error).slice(0, 500) });
      // The user is not charged for a message no character could answer.
      await giveBack();
      metrics.replyFinished("failed");
      return { success: false, message, entry: { ...entry, status: "failed" }, modelMs };
    } finally {
      clearTimeout(timer);
      this.running.delete(entry.id);
    }
  }

  /**
   * Stops the generation of an entry's reply (the Stop button). The partial reply is kept.
   * @returns false when nothing is being generated for it in this process.
   * @throws AppError 404 when the entry is not the user's.
   */
  async stop(user: User, entryId: string): Promise<boolean> {
    const entry = await this.conversation.findOwnedEntry(user, entryId);
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
    const entry = await this.conversation.findOwnedEntry(user, entryId);
    if (!entry) throw notFound("Message not found.");
    if (!entry.reply_message || this.running.has(entryId))
      throw badRequest("There is no finished reply to continue.");
    const session = await this.conversation.sessionById(entry.session_id);
    const newest = await this.conversation.newestEntry(entry.session_id);
    if (!session || newest?.id !== entry.id) throw badRequest("Only the newest reply can be continued.");
    const chat = await this.conversation.resolveChat(user, session.chat_key);
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
    const chat = await this.conversation.clear(user, chatId);
    // spec 3: the chat's pictures and the user's photos live under {character or group id}/.
    await this.storage.removeFolder(chat.chatKey);
    return `/character-select/${chat.chatKey}`;
  }
}

/** The answer to a send whose client id was seen before: the entry as it stands, no new work. */
function repeated(entry: ChatHistoryRow): SendResult {
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

/** 400 past the bound of continuations of one reply (issue 13). */
const continuedEnough = () => badRequest("This reply cannot be continued any more.", "continue_limit");
