// The in-process language model (node-llama-cpp): a GGUF loaded once, context sequences reused per chat for the prompt cache, GPU or CPU.
import type {
  ChatHistoryItem,
  ChatWrapper,
  LlamaContext,
  LlamaContextSequence,
  LlamaModel,
} from "node-llama-cpp";
import { msg } from "../../i18n/messages";
import { backgroundCut, backgroundWaited } from "../../observability/metrics";
import {
  type ChatMessage,
  type GenerateRequest,
  type GenerateResult,
  type LlmProvider,
  LlmUnavailableError,
  type ProviderStatus,
  reasonOf,
  statusOf,
} from "./llm";
import { ReplyFirst, type ReplyFirstOptions } from "./reply-first";
import { SlotPool } from "./semaphore";

/** Where llama.cpp runs: `auto` picks a GPU backend when one works (else the CPU), `off` the CPU. */
export type LlamaGpu = "auto" | "off" | "cuda" | "vulkan" | "metal";

export interface LlamaOptions {
  modelPath: string;
  /** Requested context window in tokens; capped at the model's training context. */
  contextSize: number;
  /** CPU threads. More threads than free cores makes llama.cpp spin and slows it badly. */
  threads: number;
  /** Replies generated at the same time; further ones wait in a queue. */
  parallel: number;
  /**
   * Context sequences kept, each holding one prompt cache's evaluated tokens (a chat, a memory
   * job's instructions); at least `parallel` + 1 (the background slot). Each takes a context
   * window of KV cache memory.
   */
  cachedSequences?: number;
  /** LLM_GPU; `auto` when absent. */
  gpu?: LlamaGpu;
  /**
   * How background requests yield to replies (ReplyFirst): a pause of `quietMs` without replies
   * before they start (held out for `quietForMs`), `maxWaitMs` at most in all.
   * BACKGROUND_YIELD by default.
   */
  backgroundYield?: Pick<ReplyFirstOptions, "quietMs" | "quietForMs" | "maxWaitMs">;
  /** Loads node-llama-cpp (a seam: tests wrap the real library to see what it is asked). */
  library?: () => Promise<typeof import("node-llama-cpp")>;
}

/**
 * Background requests wait for a second without replies (the user's next message, sent as soon
 * as a reply ends, arrives well within it); after half a minute of waiting, for any moment
 * without a reply; after a minute without one, for nothing.
 */
export const BACKGROUND_YIELD = { quietMs: 1000, quietForMs: 30_000, maxWaitMs: 60_000 } as const;

/** One context sequence and the prompt cache it holds. */
interface CachedSequence {
  sequence: LlamaContextSequence;
  /** The cache key of the prompt it holds (GenerateRequest.cacheKey); undefined: none. */
  key: string | undefined;
  busy: boolean;
  /** When it was last released (a counter): the least recent is evicted first. */
  lastUsed: number;
}

/**
 * node-llama-cpp in the server process (provider `llama`). The GGUF is loaded once by
 * `load()` and shared by one context with several sequences. Each sequence keeps the tokens it
 * evaluated, tagged with the request's `cacheKey`: a chat's next turn goes back to the sequence
 * that holds its prefix, and node-llama-cpp's LlamaChat evaluates only what differs from it
 * (`adaptStateToTokens`: the common prefix is reused). A request whose key no free sequence
 * holds takes the least recently used one. (Choosing instead the sequence whose tokens share
 * most of the new prompt, as llama.cpp server picks a slot, was measured and dropped: chats with
 * the same character then took each other's sequences turn after turn, and each re-read its
 * history; docs/benchmarks.md.) At most `parallel` replies generate at once (the
 * others wait), and one background request (memory jobs, check-ins) at a time in a slot of its
 * own, so a reply never queues behind it. Both share the CPU, so background work yields
 * (ReplyFirst): it starts only after a pause without replies, and a reply that starts pauses a
 * running one (its generation is cut short, and after the next pause continued from its text so
 * far, the tokens read back from the sequence's cache; node-llama-cpp stops between tokens, so a
 * prompt batch under way is finished first), until it has waited `backgroundYield.maxWaitMs`
 * at a stretch; then it runs to its end. The prompt is formatted with the model's own chat template (resolved from the GGUF).
 */
