import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { cl100kVocabulary } from "./bpe-tokenizer";

/** Bump when the file's content changes: the cached file under the old name is then ignored. */
const VERSION = 3;
const FILE_PREFIX = "qwen2.5-1.5b-shape-q4_0-random-";
const FILE_NAME = `${FILE_PREFIX}v${VERSION}.gguf`;

/** Qwen2.5-1.5B-Instruct's shape (its config.json). */
const SHAPE = {
  blocks: 28,
  embedding: 1536,
  heads: 12,
  kvHeads: 2,
  headDim: 128,
  ffn: 8960,
  context: 32768,
  ropeFreqBase: 1_000_000,
  rmsEps: 1e-6,
  vocab: 151936,
};

/** Qwen2.5's chat template (tokenizer_config.json), ChatML with a default system prompt and tools. */
const QWEN25_CHAT_TEMPLATE = `{%- if tools %}
    {{- '<|im_start|>system\\n' }}
    {%- if messages[0]['role'] == 'system' %}
        {{- messages[0]['content'] }}
    {%- else %}
        {{- 'You are Qwen, created by Alibaba Cloud. You are a helpful assistant.' }}
    {%- endif %}
    {{- "\\n\\n# Tools\\n\\nYou may call one or more functions to assist with the user query.\\n\\nYou are provided with function signatures within <tools></tools> XML tags:\\n<tools>" }}
    {%- for tool in tools %}
        {{- "\\n" }}
        {{- tool | tojson }}
    {%- endfor %}
    {{- "\\n</tools>\\n\\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\\n<tool_call>\\n{\\"name\\": <function-name>, \\"arguments\\": <args-json-object>}\\n</tool_call><|im_end|>\\n" }}
{%- else %}
    {%- if messages[0]['role'] == 'system' %}
        {{- '<|im_start|>system\\n' + messages[0]['content'] + '<|im_end|>\\n' }}
    {%- else %}
        {{- '<|im_start|>system\\nYou are Qwen, created by Alibaba Cloud. You are a helpful assistant.<|im_end|>\\n' }}
    {%- endif %}
{%- endif %}
{%- for message in messages %}
    {%- if (message.role == "user") or (message.role == "system" and not loop.first) or (message.role == "assistant" and not message.tool_calls) %}
        {{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>' + '\\n' }}
    {%- elif message.role == "assistant" %}
        {{- '<|im_start|>' + message.role }}
        {%- if message.content %}
            {{- '\\n' + message.content }}
        {%- endif %}
        {%- for tool_call in message.tool_calls %}
            {%- if tool_call.function is defined %}
                {%- set tool_call = tool_call.function %}
            {%- endif %}
            {{- '\\n<tool_call>\\n{"name": "' }}
            {{- tool_call.name }}
            {{- '", "arguments": ' }}
            {{- tool_call.arguments | tojson }}
            {{- '}\\n</tool_call>' }}
        {%- endfor %}
        {{- '<|im_end|>\\n' }}
    {%- elif message.role == "tool" %}
        {%- if (loop.index0 == 0) or (messages[loop.index0 - 1].role != "tool") %}
            {{- '<|im_start|>user' }}
        {%- endif %}
        {{- '\\n<tool_response>\\n' }}
        {{- message.content }}
        {{- '\\n</tool_response>' }}
        {%- if loop.last or (messages[loop.index0 + 1].role != "tool") %}
            {{- '<|im_end|>\\n' }}
        {%- endif %}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|im_start|>assistant\\n' }}
{%- endif %}
`;

/** GGUF metadata value types (gguf.h). */
const KV = { u32: 4, i32: 5, f32: 6, bool: 7, string: 8, array: 9 } as const;
/** ggml tensor types used here. */
const F32 = 0;
const Q4_0 = 2;
/** Q4_0: 32 weights a block, an f16 scale then 16 bytes of 4-bit quants. */
const Q4_0_BLOCK_BYTES = 18;
/** The f16 scale of every block, 2^-6 = 0.015625 (weights -0.125..0.11, std ~0.07): activations stay finite. */
const Q4_0_SCALE_F16 = 0x2400;
/** llama.cpp token types. */
const TOKEN_TYPE = { normal: 1, control: 3, unused: 5 } as const;
const ALIGNMENT = 32;
/** Bytes per write of tensor data. */
const CHUNK_BYTES = 4 * 1024 * 1024;

type MetaValue =
  | { type: "u32"; value: number }
  | { type: "f32"; value: number }
  | { type: "bool"; value: boolean }
  | { type: "string"; value: string }
  | { type: "strings"; value: readonly string[] }
  | { type: "f32s"; value: readonly number[] }
  | { type: "i32s"; value: readonly number[] };

