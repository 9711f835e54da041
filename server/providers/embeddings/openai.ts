// Text embeddings through any OpenAI-compatible /v1/embeddings endpoint (OpenAI, llama.cpp server, Ollama, vLLM, LM Studio, LocalAI).
import {
  bearer,
  joinUrl,
  type ModelEndpointOptions,
  ProviderError,
  ProviderHttpError,
  postJson,
} from "../http";
import { type Embedder, embeddingInput, MAX_EMBED_BATCH, unitVector } from "./embeddings";

/** Default time limit of one embeddings request, milliseconds (EMBEDDING_TIMEOUT_MS). */
export const EMBEDDING_TIMEOUT_MS = 15_000;

/** Largest answer read, bytes: 64 vectors of 3072 numbers as JSON take about 4 MB. */
const MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** `baseUrl` up to and including /v1, e.g. `http://localhost:8080/v1`; `model` e.g. "text-embedding-3-small". */
export interface OpenAiEmbedderOptions extends ModelEndpointOptions {
  /** Milliseconds before one request (one batch) is given up; `EMBEDDING_TIMEOUT_MS` by default. */
  timeoutMs?: number;
  /** Texts per request, 1 to `MAX_EMBED_BATCH` (the default). */
  batchSize?: number;
}

/** One item of the answer's `data` (OpenAI's embedding object). */
interface EmbeddingItem {
  index?: unknown;
  embedding?: unknown;
}

/**
 * Any OpenAI-compatible embeddings endpoint: `POST {base}/embeddings` with `{ model, input }`
 * (`input` an array of texts), `Authorization: Bearer <key>` when a key is set, answering
 * `{ data: [{ index, embedding: number[] }] }`. Texts go in batches of at most `batchSize`, one
 * request after the other, each cut to `MAX_EMBED_TEXT_CHARS`; each request has its own time
 * limit. The vectors are put back in the texts' order by `index` (servers may answer in any
 * order) and scaled to unit length.
 */
export class OpenAiEmbedder implements Embedder {
  readonly id: string;
  private readonly url: string;
  private readonly batchSize: number;

  /** @throws RangeError when `batchSize` is not an integer from 1 to `MAX_EMBED_BATCH`. */
  constructor(private readonly options: OpenAiEmbedderOptions) {
    this.id = `openai:${options.model}`;
    this.url = joinUrl(options.baseUrl, "embeddings");
    this.batchSize = options.batchSize ?? MAX_EMBED_BATCH;
    if (!Number.isInteger(this.batchSize) || this.batchSize < 1 || this.batchSize > MAX_EMBED_BATCH) {
      throw new RangeError(`batchSize must be an integer from 1 to ${MAX_EMBED_BATCH}`);
    }
  }

  /**
   * One unit-length vector per text, in the texts' order (none for no texts, without a request).
   * @throws ProviderHttpError when the endpoint cannot be reached, a request outlives its time
   *   limit, or it answers a non-2xx status (the message names the URL, the status and the start
   *   of the body); ProviderError for an answer that is not the embeddings format (a missing or
   *   repeated index, a vector that is not numbers, vectors of different lengths); the signal's
   *   reason when `signal` aborts.
   */
  async embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const vectors: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      signal?.throwIfAborted();
      const batch = texts.slice(start, start + this.batchSize).map(embeddingInput);
      vectors.push(...(await this.request(batch, signal)));
    }
    const size = vectors[0]?.length;
    if (vectors.some((v) => v.length !== size)) {
      throw new ProviderError(`${this.url}: the answer's vectors differ in length`);
    }
    return vectors;
  }

  private async request(input: string[], signal: AbortSignal | undefined): Promise<Float32Array[]> {
    const response = await postJson(
      this.url,
      { model: this.options.model, input },
      {
        headers: bearer(this.options.apiKey),
        timeoutMs: this.options.timeoutMs ?? EMBEDDING_TIMEOUT_MS,
        signal,
      },
    );
    const text = await readBounded(response, this.url, signal);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw this.malformed(`not JSON: ${text.slice(0, 100)}`);
    }
    const data = (body as { data?: unknown } | null)?.data;
    if (!Array.isArray(data)) throw this.malformed("no data array");
    if (data.length !== input.length) {
      throw this.malformed(`${data.length} vectors for ${input.length} texts`);
    }
    const ordered: Float32Array[] = new Array(input.length);
    data.forEach((item: EmbeddingItem, position) => {
      // A server that leaves out `index` answers in order.
      const index = item?.index ?? position;
      if (!Number.isInteger(index) || (index as number) < 0 || (index as number) >= input.length) {
        throw this.malformed(`index ${String(index)} out of range`);
      }
      if (ordered[index as number]) throw this.malformed(`index ${String(index)} twice`);
      if (!Array.isArray(item.embedding)) throw this.malformed(`no embedding array at index ${index}`);
      try {
        ordered[index as number] = unitVector(item.embedding as number[]);
      } catch (error) {
        throw this.malformed(`at index ${index}: ${(error as Error).message}`);
      }
    });
    return ordered;
  }

  private malformed(what: string): ProviderError {
    return new ProviderError(`${this.url}: malformed embeddings answer (${what})`);
  }

  async close(): Promise<void> {}
}

/**
 * The answer's body as text, at most `MAX_ANSWER_BYTES`.
 * @throws ProviderHttpError when it is larger or the connection breaks; the signal's reason when
 *   the caller aborted.
 */
async function readBounded(
  response: Response,
  url: string,
  signal: AbortSignal | undefined,
): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body?.getReader();
  try {
    for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) {
      size += read.value.byteLength;
      if (size > MAX_ANSWER_BYTES) {
        await reader?.cancel();
        throw new ProviderHttpError(url, response.status, `answer larger than ${MAX_ANSWER_BYTES} bytes`);
      }
      chunks.push(read.value);
    }
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (error instanceof ProviderHttpError) throw error;
    throw new ProviderHttpError(url, undefined, "", error);
  }
  return Buffer.concat(chunks).toString("utf8");
}
