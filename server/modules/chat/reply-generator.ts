// One character's reply generated and stored (product.md §4 "Sending"): the model run with Stop, timeout, partial replies, give-back.
import { REPLY_SWIPES_MAX } from "../../../common/constants";
import { storedTemperature } from "../../../common/generation";
import type { PromptInspection } from "../../../common/prompt-inspection";
import type { Character, ChatHistoryRow, ChatSession, User } from "../../db/schema";
import { msg } from "../../i18n/messages";
import * as metrics from "../../observability/metrics";
import { type LlmProvider, LlmUnavailableError, routedModel } from "../../providers/llm/llm";
import { displayName, type ResolvedChat } from "../conversation/chats.service";
import type { Conversation } from "../conversation/conversation";
import { type RecallQuery, replyPrompt } from "../conversation/reply-prompt";
import {
  type AfterReplyInput,
  cleanReply,
  type RecallFound,
  type RememberedFacts,
  type SenderContext,
} from "../prompt/prompt";
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
  afterReply(input: AfterReplyInput): void;
  /** Recall: the chat's earlier messages that match the user's newest words, for the reply's prompt. */
  recall?(query: RecallQuery): Promise<RecallFound>;
  /**
   * Before a chat's history is deleted (New Chat): the facts of its messages not extracted yet
   * are extracted in the background. Never throws.
   */
  beforeClear(input: { userId: string; userName: string; sessionId: string }): Promise<void>;
}

/** 400 sentence past REPLY_SWIPES_MAX. */
export const tooManySwipes = () => msg("chat.tooManySwipes", { n: REPLY_SWIPES_MAX });

/** The abort reason of the Stop button (others are timeouts or failures). */
const STOP_REASON = "stop";
const stopReason = (signal: AbortSignal) => (signal.reason === STOP_REASON ? "stop" : "other");

/** Exchanges read for the prompt; the token budget then keeps what fits. */
const PROMPT_HISTORY_LIMIT = 40;

/** How one run is streamed, charged and held (ReplyGenerator.run has what each does). */
export interface RunStream {
  onStart?: (entry: ChatHistoryRow) => void | Promise<void>;
  onToken?: (text: string) => void;
  continueFrom?: string;
  charge?: Reservation;
  hold?: Hold;
  sender?: SenderContext;
  regenerate?: { max: number };
}

/** One run's state, shared by its steps. */
interface RunState {
  user: User;
  character: Character;
  entry: ChatHistoryRow;
  stream: RunStream;
  /** The name the reply calls the user by (`pname`, else the profile's). */
  userName: string;
  /** The reply being continued ("" for a new reply): the new text is appended to it. */
  prefix: string;
  /** Aborted by Stop (STOP_REASON), the timeout or a failure. */
  controller: AbortController;
  timer?: NodeJS.Timeout;
  /** When the model run started (performance.now(), milliseconds). */
  started: number;
  /** The text received so far. */
  streamed: string;
  /** The other members' names in a group (their lines are cut from the reply). */
  others: string[];
  /** What the run's prompt is made of, stored with the reply (the prompt inspector). */
  inspection?: PromptInspection;
}