interface TensorSpec {
  name: string;
  /** GGUF order: ne[0] is a row's length (the matrix's input size). */
  dims: number[];
  type: typeof F32 | typeof Q4_0;
  /** F32 tensors: every element's value. */
  fill?: number;
  /** Q4_0 tensors: whether row `i` (ne[1]) has random weights; the others are zero. Default: all. */
  live?: (row: number) => boolean;
}

/** A little-endian byte buffer that grows as it is written. */
class ByteWriter {
  private buffer = Buffer.alloc(1 << 20);
  length = 0;

  private reserve(bytes: number): void {
    if (this.length + bytes <= this.buffer.length) return;
    const grown = Buffer.alloc(Math.max(this.buffer.length * 2, this.length + bytes));
    this.buffer.copy(grown, 0, 0, this.length);
    this.buffer = grown;
  }
  /** Makes room for `bytes`, then `write`s at the end (a Buffer write method: it returns the new end). */
  private put(bytes: number, write: (buffer: Buffer, offset: number) => number): void {
    this.reserve(bytes);
    this.length = write(this.buffer, this.length);
  }
  u32(value: number): void {
    this.put(4, (buffer, offset) => buffer.writeUInt32LE(value, offset));
  }
  i32(value: number): void {
    this.put(4, (buffer, offset) => buffer.writeInt32LE(value, offset));
  }
  u64(value: number): void {
    this.put(8, (buffer, offset) => buffer.writeBigUInt64LE(BigInt(value), offset));
  }
  f32(value: number): void {
    this.put(4, (buffer, offset) => buffer.writeFloatLE(value, offset));
  }
  u8(value: number): void {
    this.put(1, (buffer, offset) => buffer.writeUInt8(value, offset));
  }
  string(text: string): void {
    const bytes = Buffer.byteLength(text);
    this.u64(bytes);
    this.reserve(bytes);
    this.length += this.buffer.write(text, this.length, "utf8");
  }
  pad(alignment: number): void {
    const padding = (alignment - (this.length % alignment)) % alignment;
    this.reserve(padding);
    this.buffer.fill(0, this.length, this.length + padding);
    this.length += padding;
  }
  bytes(): Buffer {
    return this.buffer.subarray(0, this.length);
  }
}

function writeValue(out: ByteWriter, meta: MetaValue): void {
  const array = (type: number, count: number) => {
    out.u32(KV.array);
    out.u32(type);
    out.u64(count);
  };
  switch (meta.type) {
    case "u32":
      out.u32(KV.u32);
      out.u32(meta.value);
      break;
    case "f32":
      out.u32(KV.f32);
      out.f32(meta.value);
      break;
    case "bool":
      out.u32(KV.bool);
      out.u8(meta.value ? 1 : 0);
      break;
    case "string":
      out.u32(KV.string);
      out.string(meta.value);
      break;
    case "strings":
      array(KV.string, meta.value.length);
      for (const text of meta.value) out.string(text);
      break;
    case "f32s":
      array(KV.f32, meta.value.length);
      for (const value of meta.value) out.f32(value);
      break;
    case "i32s":
      array(KV.i32, meta.value.length);
      for (const value of meta.value) out.i32(value);
      break;
  }
}

function tensorBytes(spec: TensorSpec): number {
  const count = spec.dims.reduce((a, b) => a * b, 1);
  return spec.type === F32 ? count * 4 : (count / 32) * Q4_0_BLOCK_BYTES;
}

/**
 * The tensors in file order. `tokenTypes`: each token's llama.cpp type; the embedding rows of
 * tokens other than normal ones are zero, so that with the tied output their logits are 0 while a
 * normal token's are random: sampling (greedy, or top-k) then picks normal tokens, which have
 * text, and never an end of generation, so every reply runs to its token limit.
 */
function tensorSpecs(tokenTypes: readonly number[]): TensorSpec[] {
  const { embedding: e, kvHeads, headDim, ffn, vocab } = SHAPE;
  const kv = kvHeads * headDim;
  const specs: TensorSpec[] = [
    {
      name: "token_embd.weight",
      dims: [e, vocab],
      type: Q4_0,
      live: (row) => tokenTypes[row] === TOKEN_TYPE.normal,
    },
  ];
  for (let i = 0; i < SHAPE.blocks; i += 1) {
    const blk = (name: string) => `blk.${i}.${name}`;
    specs.push(
      { name: blk("attn_norm.weight"), dims: [e], type: F32, fill: 1 },
      { name: blk("attn_q.weight"), dims: [e, e], type: Q4_0 },
      { name: blk("attn_q.bias"), dims: [e], type: F32, fill: 0 },
      { name: blk("attn_k.weight"), dims: [e, kv], type: Q4_0 },
      { name: blk("attn_k.bias"), dims: [kv], type: F32, fill: 0 },
      { name: blk("attn_v.weight"), dims: [e, kv], type: Q4_0 },
      { name: blk("attn_v.bias"), dims: [kv], type: F32, fill: 0 },
      { name: blk("attn_output.weight"), dims: [e, e], type: Q4_0 },
      { name: blk("ffn_norm.weight"), dims: [e], type: F32, fill: 1 },
      { name: blk("ffn_gate.weight"), dims: [e, ffn], type: Q4_0 },
      { name: blk("ffn_up.weight"), dims: [e, ffn], type: Q4_0 },
      { name: blk("ffn_down.weight"), dims: [ffn, e], type: Q4_0 },
    );
  }
  // No output.weight: the output is tied to token_embd, as in Qwen2.5-1.5B.
  specs.push({ name: "output_norm.weight", dims: [e], type: F32, fill: 1 });
  return specs;
}

