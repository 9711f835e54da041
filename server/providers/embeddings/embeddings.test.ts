import { describe, expect, it } from "vitest";
import { ProviderError } from "../http";
import {
  bufferToVector,
  embeddingInput,
  MAX_EMBED_TEXT_CHARS,
  unitVector,
  vectorToBuffer,
} from "./embeddings";

describe("vectors as stored bytes (little-endian float32)", () => {
  it("writes 4 bytes a value, little-endian, and reads back the same values", () => {
    const v = new Float32Array([1, -2.5, 0.1, 3.4028234663852886e38, -0]);
    const bytes = vectorToBuffer(v);
    expect(bytes.length).toBe(20);
    // 1.0f is 0x3f800000: little-endian puts the low byte first.
    expect([...bytes.subarray(0, 4)]).toEqual([0x00, 0x00, 0x80, 0x3f]);
    expect([...bytes.subarray(4, 8)]).toEqual([0x00, 0x00, 0x20, 0xc0]);
    const back = bufferToVector(bytes);
    expect(back).toBeInstanceOf(Float32Array);
    expect(Array.from(back)).toEqual(Array.from(v));
    expect(Object.is(back[4], -0)).toBe(true);
  });

  it("reads bytes at an odd offset of a larger buffer, as drivers hand them out", () => {
    const stored = vectorToBuffer(new Float32Array([0.25, -8]));
    const pool = new Uint8Array(stored.length + 3);
    pool.set(stored, 3);
    expect(Array.from(bufferToVector(pool.subarray(3)))).toEqual([0.25, -8]);
    expect(bufferToVector(new Uint8Array(0))).toHaveLength(0);
  });

  it("refuses a length that is not a multiple of 4 bytes", () => {
    expect(() => bufferToVector(new Uint8Array(6))).toThrow(RangeError);
  });
});

describe("unit vectors and the text as embedded", () => {
  it("scales to unit length", () => {
    expect(Array.from(unitVector([3, 4]))).toEqual([expect.closeTo(0.6, 6), expect.closeTo(0.8, 6)]);
    const v = unitVector([1, 2, 3, 4, 5]);
    expect(Math.hypot(...v)).toBeCloseTo(1, 6);
  });

  it("refuses empty, zero and non-finite vectors", () => {
    expect(() => unitVector([])).toThrow(ProviderError);
    expect(() => unitVector([0, 0])).toThrow(/zero vector/);
    expect(() => unitVector([1, Number.NaN])).toThrow(/value 1 is not a finite number/);
    expect(() => unitVector([1, Number.POSITIVE_INFINITY])).toThrow(/not a finite/);
  });

  it("cuts a long text, never inside a surrogate pair, and stands in a space for a blank one", () => {
    expect(embeddingInput("short")).toBe("short");
    expect(embeddingInput("a".repeat(MAX_EMBED_TEXT_CHARS + 1))).toHaveLength(MAX_EMBED_TEXT_CHARS);
    // An emoji (two UTF-16 units) across the cut is dropped whole.
    const emoji = `${"a".repeat(MAX_EMBED_TEXT_CHARS - 1)}😀tail`;
    expect(embeddingInput(emoji)).toBe("a".repeat(MAX_EMBED_TEXT_CHARS - 1));
    expect(embeddingInput("")).toBe(" ");
    expect(embeddingInput(" \n\t")).toBe(" ");
  });
});