/** A run's prompt and the model that answers it. */
type RunPrompt = Awaited<ReturnType<typeof replyPrompt>> & {
  model: ReturnType<typeof routedModel>;
  replyTokens: number;
};

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
   *   "quota_reached" at the quota's limit; what `check` throws.
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
   *   out its reply and every later entry; the new reply is stored as a further swipe and
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
    stream: RunStream = {},
  ): Promise<SendResult> {
    const state: RunState = {
      user,
      character,
      entry,
      stream,
      userName: stream.sender?.name || displayName(user),
      prefix: stream.continueFrom ?? "",
      controller: new AbortController(),
      started: performance.now(),
      streamed: "",
      others: [],
    };
    const { controller } = state;
    let hold = stream.hold;
    try {
      const charge = stream.charge ? encodeReservation(stream.charge) : "";
      hold ??= await this.deps.live.claim(entry.id, { userId: user.id, charge });
      if (!hold) throw new Error("This reply is already being generated.");
      hold.onStop(() => controller.abort(STOP_REASON));
      await stream.onStart?.(entry);
      const prompt = await this.buildPrompt(state, chat, session);
      const result = await this.generate(state, prompt);
      if (keepsReply(state) && !result.text.trim()) {
        await this.giveBack(state);
        return this.cannotContinue(state, result.modelMs);
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
      const done = await this.persist(state, result.text, status, result.modelMs);
      this.deps.memory.afterReply({
        userId: user.id,
        userName: state.userName,
        sessionId: session.id,
        exchanges: prompt.exchanges,
        window: prompt.window,
        kept: prompt.keptAfterNextDrop,
        full: prompt.kept < prompt.exchanges || prompt.exchanges >= PROMPT_HISTORY_LIMIT,
        factsUntilSeq: session.facts_until_seq,
      });
      return done;
    } catch (error) {
      return await this.failed(state, error);
    } finally {
      clearTimeout(state.timer);
      // After the entry is stored: a settlement never sees it pending without its lease.
      hold?.release();
    }
  }

  /**
   * The run's prompt, for the connection assigned to the preset character, else to the user's
   * plan, else the default (product.md §9); the reply's token limit is the character's own
   * (at most half the context window), else the connection's, else the chat's setting. Records the group's other members on `state`.
   */
  private async buildPrompt(state: RunState, chat: ResolvedChat, session: ChatSession): Promise<RunPrompt> {
    const { user, character, entry, stream } = state;
    const model = routedModel(this.deps.llm, {
      characterId: character.preset_id ?? undefined,
      planId: user.plan_id,
    });
    // The character's own reply length (product.md §2 "Generation") at most half the context window.
    const own = character.max_tokens
      ? Math.min(character.max_tokens, Math.floor(model.contextWindow() / 2))
      : 0;
    const replyTokens = own || (model.replyTokens ?? this.deps.options.maxReplyTokens);
    const prompt = await replyPrompt(this.deps.conversation, {
      user,
      chat,
      session,
      character,
      historyLimit: PROMPT_HISTORY_LIMIT,
      model,
      replyTokens,
      facts: (words, chatSession) => this.deps.memory.promptFacts(user.id, character.id, words, chatSession),
      recall: this.deps.memory.recall && ((query) => this.deps.memory.recall!(query)),
      sender: stream.sender,
      regenerating: stream.regenerate ? entry : undefined,
    });
    state.others = prompt.others;
    state.inspection = prompt.inspection;
    return { ...prompt, model, replyTokens };
  }

  /**
   * Runs the model on the prompt under the run's timeout (which aborts it, keeping the text so
   * far), passing the text to `stream.onToken` as it comes and recording it on `state`.
   */
  private async generate(state: RunState, prompt: RunPrompt) {
    const { controller, stream } = state;
    state.timer = setTimeout(() => controller.abort(new Error("timeout")), this.deps.options.timeoutMs);
    state.started = performance.now();
    const result = await prompt.model.generate({
      messages: prompt.messages,
      cacheKey: prompt.cacheKey,
      maxTokens: prompt.replyTokens,
      temperature: storedTemperature(state.character.temperature) ?? this.deps.options.temperature,
      characterSettings: {
        maxTokens: state.character.max_tokens ? prompt.replyTokens : undefined,
        temperature: storedTemperature(state.character.temperature),
      },
      stop: prompt.stop,
      signal: controller.signal,
      onTextChunk: (chunk) => {
        if (!state.streamed) metrics.firstToken(performance.now() - state.started);
        state.streamed += chunk;
        stream.onToken?.(chunk);
      },
    });
    if (result.promptTokens) {
      metrics.replyPromptTokens(result.promptTokens.total, result.promptTokens.evaluated);
    }
    return result;
  }

  /**
   * Stores the reply (cleaned; a continuation's text appended to the reply it continues; a
   * regeneration's as a further swipe, chosen) with its status: "replied", "stopped" or
   * "partial". A regeneration whose entry is full or deleted meanwhile gives the run back.
   */
  private async persist(state: RunState, text: string, status: string, modelMs: number): Promise<SendResult> {
    const { entry, prefix } = state;
    const regenerate = state.stream.regenerate;
    const history = this.deps.conversation.history;
    const raw = prefix ? `${prefix}${text}` : text;
    const reply = cleanReply(raw, state.character.name, state.userName, state.others) || "…";
    const done = { ...entry, reply_message: reply, reply_time: this.deps.now(), status };
    const written = { reply_message: reply, reply_time: done.reply_time, status };
    if (regenerate) {
      const index = await history.addSwipe(entry, written, regenerate.max);
      if (typeof index !== "number") {
        await this.giveBack(state);
        metrics.replyFinished("cannot_continue");
        const message = index === "full" ? tooManySwipes() : msg("chat.messageWasDeleted");
        return { success: false, message, entry, modelMs };
      }
      Object.assign(done, { reply_audio_url: "", swipe_index: index, continue_count: 0 });
    } else {
      await history.updateEntry(entry.id, written);
      if (prefix) await history.continueChosenSwipe(entry, reply);
    }
    if (state.inspection) {
      // The reply is kept even when its inspection is not (the entry deleted meanwhile).
      await this.deps.repo.inspections
        .save(entry.id, done.swipe_index, state.inspection, done.reply_time)
        .catch(() => undefined);
    }
    const id =
      status === "replied" ? "chat.reply" : status === "stopped" ? "chat.stopped" : "chat.replyWasCutShort";
    const message = msg(id);
    metrics.replyFinished(status);
    return { success: true, message, entry: done, modelMs };
  }

  /**
   * A run that failed: text already streamed is kept (broken mid-stream by Stop, the timeout or a
   * dropped connection); a continued or regenerated entry keeps its reply; else the entry is
   * marked failed. The run is given back when nothing was kept.
   */
  private async failed(state: RunState, error: unknown): Promise<SendResult> {
    const { controller, entry, character } = state;
    if (stopReason(controller.signal) !== "stop") {
      metrics.modelError(controller.signal.aborted ? controller.signal.reason : error);
    }
    const modelMs = performance.now() - state.started;
    if (state.streamed.trim()) {
      const status = stopReason(controller.signal) === "stop" ? "stopped" : "partial";
      return this.persist(state, state.streamed, status, modelMs);
    }
    if (keepsReply(state)) {
      await this.deps.conversation.history.updateEntry(entry.id, {
        status: entry.status === "pending" ? "failed" : entry.status,
      });
      await this.giveBack(state);
      return this.cannotContinue(state, modelMs);
    }
    const unavailable = error instanceof LlmUnavailableError;
    const message = unavailable ? error.text : msg("chat.couldNotReplyRightNow", { name: character.name });
    const failed = { status: "failed" as const, error: String(error).slice(0, 500) };
    // The user is not charged for a message no character could answer: given back once, by
    // this run or by the settlement of stalled replies when it took this run for dead.
    if (await this.deps.repo.settlePending(entry.id, failed)) await this.giveBack(state);
    metrics.replyFinished("failed");
    return { success: false, message, entry: { ...entry, status: "failed" }, modelMs };
  }

  /** Gives the run back: its message to the period charged, and a continuation's count. */
  private async giveBack(state: RunState): Promise<void> {
    if (state.stream.charge) await this.deps.quota.refundMessage(state.user.id, state.stream.charge);
    if (state.prefix) await this.deps.repo.releaseContinuation(state.entry.id);
  }

  /** The outcome of a continuation or regeneration that gave nothing: the reply stays as it was. */
  private cannotContinue(state: RunState, modelMs: number): SendResult {
    metrics.replyFinished("cannot_continue");
    const id = state.stream.regenerate ? "chat.couldNotReplyRightNow" : "chat.couldNotContinueRightNow";
    const message = msg(id, { name: state.character.name });
    return { success: false, message, entry: state.entry, modelMs };
  }
}

/** A run on a stored reply (continued or regenerated): when it gives nothing, the reply stays. */
const keepsReply = (state: RunState) => Boolean(state.prefix || state.stream.regenerate);
