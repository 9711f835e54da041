// Types of completions-wire.mjs: the Chat Completions answers of the benchmarks' model doubles.

/** A model double's answers, each a string ready to write to the response. */
export interface CompletionsWire {
  /** One streamed chunk (`data: …\n\n`) whose delta is `content`. */
  chunk(content: string): string;
  /** A whole streamed answer: a chunk per piece, then `data: [DONE]`. */
  stream(pieces: string[]): string;
  /** The closing chunk (empty delta, finish_reason "stop"), then `data: [DONE]`. */
  stop(): string;
  /** A whole (non-streamed) answer whose message is `content`, with a one-token usage. */
  whole(content: string): string;
}

/**
 * The answers of a model double (model "bench") in OpenAI's Chat Completions format.
 * @param envelope the `id` ("b") and `created` (1) every answer carries; `fingerprint`: each
 *   streamed chunk also carries this `system_fingerprint` and `logprobs: null`.
 */
export function completionsWire(envelope?: {
  id?: string;
  created?: number;
  fingerprint?: string;
}): CompletionsWire;
