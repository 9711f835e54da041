import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TINY_MODEL_PATH } from "../../testing/server";
import { LlamaEmbedder } from "./llama";

const hasModel = fs.existsSync(TINY_MODEL_PATH);
if (!hasModel)
  console.warn(`SKIPPED llama embedder: ${TINY_MODEL_PATH} not found (../shared/models is missing).`);

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * (b[i] as number), 0);

/**
 * The in-process embedder on the tiny real GGUF (stories260K): plumbing only, since this story
 * model's vectors mean little; a real embedding model (nomic-embed-text, bge) is what users run.
 */
describe.skipIf(!hasModel)("llama embedder with the tiny real GGUF (stories260K)", () => {
  let embedder: LlamaEmbedder;
  beforeAll(() => {
    embedder = new LlamaEmbedder({ modelPath: TINY_MODEL_PATH, threads: 1, gpu: "off" });
  });
  afterAll(async () => {
    await embedder?.close();
  });

  it("names the model by its file and loads nothing for no texts", async () => {
    expect(embedder.id).toBe("gguf:stories260K.gguf");
    expect(await embedder.embed([])).toEqual([]);
  });

  it("answers one finite unit-length vector per text, all of one length", async () => {
    const texts = ["Once upon a time there was a cat.", "The dog ran to the park.", "", "Lily"];
    const vectors = await embedder.embed(texts);
    expect(vectors).toHaveLength(texts.length);
    const size = vectors[0]!.length;
    expect(size).toBeGreaterThan(8);
    for (const v of vectors) {
      expect(v).toBeInstanceOf(Float32Array);
      expect(v.length).toBe(size);
      expect(v.every(Number.isFinite)).toBe(true);
      expect(Math.hypot(...v)).toBeCloseTo(1, 4);
    }
  });

  it("gives the same text the same vector, and different texts different ones", async () => {
    const [a, again, other] = await embedder.embed([
      "The little bird sang.",
      "The little bird sang.",
      "A big red ball.",
    ]);
    expect(Array.from(again!)).toEqual(Array.from(a!));
    expect(dot(a!, again!)).toBeCloseTo(1, 4);
    expect(dot(a!, other!)).toBeLessThan(0.9999);
  });

  it("cuts a text to the model's context instead of failing, and answers calls made at once", async () => {
    // A 256-token context and 300 emoji, each 4 byte tokens for this model: about 1200 tokens.
    const small = new LlamaEmbedder({
      modelPath: TINY_MODEL_PATH,
      threads: 1,
      gpu: "off",
      contextTokens: 256,
    });
    try {
      const long = "😀".repeat(300);
      const [one, two] = await Promise.all([small.embed([long]), small.embed(["Tom had a toy."])]);
      expect(Math.hypot(...one[0]!)).toBeCloseTo(1, 4);
      expect(Math.hypot(...two[0]!)).toBeCloseTo(1, 4);
      // What is cut off does not change the vector.
      const [cut] = await small.embed([long.slice(0, 200)]);
      expect(Array.from(cut!)).toEqual(Array.from(one[0]!));
    } finally {
      await small.close();
    }
  });

  it("stops at the caller's abort, and refuses work once closed", async () => {
    const aborted = AbortSignal.abort(new Error("stop now"));
    await expect(embedder.embed(["hello"], aborted)).rejects.toThrow("stop now");
    const closing = new LlamaEmbedder({ modelPath: TINY_MODEL_PATH, threads: 1, gpu: "off" });
    await closing.embed(["warm"]);
    await closing.close();
    await expect(closing.embed(["hello"])).rejects.toThrow(/closed/);
  });
});

describe("llama embedder without its file", () => {
  it("fails with a message naming the file, and keeps failing the same way", async () => {
    const missing = new LlamaEmbedder({ modelPath: "/nonexistent/embed.gguf", threads: 1, gpu: "off" });
    await expect(missing.embed(["hello"])).rejects.toThrow(
      /could not be loaded from \/nonexistent\/embed\.gguf/,
    );
    await expect(missing.embed(["again"])).rejects.toThrow(/could not be loaded/);
    await missing.close();
  });
});
