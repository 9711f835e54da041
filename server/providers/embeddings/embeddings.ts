// Text embeddings behind one interface: the Embedder, its bounds (batch size, text length), unit-length vectors and their storage as float32 bytes.
import { ProviderError } from "../http";

/**
 * A text-embedding model (house style: one interface, implementations chosen in one factory).
 * Implementations: `OpenAiEmbedder` (any OpenAI-compatible `/v1/embeddings`) and
 * `LlamaEmbedder` (a GGUF in process); recall runs without one (word search only).
 */
export interface Embedder {
  /** Names the model, e.g. "openai:text-embedding-3-small" or "gguf:<file name>"; vectors of different ids never mix. */
  readonly id: string;
  /** One unit-length vector per text, in order. Throws on failure. */
  embed(texts: string[], signal?: AbortSignal): Promise<Float32Array[]>;
  close(): Promise<void>;
}

/** Most texts sent in one request to an embedding endpoint (OpenAI accepts up to 2048). */
export const MAX_EMBED_BATCH = 64;

/**
 * Longest text embedded, in characters (UTF-16 code units); the rest is cut off. About 500
 * tokens of English: a chat message's meaning is in its first lines, and a bound keeps one
 * request's size and time small.
 */
export const MAX_EMBED_TEXT_CHARS = 2000;

/**
 * The text as it is embedded: cut to `MAX_EMBED_TEXT_CHARS` (never inside a surrogate pair), and
 * a single space for an empty or blank text (OpenAI refuses an empty input, and a model gives no
 * vector for zero tokens), so every text gets a vector.
 */
export function embeddingInput(text: string): string {
  let cut = text.length > MAX_EMBED_TEXT_CHARS ? text.slice(0, MAX_EMBED_TEXT_CHARS) : text;
  const last = cut.charCodeAt(cut.length - 1);
  if (cut.length < text.length && last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return cut.trim() === "" ? " " : cut;
}

/**
 * `vector` scaled to unit length (Euclidean norm 1), as float32, so that a dot product is the
 * cosine similarity.
 * @throws ProviderError when the vector is empty, holds a value that is not a finite number, or is
 *   all zeros (nothing to scale).
 */
export function unitVector(vector: ArrayLike<number>): Float32Array {
  if (vector.length === 0) throw new ProviderError("embedding: the model answered an empty vector");
  let sum = 0;
  for (let i = 0; i < vector.length; i++) {
    const value = vector[i];
    if (typeof value !== "number" || !Number.isFinite(value)) {
      throw new ProviderError(`embedding: value ${i} is not a finite number`);
    }
    sum += value * value;
  }
  const norm = Math.sqrt(sum);
  if (!(norm > 0) || !Number.isFinite(norm)) {
    throw new ProviderError("embedding: the model answered a zero vector");
  }
  const unit = new Float32Array(vector.length);
  for (let i = 0; i < vector.length; i++) unit[i] = (vector[i] as number) / norm;
  return unit;
}

/**
 * A vector as bytes for a database column (SQLite BLOB, PostgreSQL bytea): each value as a
 * little-endian IEEE 754 float32, so `4 × v.length` bytes, the same on every machine.
 */
export function vectorToBuffer(v: Float32Array): Buffer {
  const bytes = Buffer.alloc(v.length * 4);
  for (let i = 0; i < v.length; i++) bytes.writeFloatLE(v[i] as number, i * 4);
  return bytes;
}

/**
 * The vector `vectorToBuffer` wrote: little-endian float32 values, read into a new array (the
 * bytes may sit at any offset of a shared buffer, as database drivers hand them out).
 * @throws RangeError when the length is not a multiple of 4 bytes.
 */
export function bufferToVector(b: Uint8Array): Float32Array {
  if (b.byteLength % 4 !== 0) {
    throw new RangeError(`an embedding is float32 values: ${b.byteLength} bytes is not a multiple of 4`);
  }
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const v = new Float32Array(b.byteLength / 4);
  for (let i = 0; i < v.length; i++) v[i] = view.getFloat32(i * 4, true);
  return v;
}
