import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type EmbeddingsDouble,
  scriptedVector,
  startEmbeddingsDouble,
} from "../../testing/embeddings-server";
import { ProviderHttpError } from "../http";
import { MAX_EMBED_BATCH, MAX_EMBED_TEXT_CHARS } from "./embeddings";
import { OpenAiEmbedder } from "./openai";

/** The double's vector for `text`, scaled to unit length: what the embedder must answer. */
function expectedUnit(text: string): number[] {
  const v = scriptedVector(text);
  const norm = Math.hypot(...v);
  return v.map((x) => x / norm);
}

function expectVector(actual: Float32Array | undefined, text: string): void {
  expect(actual).toBeInstanceOf(Float32Array);
  const expected = expectedUnit(text);
  expect(actual!.length).toBe(expected.length);
  for (const [i, x] of expected.entries()) expect(actual![i]).toBeCloseTo(x, 6);
}

let double: EmbeddingsDouble;
beforeAll(async () => {
  double = await startEmbeddingsDouble();
});
afterAll(async () => {
  await double.close();
});
beforeEach(() => {
  double.calls.length = 0;
  double.behaviour = {};
});

const embedder = (options: { apiKey?: string; timeoutMs?: number } = {}) =>
  new OpenAiEmbedder({
    baseUrl: `${double.baseUrl}/`,
    apiKey: options.apiKey ?? "",
    model: "nomic-embed-text",
    timeoutMs: options.timeoutMs ?? 5000,
  });

describe("OpenAI-compatible embeddings (POST /v1/embeddings)", () => {
  it("sends { model, input } and answers unit-length vectors in the texts' order", async () => {
    const texts = ["alpha", "be", "gamma ray burst"];
    const vectors = await embedder().embed(texts);
    expect(double.calls).toEqual([{ model: "nomic-embed-text", input: texts, authorization: "" }]);
    expect(vectors).toHaveLength(3);
    for (const [i, text] of texts.entries()) expectVector(vectors[i], text);
    for (const v of vectors) expect(Math.hypot(...v)).toBeCloseTo(1, 6);
    expect(embedder().id).toBe("openai:nomic-embed-text");
  });

  it("puts the vectors back in order by index when the server answers out of order", async () => {
    double.behaviour = { reverse: true };
    const texts = ["first text", "second", "third one here"];
    const vectors = await embedder().embed(texts);
    for (const [i, text] of texts.entries()) expectVector(vectors[i], text);
  });

  it("splits more than 64 texts into requests of at most 64, in order", async () => {
    const texts = Array.from(
      { length: 2 * MAX_EMBED_BATCH + 2 },
      (_, i) => `message number ${i} ${"x".repeat(i)}`,
    );
    double.behaviour = { reverse: true };
    const vectors = await embedder().embed(texts);
    expect(double.calls.map((c) => c.input.length)).toEqual([64, 64, 2]);
    expect(double.calls.flatMap((c) => c.input)).toEqual(texts);
    expect(vectors).toHaveLength(texts.length);
    for (const [i, text] of texts.entries()) expectVector(vectors[i], text);
  });

  it("sends the key as a bearer token, and no Authorization header without one", async () => {
    await embedder({ apiKey: "sk-test" }).embed(["hello"]);
    await embedder().embed(["hello"]);
    expect(double.calls.map((c) => c.authorization)).toEqual(["Bearer sk-test", ""]);
  });

  it("cuts long texts, sends a blank text as one space, and makes no request for no texts", async () => {
    await embedder().embed(["y".repeat(MAX_EMBED_TEXT_CHARS + 500), "", "   "]);
    expect(double.calls[0]!.input.map((t) => t.length)).toEqual([MAX_EMBED_TEXT_CHARS, 1, 1]);
    expect(double.calls[0]!.input.slice(1)).toEqual([" ", " "]);
    expect(await embedder().embed([])).toEqual([]);
    expect(double.calls).toHaveLength(1);
  });

  it("throws a clear error on a 500 answer, naming the URL, the status and the body", async () => {
    double.behaviour = { failWith: 500 };
    const failure = embedder().embed(["hello"]);
    await expect(failure).rejects.toBeInstanceOf(ProviderHttpError);
    await expect(failure).rejects.toThrow(/\/v1\/embeddings: HTTP 500 .*the model crashed/);
  });

  it("gives up on a server that never answers after the time limit", async () => {
    double.behaviour = { hang: true };
    const started = performance.now();
    const failure = embedder({ timeoutMs: 150 }).embed(["hello"]);
    await expect(failure).rejects.toBeInstanceOf(ProviderHttpError);
    await expect(failure).rejects.toThrow(/\/v1\/embeddings: .*(timeout|aborted)/i);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(double.calls).toHaveLength(1);
  });

  it("rejects with the caller's reason when the caller aborts", async () => {
    double.behaviour = { hang: true };
    const controller = new AbortController();
    const failure = embedder().embed(["hello"], controller.signal);
    setTimeout(() => controller.abort(new Error("shutting down")), 50);
    await expect(failure).rejects.toThrow("shutting down");
    const aborted = AbortSignal.abort(new Error("already gone"));
    await expect(embedder().embed(["hello"], aborted)).rejects.toThrow("already gone");
  });

  it("refuses answers that are not the embeddings format", async () => {
    const cases: Array<[string, RegExp]> = [
      ["not json", /malformed embeddings answer \(not JSON/],
      ['{"error":"x"}', /no data array/],
      ['{"data":[]}', /0 vectors for 2 texts/],
      ['{"data":[{"index":0,"embedding":[1,0]},{"index":0,"embedding":[0,1]}]}', /index 0 twice/],
      ['{"data":[{"index":0,"embedding":[1,0]},{"index":5,"embedding":[0,1]}]}', /index 5 out of range/],
      [
        '{"data":[{"index":0,"embedding":[1,0]},{"index":1,"embedding":"AAAA"}]}',
        /no embedding array at index 1/,
      ],
      ['{"data":[{"index":0,"embedding":[0,0]},{"index":1,"embedding":[0,1]}]}', /at index 0: .*zero vector/],
      [
        '{"data":[{"index":0,"embedding":[1,0]},{"index":1,"embedding":[0,"a"]}]}',
        /at index 1: .*not a finite/,
      ],
      ['{"data":[{"index":0,"embedding":[1,0]},{"index":1,"embedding":[0,1,0]}]}', /differ in length/],
    ];
    for (const [rawBody, message] of cases) {
      double.behaviour = { rawBody };
      await expect(embedder().embed(["a", "b"]), rawBody).rejects.toThrow(message);
    }
  });

  it("accepts an answer without index fields as being in order", async () => {
    double.behaviour = { rawBody: '{"data":[{"embedding":[3,4]},{"embedding":[0,2]}]}' };
    const [a, b] = await embedder().embed(["a", "b"]);
    expect(Array.from(a!)).toEqual([expect.closeTo(0.6, 6), expect.closeTo(0.8, 6)]);
    expect(Array.from(b!)).toEqual([0, 1]);
  });

  it("refuses a batch size outside 1 to 64", () => {
    const make = (batchSize: number) => () =>
      new OpenAiEmbedder({ baseUrl: double.baseUrl, apiKey: "", model: "m", batchSize });
    expect(make(0)).toThrow(RangeError);
    expect(make(65)).toThrow(RangeError);
    expect(make(8)).not.toThrow();
  });
});
