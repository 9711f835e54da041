import { REPLY_ALTERNATIVES_MAX } from "../../../common/constants";
import type { Character, ChatHistoryRow, ChatSession, User } from "../../db/schema";
import * as metrics from "../../observability/metrics";
import { type LlmProvider, LlmUnavailableError, routedModel } from "../../providers/llm/llm";
import { displayName, type ResolvedChat } from "../conversation/chats.service";
import type { Conversation } from "../conversation/conversation";
import { replyPrompt } from "../conversation/reply-prompt";
import { cleanReply, type RememberedFacts, type SenderContext } from "../prompt/prompt";
import { encodeReservation, type QuotaService, type Reservation } from "../quota/quota.service";
import type { ReplyOutcome } from "./chat.presenter";
import type { ChatRepo } from "./chat.repo";
import type { Hold, LiveReplies } from "./live-replies";

/** A reply run's outcome and the time spent in the model. */
export interface SendResult extends ReplyOutcome {
  /** Time spent in the language model, milliseconds. */
  modelMs: number;
}

/** The model settings of a reply. */
export interface ChatOptions {
  maxReplyTokens: number;
  temperature: number;
  /** Longest a reply may take before it is cut (partial kept), milliseconds. */
  timeoutMs: number;
}

/**
 * What the chat engine needs of memory, a port the composition root fills with the
 * memory module's service.
 */
export interface ReplyMemory {
  /**
   * What the character remembers for a reply's prompt: the facts settled at the chat's summary
   * point (stable) and the recent or relevant ones for the user's last words (the turn's note).
   */
  promptFacts(
    userId: string,
    characterId: string,
    message: string,
    session: Pick<ChatSession, "id" | "summary_until_seq" | "created_at">,
  ): Promise<RememberedFacts>;
  /**
   * Queues the background work after a reply: facts from the user's words (in batches, issue
   * 19), the summary.
   */
  afterReply(input: {
    userId: string;
    userName: string;
    sessionId: string;
    /** Exchanges after the summary read for this reply's prompt. */
    exchanges: number;
    /** Those exchanges' order keys and user's words, oldest first. */
    window: ReadonlyArray<{ seq: number; message: string }>;
    /** How many of the newest of them the prompt carried. */
    kept: number;
    /** The prompt left older exchanges out (the token budget or the history limit). */
    full: boolean;
    /** The session's facts were extracted up to this order key. */
    factsUntilSeq: number;
  }): void;
  /**
   * Before a chat's history is deleted (New Chat): the facts of its messages not extracted yet
   * are extracted in the background. Never throws.
   */
  beforeClear(input: { userId: string; userName: string; sessionId: string }): Promise<void>;
}

/** 400 sentence past REPLY_ALTERNATIVES_MAX. */
export const tooManyAlternatives = () =>
  `This reply has ${REPLY_ALTERNATIVES_MAX} versions already: choose one of them.`;

/** The abort reason of the Stop button (others are timeouts or failures). */
const STOP_REASON = "stop";
const stopReason = (signal: AbortSignal) => (signal.reason === STOP_REASON ? "stop" : "other");

/** Exchanges read for the prompt; the token budget then keeps what fits. */
const PROMPT_HISTORY_LIMIT = 40;

/**
 * One character's reply to a conversation, generated and stored (product.md §4 "Sending"): the model
 * run of ChatService's sends, group turns and continuations, with its Stop, timeout, partial
 * replies and quota give-back in one place.
 */
export class ReplyGenerator {
  constructor(
    private readonly deps: {
      repo: ChatRepo;
      conversation: Conversation;
      quota: QuotaService;
      llm: LlmProvider;
      options: ChatOptions;
      memory: ReplyMemory;
      live: LiveReplies;
      now: () => number;
    },
  ) {}

