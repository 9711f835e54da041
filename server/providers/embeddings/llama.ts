// Text embeddings from a GGUF model in process (node-llama-cpp): loaded on first use, one text at a time, closed with the server.
import path from "node:path";
import type { LlamaEmbeddingContext, LlamaModel, Token } from "node-llama-cpp";
import type { LlamaGpu } from "../llm/llama";
import { SlotPool } from "../llm/semaphore";
import { type Embedder, embeddingInput, unitVector } from "./embeddings";

/**
 * Largest context of the embedding model, in tokens: a text cut to `MAX_EMBED_TEXT_CHARS` fits
 * (about 500 tokens of English, at most one a character), and the KV cache stays small.
 */
const MAX_CONTEXT_TOKENS = 2048;

export interface LlamaEmbedderOptions {
  /** A GGUF embedding model (e.g. nomic-embed-text, bge, all-MiniLM, Qwen3-Embedding). */
  modelPath: string;
  /** CPU threads (LLM_THREADS). */
  threads: number;
  /** LLM_GPU; `auto` when absent. */
  gpu?: LlamaGpu;
  /** Largest context in tokens, `MAX_CONTEXT_TOKENS` by default (tests make it small and fast). */
  contextTokens?: number;
  /** Loads node-llama-cpp (a seam for tests). */
  library?: () => Promise<typeof import("node-llama-cpp")>;
}

/**
 * A GGUF embedding model run by node-llama-cpp in the server process. The model is loaded on the
 * first `embed` (a server that never recalls never pays for it); one text is evaluated at a time
 * (calls wait their turn), each cut to `MAX_EMBED_TEXT_CHARS` and then to the context's tokens.
 * Its id is "gguf:<file name>": vectors of another file never mix with its own.
 */
export class LlamaEmbedder implements Embedder {
  readonly id: string;
  private readonly turn = new SlotPool(1);
  private loading?: Promise<void>;
  private model?: LlamaModel;
  private context?: LlamaEmbeddingContext;
  private closed = false;
  /** The embedding context's size in tokens, known once loaded. */
  private contextSize = 0;

  constructor(private readonly options: LlamaEmbedderOptions) {
    this.id = `gguf:${path.basename(options.modelPath)}`;
  }

  /**
   * Loads the model and its embedding context, once (later calls share the first).
   * @throws Error naming the file when it cannot be loaded; the failure is kept, so later calls
   *   throw it again without trying anew.
   */
  load(): Promise<void> {
    this.loading ??= this.doLoad().catch((error: unknown) => {
      throw new Error(
        `The embedding model could not be loaded from ${this.options.modelPath}: ${String(error)}`,
        {
          cause: error,
        },
      );
    });
    return this.loading;
  }

  private async doLoad(): Promise<void> {
    const lib = await (this.options.library ?? (() => import("node-llama-cpp")))();
    const gpu = this.options.gpu ?? "auto";
    // As the chat model: prebuilt binaries only, never a build at run time.
    const llama = await lib.getLlama({
      gpu: gpu === "off" ? false : gpu,
      build: "never",
      logLevel: "error" as never,
    });
    const model = await llama.loadModel({ modelPath: this.options.modelPath });
    const contextSize = Math.min(model.trainContextSize, this.options.contextTokens ?? MAX_CONTEXT_TOKENS);
    this.contextSize = contextSize;
    try {
      // The whole text in one batch: encoder models (BERT-like) must see all of it at once.
      this.context = await model.createEmbeddingContext({
        contextSize,
        batchSize: contextSize,
        threads: this.options.threads,
      });
    } catch (error) {
      await model.dispose();
      throw error;
    }
    this.model = model;
  }

  /**
   * One unit-length vector per text, in order (none for no texts, without loading the model).
   * @throws Error when the model cannot be loaded, the embedder is closed, or the model answers
   *   no usable vector (ProviderError); the signal's reason when `signal` aborts (checked
   *   between texts).
   */
  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    if (this.closed) throw new Error("The embedding model is closed.");
    await this.load();
    signal?.throwIfAborted();
    const permit = await this.turn.acquire();
    try {
      const vectors: Float32Array[] = [];
      for (const text of texts) {
        signal?.throwIfAborted();
        if (this.closed || !this.context || !this.model) throw new Error("The embedding model is closed.");
        const embedding = await this.context.getEmbeddingFor(this.tokens(this.model, text));
        vectors.push(unitVector(embedding.vector));
      }
      return vectors;
    } finally {
      this.turn.release(permit);
    }
  }

  /**
   * The text's tokens, cut so that with the start and end tokens the model adds it stays shorter
   * than the context (LlamaEmbeddingContext refuses an input as long as the context).
   */
  private tokens(model: LlamaModel, text: string): Token[] {
    const tokens = model.tokenize(embeddingInput(text));
    const limit = this.contextSize - 3;
    return tokens.length > limit ? tokens.slice(0, limit) : tokens;
  }

  /** Waits for the text being embedded, then frees the context and the model. Idempotent. */
  async close(): Promise<void> {
    this.closed = true;
    await this.loading?.catch(() => {});
    const permit = await this.turn.acquire();
    try {
      await this.context?.dispose();
      await this.model?.dispose();
      this.context = undefined;
      this.model = undefined;
    } finally {
      this.turn.release(permit);
    }
  }
}
