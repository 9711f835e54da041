import type { ChatHistoryItem, LlamaContext, LlamaContextSequence, LlamaModel } from "node-llama-cpp";
import {
  type ChatMessage,
  type GenerateRequest,
  type GenerateResult,
  type LlmProvider,
  LlmUnavailableError,
  type ProviderStatus,
} from "./llm";
import { SlotPool } from "./semaphore";

export interface LlamaOptions {
  modelPath: string;
  /** Requested context window in tokens; capped at the model's training context. */
  contextSize: number;
  /** CPU threads. More threads than free cores makes llama.cpp spin and slows it badly. */
  threads: number;
  /** Context sequences: chats generated at the same time; further chats wait in a queue. */
  parallel: number;
}

/**
 * node-llama-cpp in the server process (issue 2, provider `llama`). The GGUF is loaded once by
 * `load()` and shared; each generation borrows one sequence of the single context, so
 * concurrent chats queue instead of loading the model twice. The prompt is formatted with the
 * model's own chat template (node-llama-cpp resolves it from the GGUF).
 */
export class LlamaProvider implements LlmProvider {
  readonly name = "llama";
  private model?: LlamaModel;
  private context?: LlamaContext;
  private sequences: LlamaContextSequence[] = [];
  private pool?: SlotPool;
  private loading?: Promise<void>;
  private failure?: string;
  /** node-llama-cpp, imported with the model (issue 19: tens of MB a remote model never needs). */
  private lib?: typeof import("node-llama-cpp");

  constructor(private readonly options: LlamaOptions) {}

  /** Loads the model and creates its context. Idempotent. @throws when the file cannot be loaded. */
  load(): Promise<void> {
    this.loading ??= this.doLoad().catch((error: unknown) => {
      this.failure = `The language model could not be loaded from ${this.options.modelPath}: ${String(error)}`;
      throw error;
    });
    return this.loading;
  }

  private async doLoad(): Promise<void> {
    const lib = await import("node-llama-cpp");
    const llama = await lib.getLlama({ gpu: false, build: "never", logLevel: "error" as never });
    const model = await llama.loadModel({ modelPath: this.options.modelPath });
    const contextSize = Math.min(this.options.contextSize, model.trainContextSize);
    const context = await model.createContext({
      contextSize,
      sequences: this.options.parallel,
      threads: this.options.threads,
    });
    this.sequences = Array.from({ length: this.options.parallel }, () => context.getSequence());
    this.pool = new SlotPool(this.options.parallel);
    this.lib = lib;
    this.model = model;
    this.context = context;
  }

  contextWindow(): number {
    // Each sequence gets the context's full size in node-llama-cpp's unified KV cache.
    return this.context?.contextSize ?? this.options.contextSize;
  }

  status(): ProviderStatus {
    if (this.model) return { ready: true, message: "ready" };
    if (this.failure) return { ready: false, message: this.failure };
    return { ready: false, message: "The language model is still loading, please try again in a moment." };
  }

  countTokens(text: string): number {
    return this.model ? this.model.tokenize(text).length : Math.ceil(text.length / 4);
  }

  async generate(request: GenerateRequest): Promise<GenerateResult> {
    const started = performance.now();
    try {
      await this.load();
    } catch {
      throw new LlmUnavailableError(this.status().message);
    }
    const pool = this.pool!;
    const slot = await pool.acquire();
    const sequence = this.sequences[slot]!;
    const chat = new this.lib!.LlamaChat({ contextSequence: sequence, chatWrapper: "auto" });
    try {
      const result = await chat.generateResponse(toChatHistory(request.messages), {
        maxTokens: request.maxTokens,
        temperature: request.temperature,
        signal: request.signal,
        stopOnAbortSignal: true,
        customStopTriggers: request.stop,
        onTextChunk: request.onTextChunk,
      });
      return { text: result.response, modelMs: performance.now() - started };
    } finally {
      chat.dispose({ disposeSequence: false });
      await sequence.clearHistory();
      pool.release(slot);
    }
  }

  /**
   * The prompt exactly as the model sees it: `messages` rendered with the chat template resolved
   * from the GGUF (the same wrapper generation uses). For tests and debugging.
   * @returns the template's name and the rendered text. @throws when the model is not loaded.
   */
  async renderPrompt(messages: ChatMessage[]): Promise<{ template: string; text: string }> {
    await this.load();
    const wrapper = this.lib!.resolveChatWrapper(this.model!);
    const state = wrapper.generateContextState({ chatHistory: toChatHistory(messages) });
    return { template: wrapper.wrapperName, text: state.contextText.toString() };
  }

  async close(): Promise<void> {
    await this.context?.dispose();
    await this.model?.dispose();
  }
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