export class LlamaProvider implements LlmProvider {
  readonly name = "llama";
  private model?: LlamaModel;
  private context?: LlamaContext;
  private sequences: CachedSequence[] = [];
  private pool?: SlotPool;
  /** The background requests' one slot. */
  private backgroundPool = new SlotPool(1);
  /** Replies before background work: both share this model's CPU (or GPU). */
  private readonly replyFirst: ReplyFirst;
  private uses = 0;
  private loading?: Promise<void>;
  private failure?: string;
  /** node-llama-cpp, imported with the model (tens of MB a remote model never needs). */
  private lib?: typeof import("node-llama-cpp");
  private gpuInUse: string | false = false;
  /** The model's chat template, resolved once from the GGUF (generation and renderPrompt share it). */
  private wrapper?: ChatWrapper;

  constructor(private readonly options: LlamaOptions) {
    this.replyFirst = new ReplyFirst({
      ...(options.backgroundYield ?? BACKGROUND_YIELD),
      onWaited: backgroundWaited,
      onCut: backgroundCut,
    });
  }

  /** Loads the model and creates its context. Idempotent. @throws when the file cannot be loaded. */
  load(): Promise<void> {
    this.loading ??= this.doLoad().catch((error: unknown) => {
      this.failure = `The language model could not be loaded from ${this.options.modelPath}: ${String(error)}`;
      throw error;
    });
    return this.loading;
  }

  private async doLoad(): Promise<void> {
    const lib = await (this.options.library ?? (() => import("node-llama-cpp")))();
    const gpu = this.options.gpu ?? "auto";
    // Never build llama.cpp at run time: the prebuilt binaries only (CPU, and GPU ones that load).
    const llama = await lib.getLlama({
      gpu: gpu === "off" ? false : gpu,
      build: "never",
      logLevel: "error" as never,
    });
    const model = await llama.loadModel({ modelPath: this.options.modelPath });
    const contextSize = Math.min(this.options.contextSize, model.trainContextSize);
    const count = Math.max(this.options.parallel + 1, this.options.cachedSequences ?? 0);
    const context = await model.createContext({
      contextSize,
      sequences: count,
      threads: this.options.threads,
      // Attention over a long chat's cached tokens costs less with it (measured on the CPU:
      // 150 new tokens after 2400 took 2.6 s without, 2.2 s with; docs/benchmarks.md).
      flashAttention: true,
    });
    this.sequences = Array.from({ length: count }, () => ({
      sequence: context.getSequence(),
      key: undefined,
      busy: false,
      lastUsed: 0,
    }));
    this.pool = new SlotPool(this.options.parallel);
    this.gpuInUse = llama.gpu;
    this.wrapper = lib.resolveChatWrapper(model);
    this.lib = lib;
    this.model = model;
    this.context = context;
  }

  /** The GPU backend in use ("cuda", "vulkan", "metal"), or false for the CPU. */
  gpu(): string | false {
    return this.gpuInUse;
  }

  contextWindow(): number {
    // Each sequence gets the context's full size (node-llama-cpp allocates size × sequences).
    return this.context?.contextSize ?? this.options.contextSize;
  }

  status(): ProviderStatus {
    if (this.model) return { ready: true, message: "ready" };
    if (this.failure) return { ready: false, message: this.failure };
    return statusOf(msg("llm.languageModelStillLoadingTry"));
  }

  countTokens(text: string): number {
    return this.model ? this.model.tokenize(text).length : Math.ceil(text.length / 4);
  }

  /**
   * The sequence for a request: a free one holding `key`'s prompt (the most recent if several),
   * else the least recently used free one. One is always free while a generation slot is held
   * (there are at least `parallel` + 1 sequences, one per slot).
   */
  private takeSequence(key: string | undefined): CachedSequence {
    const free = this.sequences.filter((s) => !s.busy);
    const own = key === undefined ? [] : free.filter((s) => s.key === key);
    const chosen =
      own.length > 0
        ? own.reduce((a, b) => (b.lastUsed > a.lastUsed ? b : a))
        : free.reduce((a, b) => (b.lastUsed < a.lastUsed ? b : a));
    chosen.busy = true;
    chosen.key = key;
    return chosen;
  }

  /**
   * Which sequence holds each cache key's prompt now, by index (for tests and debugging).
   * @returns [key, sequence index] for every sequence that holds a keyed prompt.
   */
  cachedKeys(): Array<[string, number]> {
    return this.sequences.flatMap((s, i) => (s.key === undefined ? [] : [[s.key, i] as [string, number]]));
  }