/**
 * A real byte-level BPE tokenizer, cl100k_base (support/bpe-tokenizer.ts: Qwen2.5's is the same
 * vocabulary extended, with the same pre-tokenizer), plus Qwen's `<|endoftext|>`, `<|im_start|>`
 * and `<|im_end|>` (control tokens), padded with unused tokens to Qwen2.5's vocabulary size.
 */
async function tokenizer(): Promise<{ metadata: Array<[string, MetaValue]>; types: number[] }> {
  const { tokens: base, merges } = cl100kVocabulary();
  const tokens = base.map((token, i) => token || `<|unused_rank_${i}|>`);
  const types: number[] = base.map((token) => (token ? TOKEN_TYPE.normal : TOKEN_TYPE.unused));
  const endOfText = tokens.push("<|endoftext|>") - 1;
  tokens.push("<|im_start|>");
  const imEnd = tokens.push("<|im_end|>") - 1;
  types.push(TOKEN_TYPE.control, TOKEN_TYPE.control, TOKEN_TYPE.control);
  for (let i = 0; tokens.length < SHAPE.vocab; i += 1) {
    tokens.push(`<|extra_${i}|>`);
    types.push(TOKEN_TYPE.unused);
  }
  const metadata: Array<[string, MetaValue]> = [
    ["tokenizer.ggml.model", { type: "string", value: "gpt2" }],
    ["tokenizer.ggml.pre", { type: "string", value: "qwen2" }],
    ["tokenizer.ggml.tokens", { type: "strings", value: tokens }],
    ["tokenizer.ggml.token_type", { type: "i32s", value: types }],
    ["tokenizer.ggml.merges", { type: "strings", value: merges }],
    ["tokenizer.ggml.bos_token_id", { type: "u32", value: endOfText }],
    ["tokenizer.ggml.eos_token_id", { type: "u32", value: imEnd }],
    ["tokenizer.ggml.padding_token_id", { type: "u32", value: endOfText }],
    // As Qwen2.5's own GGUF files: no BOS in front of the prompt.
    ["tokenizer.ggml.add_bos_token", { type: "bool", value: false }],
    ["tokenizer.chat_template", { type: "string", value: QWEN25_CHAT_TEMPLATE }],
  ];
  return { metadata, types };
}

/** Writes `bytes` bytes to `fd`, `source` repeated (its length a multiple of the blocks'). */
function writeRepeated(fd: number, source: Buffer, bytes: number): void {
  for (let left = bytes; left > 0; left -= source.length)
    fs.writeSync(fd, source, 0, Math.min(left, source.length));
}

/** A Q4_0 tensor's data: rows from the random `pattern`, or zeros for rows `spec.live` rejects. */
function writeQ4(fd: number, spec: TensorSpec, pattern: Buffer, zeros: Buffer): void {
  const rowBytes = (spec.dims[0]! / 32) * Q4_0_BLOCK_BYTES;
  const rows = tensorBytes(spec) / rowBytes;
  const live = spec.live ?? (() => true);
  // Runs of rows of the same kind, each written in large chunks.
  for (let start = 0; start < rows; ) {
    const kind = live(start);
    let end = start + 1;
    while (end < rows && live(end) === kind) end += 1;
    writeRepeated(fd, kind ? pattern : zeros, (end - start) * rowBytes);
    start = end;
  }
}

