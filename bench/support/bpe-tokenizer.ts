import cl100k from "js-tiktoken/ranks/cl100k_base";

/**
 * A real byte-level BPE tokenizer for the timing model (support/timing-model.ts), in the form
 * llama.cpp reads from a GGUF (`tokenizer.ggml.model` "gpt2": tokens and merges): OpenAI's
 * cl100k_base vocabulary from the npm package js-tiktoken. Qwen2.5's own tokenizer is cl100k_base
 * extended to 151,643 tokens with the same pre-tokenizing pattern, so English splits into about as
 * many tokens with either, and prompts in the timing model are as long as in the real model.
 *
 * Conversion, as Hugging Face's tiktoken converter does it: each token's bytes are written with
 * GPT-2's byte-to-character table; for every token of two or more bytes, every split into two
 * tokens becomes a merge, the merges ordered by the whole token's rank (tiktoken merges the pair
 * whose result ranks lowest first).
 */

/** GPT-2's table from bytes to printable characters (byte-level BPE's token text). */
function byteToChar(): string[] {
  const printable: number[] = [];
  for (let b = 33; b <= 126; b += 1) printable.push(b);
  for (let b = 161; b <= 172; b += 1) printable.push(b);
  for (let b = 174; b <= 255; b += 1) printable.push(b);
  const table: string[] = new Array(256);
  let extra = 0;
  for (let b = 0; b < 256; b += 1) {
    table[b] = String.fromCodePoint(printable.includes(b) ? b : 256 + extra++);
  }
  return table;
}

/** The vocabulary and merges of cl100k_base, and its special tokens. */
export interface BpeVocabulary {
  /** Token text by id (byte-level characters); ids without a token are "" (filled by the caller). */
  tokens: string[];
  /** "left right" pairs, highest priority first. */
  merges: string[];
}

/**
 * Reads cl100k_base's ranks (js-tiktoken's compact form: lines of "name offset base64 base64 …",
 * the tokens ranked from `offset` on) and derives the merges.
 */
export function cl100kVocabulary(): BpeVocabulary {
  const chars = byteToChar();
  const byRank: Buffer[] = [];
  for (const line of cl100k.bpe_ranks.split("\n")) {
    const [, offsetText, ...encoded] = line.split(" ");
    if (offsetText === undefined) continue;
    const offset = Number.parseInt(offsetText, 10);
    encoded.forEach((base64, i) => {
      byRank[offset + i] = Buffer.from(base64, "base64");
    });
  }
  const text = (bytes: Buffer) => Array.from(bytes, (b) => chars[b]).join("");
  const tokens = Array.from(byRank, (bytes) => (bytes ? text(bytes) : ""));
  const rank = new Map<string, number>();
  tokens.forEach((token, i) => {
    if (token) rank.set(token, i);
  });
  const merges: string[] = [];
  tokens.forEach((token, i) => {
    const letters = Array.from(token);
    if (letters.length < 2) return;
    const splits: Array<[number, number, string]> = [];
    for (let at = 1; at < letters.length; at += 1) {
      const left = letters.slice(0, at).join("");
      const right = letters.slice(at).join("");
      const l = rank.get(left);
      const r = rank.get(right);
      if (l !== undefined && r !== undefined && l < i && r < i) splits.push([l, r, `${left} ${right}`]);
    }
    splits.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    for (const split of splits) merges.push(split[2]);
  });
  return { tokens, merges };
}