  /**
   * Generates one request: a reply at once (in its turn for a slot), a background request after
   * the replies (ReplyFirst; the background slot is held while it waits, so they run one by one).
   */
  async generate(request: GenerateRequest): Promise<GenerateResult> {
    const started = performance.now();
    try {
      await this.load();
    } catch {
      throw new LlmUnavailableError(reasonOf(this.status()));
    }
    if (!request.background) {
      return this.replyFirst.reply(() => this.run(this.pool!, request, request.signal, started));
    }
    const permit = await this.backgroundPool.acquire();
    // The text of runs a reply cut short: the next run continues it.
    let done = "";
    try {
      return await this.replyFirst.background(async (signal) => {
        const messages = done ? continuing(request.messages, done) : request.messages;
        const maxTokens = Math.max(1, request.maxTokens - (done ? this.countTokens(done) : 0));
        const result = await this.run(undefined, { ...request, messages, maxTokens }, signal, started);
        done += result.text;
        return { ...result, text: done };
      }, request.signal);
    } finally {
      this.backgroundPool.release(permit);
    }
  }

  /**
   * One generation in a context sequence: takes a slot of `pool` first (none: the caller holds
   * one), then the free sequence that holds the request's cache key (takeSequence).
   */
  private async run(
    pool: SlotPool | undefined,
    request: GenerateRequest,
    signal: AbortSignal | undefined,
    started: number,
  ): Promise<GenerateResult> {
    const permit = await pool?.acquire();
    const history = toChatHistory(request.messages);
    const cached = this.takeSequence(request.cacheKey);
    const sequence = cached.sequence;
    const meter = sequence.tokenMeter.getState();
    const chat = new this.lib!.LlamaChat({ contextSequence: sequence, chatWrapper: this.wrapper! });
    let failed = false;
    try {
      const result = await chat.generateResponse(history, {
        maxTokens: request.maxTokens,
        temperature: request.temperature,
        signal,
        stopOnAbortSignal: true,
        customStopTriggers: request.stop,
        onTextChunk: request.onTextChunk,
      });
      const used = sequence.tokenMeter.diff(meter);
      const total = Math.max(used.usedInputTokens, sequence.nextTokenIndex - used.usedOutputTokens);
      return {
        text: result.response,
        modelMs: performance.now() - started,
        promptTokens: { total, evaluated: used.usedInputTokens },
      };
    } catch (error) {
      failed = true;
      throw error;
    } finally {
      chat.dispose({ disposeSequence: false });
      // A failed generation may leave the sequence half-evaluated: it holds no cache then.
      if (failed) {
        cached.key = undefined;
        await sequence.clearHistory().catch(() => {});
      }
      cached.busy = false;
      cached.lastUsed = ++this.uses;
      if (pool && permit !== undefined) pool.release(permit);
    }
  }

  /**
   * The prompt exactly as the model sees it: `messages` rendered with the chat template resolved
   * from the GGUF (the same wrapper generation uses). For tests and debugging.
   * @returns the template's name and the rendered text. @throws when the model is not loaded.
   */
  async renderPrompt(messages: ChatMessage[]): Promise<{ template: string; text: string }> {
    await this.load();
    const wrapper = this.wrapper!;
    const state = wrapper.generateContextState({ chatHistory: toChatHistory(messages) });
    return { template: wrapper.wrapperName, text: state.contextText.toString() };
  }

  async close(): Promise<void> {
    await this.context?.dispose();
    await this.model?.dispose();
  }
}

/**
 * `messages` with `text` added to the model's answer: as an unfinished assistant message, or
 * after the one they end with (the model continues it either way).
 */
function continuing(messages: ChatMessage[], text: string): ChatMessage[] {
  const last = messages.at(-1);
  if (last?.role !== "assistant") return [...messages, { role: "assistant", content: text }];
  return [...messages.slice(0, -1), { ...last, content: last.content + text }];
}

/**
 * Maps chat messages to node-llama-cpp's history, ending with the model turn to fill: an empty
 * one, or, when the messages end with an assistant message, that message to continue.
 */
function toChatHistory(messages: ChatMessage[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = messages.map((m) => {
    if (m.role === "system") return { type: "system", text: m.content };
    if (m.role === "user") return { type: "user", text: m.content };
    return { type: "model", response: [m.content] };
  });
  if (messages.at(-1)?.role !== "assistant") history.push({ type: "model", response: [] });
  return history;
}