async function writeModel(file: string): Promise<void> {
  const vocabulary = await tokenizer();
  const metadata: Array<[string, MetaValue]> = [
    ["general.architecture", { type: "string", value: "qwen2" }],
    ["general.name", { type: "string", value: "Qwen2.5 1.5B Instruct timing model (random weights)" }],
    ["general.file_type", { type: "u32", value: 2 }],
    ["general.alignment", { type: "u32", value: ALIGNMENT }],
    ["qwen2.block_count", { type: "u32", value: SHAPE.blocks }],
    ["qwen2.context_length", { type: "u32", value: SHAPE.context }],
    ["qwen2.embedding_length", { type: "u32", value: SHAPE.embedding }],
    ["qwen2.feed_forward_length", { type: "u32", value: SHAPE.ffn }],
    ["qwen2.attention.head_count", { type: "u32", value: SHAPE.heads }],
    ["qwen2.attention.head_count_kv", { type: "u32", value: SHAPE.kvHeads }],
    ["qwen2.rope.freq_base", { type: "f32", value: SHAPE.ropeFreqBase }],
    ["qwen2.attention.layer_norm_rms_epsilon", { type: "f32", value: SHAPE.rmsEps }],
    ...vocabulary.metadata,
  ];
  const tensors = tensorSpecs(vocabulary.types);

  const head = new ByteWriter();
  head.u32(0x46554747); // "GGUF"
  head.u32(3);
  head.u64(tensors.length);
  head.u64(metadata.length);
  for (const [key, value] of metadata) {
    head.string(key);
    writeValue(head, value);
  }
  const offsets: number[] = [];
  let offset = 0;
  for (const spec of tensors) {
    offsets.push(offset);
    head.string(spec.name);
    head.u32(spec.dims.length);
    for (const dim of spec.dims) head.u64(dim);
    head.u32(spec.type);
    head.u64(offset);
    offset += Math.ceil(tensorBytes(spec) / ALIGNMENT) * ALIGNMENT;
  }
  head.pad(ALIGNMENT);

  // Random quants repeated from one pattern of whole blocks, each with the same scale.
  const pattern = randomBytes(Math.floor(CHUNK_BYTES / Q4_0_BLOCK_BYTES) * Q4_0_BLOCK_BYTES);
  for (let at = 0; at < pattern.length; at += Q4_0_BLOCK_BYTES) pattern.writeUInt16LE(Q4_0_SCALE_F16, at);
  const zeros = Buffer.alloc(pattern.length);

  const fd = fs.openSync(file, "w");
  try {
    fs.writeSync(fd, head.bytes());
    let written = 0;
    tensors.forEach((spec, i) => {
      fs.writeSync(fd, zeros, 0, offsets[i]! - written);
      const bytes = tensorBytes(spec);
      if (spec.type === F32) {
        fs.writeSync(fd, Buffer.from(new Float32Array(bytes / 4).fill(spec.fill ?? 0).buffer));
      } else {
        writeQ4(fd, spec, pattern, zeros);
      }
      written = offsets[i]! + bytes;
    });
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * The timing model (benchmarks only): a GGUF in the shape of Qwen2.5-1.5B-Instruct, the model
 * the server downloads by default, with random weights, since how fast llama.cpp reads a prompt
 * and generates depends on the shape, not on the values. Shape: architecture `qwen2`, 28 blocks,
 * embedding 1536, 12 attention heads and 2 KV heads (head size 128), feed-forward 8960, training
 * context 32768, RoPE base 1e6, RMS norm eps 1e-6, vocabulary 151936, the output tied to the
 * token embedding; matrices Q4_0 (0.87 GB), norms 1 and biases 0 (f32). Its tokenizer is a real
 * byte-level BPE, cl100k_base from the npm package js-tiktoken (support/bpe-tokenizer.ts; Qwen2.5's
 * is that vocabulary extended, with the same pre-tokenizer, so prompts have about as many tokens
 * as with the real model), with Qwen's control tokens added and unused tokens padding it to
 * 151936, and Qwen2.5's chat template, so node-llama-cpp's `chatWrapper: "auto"` formats prompts
 * as ChatML (it resolves its `Qwen` wrapper).
 * Replies are noise made of the tokenizer's ordinary tokens, and always as long as allowed (no end
 * of generation is ever sampled).
 *
 * Written in a second or two on first use and cached in
 * `<os.tmpdir()>/companion-timing-model/` (rewritten when missing or when its version changes);
 * never committed.
 * @returns the GGUF's path.
 */
export async function timingModel(): Promise<string> {
  const dir = path.join(os.tmpdir(), "companion-timing-model");
  const file = path.join(dir, FILE_NAME);
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(dir, { recursive: true });
  // Older versions' files (about 0.9 GB each) go.
  for (const name of fs.readdirSync(dir)) {
    if (name.startsWith(FILE_PREFIX) && name.endsWith(".gguf"))
      fs.rmSync(path.join(dir, name), { force: true });
  }
  const partial = `${file}.${process.pid}.partial`;
  try {
    await writeModel(partial);
    fs.renameSync(partial, file);
  } finally {
    fs.rmSync(partial, { force: true });
  }
  return file;
}