  /**
   * Takes what a further run on a stored entry needs (a continuation, a regeneration): the entry's lease in the live-reply registry, then one message of the quota, then
   * `check` (a bound the caller counts atomically). Whatever fails undoes what was taken before it.
   * @returns the lease and the reservation, to pass to `run` (`hold`, `charge`).
   * @throws `busy()` when the entry is being generated on any instance; AppError 429
   *   "rate_limit:chat" at the quota's limit; what `check` throws.
   */
  async claim(
    user: User,
    entryId: string,
    busy: () => Error,
    check?: () => Promise<void>,
  ): Promise<{ hold: Hold; charge: Reservation }> {
    const hold = await this.deps.live.claim(entryId, { userId: user.id, charge: "" });
    if (!hold) throw busy();
    let charge: Reservation | undefined;
    try {
      charge = await this.deps.quota.chargeMessage(user, this.deps.now());
      await check?.();
      return { hold, charge };
    } catch (error) {
      if (charge) await this.deps.quota.refundMessage(user.id, charge);
      hold.release();
      throw error;
    }
  }

  /**
   * Generates `character`'s reply to the conversation so far and stores it in `entry`.
   * - the generation holds the entry's lease in the live-reply registry while it runs
   *   (`stream.hold` when the caller took it already), so Stop reaches it from any instance;
   * - `stream.onStart` runs first (opens the live reply of a streamed request);
   * - `stream.onToken` receives the text as it is generated (server-sent events);
   * - `stream.continueFrom` continues that reply instead of writing a new one (the new text is
   *   appended);
   * - a Stop (`stop(entryId)`) or the timeout ends generation: the partial reply is kept and the
   *   entry marked "stopped" or "partial"; nothing stays pending.
   * - `stream.sender` is what the user said of themself with this message (name, words, local
   *   time; product.md §7 pname, ptext, time): this reply's prompt only;
   * - `stream.regenerate` writes a new reply to the entry's message: the prompt leaves
   *   out its reply and every later entry; the new reply is stored as a further alternative and
   *   chosen (at most `regenerate.max`); when nothing comes the entry keeps its reply as it was;
   * - `stream.charge` is the message reserved for this run: given back to the period it was
   *   charged to when the run produced nothing (a failure before any text; a continuation that
   *   added nothing, whose continuation is then not counted either).
   * On a failure before any text the entry is marked failed (a continued entry keeps its reply).
   */
  async run(
    user: User,
    chat: ResolvedChat,
    session: ChatSession,
    character: Character,
    entry: ChatHistoryRow,
    stream: {
      onStart?: (entry: ChatHistoryRow) => void | Promise<void>;
      onToken?: (text: string) => void;
      continueFrom?: string;
      charge?: Reservation;
      hold?: Hold;
      sender?: SenderContext;
      regenerate?: { max: number };
    } = {},
  ): Promise<SendResult> {
    const userName = stream.sender?.name || displayName(user);
    const controller = new AbortController();
    let hold = stream.hold;
    let timer: NodeJS.Timeout | undefined;
    let started = performance.now();
    let streamed = "";
    let others: string[] = [];
    const prefix = stream.continueFrom ?? "";
    /** Gives the run back: its message to the period charged, and a continuation's count. */
    const giveBack = async () => {
      if (stream.charge) await this.deps.quota.refundMessage(user.id, stream.charge);
      if (prefix) await this.deps.repo.releaseContinuation(entry.id);
    };
    const regenerate = stream.regenerate;
    /** A run on a stored reply (continued or regenerated) that gave nothing: the reply stays. */
    const keepsReply = Boolean(prefix || regenerate);
    const cannotContinue = (modelMs: number): SendResult => {
      metrics.replyFinished("cannot_continue");
      const message = regenerate
        ? `${character.name} could not reply right now. Please try again.`
        : `${character.name} could not continue right now.`;
      return { success: false, message, entry, modelMs };
    };
    const finish = async (text: string, status: string, modelMs: number): Promise<SendResult> => {
      const raw = prefix ? `${prefix}${text}` : text;
      const reply = cleanReply(raw, character.name, userName, others) || "…";
      const done = { ...entry, reply_message: reply, reply_time: this.deps.now(), status };
      const written = { reply_message: reply, reply_time: done.reply_time, status };
      if (regenerate) {
        const index = await this.deps.conversation.history.addAlternative(entry, written, regenerate.max);
        if (typeof index !== "number") {
          await giveBack();
          metrics.replyFinished("cannot_continue");
          const message = index === "full" ? tooManyAlternatives() : "This message was deleted.";
          return { success: false, message, entry, modelMs };
        }
        Object.assign(done, { reply_audio_url: "", alternative_index: index, continue_count: 0 });
      } else {
        await this.deps.conversation.history.updateEntry(entry.id, written);
        if (prefix) await this.deps.conversation.history.continueChosenAlternative(entry, reply);
      }
      const message =
        status === "replied" ? "Reply." : status === "stopped" ? "Stopped." : "The reply was cut short.";
      metrics.replyFinished(status);
      return { success: true, message, entry: done, modelMs };
    };
    try {
      const charge = stream.charge ? encodeReservation(stream.charge) : "";
      hold ??= await this.deps.live.claim(entry.id, { userId: user.id, charge });
      if (!hold) throw new Error("This reply is already being generated.");
      hold.onStop(() => controller.abort(STOP_REASON));
      await stream.onStart?.(entry);
      // The connection assigned to the preset character, else to the user's plan, else the default (product.md §9).
      const model = routedModel(this.deps.llm, {
        characterId: character.preset_id ?? undefined,
        planId: user.plan_id,
      });
      const replyTokens = model.replyTokens ?? this.deps.options.maxReplyTokens;
      const prompt = await replyPrompt(this.deps.conversation, {
        user,
        chat,
        session,
        character,
        historyLimit: PROMPT_HISTORY_LIMIT,
        model,
        replyTokens,
        facts: (words, chatSession) =>
          this.deps.memory.promptFacts(user.id, character.id, words, chatSession),
        sender: stream.sender,
        regenerating: regenerate ? entry : undefined,
      });
      others = prompt.others;
      timer = setTimeout(() => controller.abort(new Error("timeout")), this.deps.options.timeoutMs);
      started = performance.now();
      const result = await model.generate({
        messages: prompt.messages,
        cacheKey: prompt.cacheKey,
        maxTokens: replyTokens,
        temperature: this.deps.options.temperature,
        stop: prompt.stop,
        signal: controller.signal,
        onTextChunk: (chunk) => {
          if (!streamed) metrics.firstToken(performance.now() - started);
          streamed += chunk;
          stream.onToken?.(chunk);
        },
      });
      if (result.promptTokens) {
        metrics.replyPromptTokens(result.promptTokens.total, result.promptTokens.evaluated);
      }
      if (keepsReply && !result.text.trim()) {
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
      this.deps.memory.afterReply({
        userId: user.id,
        userName,
        sessionId: session.id,
        exchanges: prompt.exchanges,
        window: prompt.window,
        kept: prompt.keptAfterNextDrop,
        full: prompt.kept < prompt.exchanges || prompt.exchanges >= PROMPT_HISTORY_LIMIT,
        factsUntilSeq: session.facts_until_seq,
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
      if (keepsReply) {
        await this.deps.conversation.history.updateEntry(entry.id, {
          status: entry.status === "pending" ? "failed" : entry.status,
        });
        await giveBack();
        return cannotContinue(modelMs);
      }
      const message =
        error instanceof LlmUnavailableError
          ? error.message
          : `${character.name} could not reply right now. Please try again.`;
      const failed = { status: "failed" as const, error: String(error).slice(0, 500) };
      // The user is not charged for a message no character could answer: given back once, by
      // this run or by the settlement of stalled replies when it took this run for dead.
      if (await this.deps.repo.settlePending(entry.id, failed)) await giveBack();
      metrics.replyFinished("failed");
      return { success: false, message, entry: { ...entry, status: "failed" }, modelMs };
    } finally {
      clearTimeout(timer);
      // After the entry is stored: a settlement never sees it pending without its lease.
      hold?.release();
    }
  }
}
