import { describe, expect, it } from "vitest";
import { cosineTopK, reciprocalRankFusion } from "./fusion";

const unit = (...values: number[]) => {
  const norm = Math.hypot(...values);
  return new Float32Array(values.map((v) => v / norm));
};

describe("reciprocalRankFusion (Cormack, Clarke & Büttcher 2009)", () => {
  it("scores each id Σ 1/(k + rank) over the lists it is in, with k = 60 by default", () => {
    const fused = reciprocalRankFusion([
      ["a", "b", "c"],
      ["c", "a", "d"],
    ]);
    expect(fused.map((r) => r.id)).toEqual(["a", "c", "b", "d"]);
    const byId = Object.fromEntries(fused.map((r) => [r.id, r]));
    expect(byId.a!.score).toBeCloseTo(1 / 61 + 1 / 62, 12);
    expect(byId.c!.score).toBeCloseTo(1 / 63 + 1 / 61, 12);
    expect(byId.b!.score).toBeCloseTo(1 / 62, 12);
    expect(byId.d!.score).toBeCloseTo(1 / 63, 12);
    expect(byId.a!.lists).toEqual([0, 1]);
    expect(byId.b!.lists).toEqual([0]);
    expect(byId.d!.lists).toEqual([1]);
  });

  it("lets agreement between lists beat one list's top hit", () => {
    // "x" is first in the words' list only; "y" is second in both.
    const fused = reciprocalRankFusion([
      ["x", "y"],
      ["z", "y"],
    ]);
    expect(fused[0]).toEqual({ id: "y", score: 2 / 62, lists: [0, 1] });
  });

  it("uses the given k: a small k favours the top ranks", () => {
    // With k = 0: p = 1/1 = 1; q = 1/2 + 1/2 = 1, a tie kept in first-met order.
    const lists = [
      ["p", "q"],
      ["r", "q"],
    ];
    expect(reciprocalRankFusion(lists, 0).map((r) => [r.id, r.score])).toEqual([
      ["p", 1],
      ["q", 1],
      ["r", 1],
    ]);
    expect(reciprocalRankFusion(lists, 60)[0]!.id).toBe("q");
    expect(() => reciprocalRankFusion(lists, -1)).toThrow(RangeError);
    expect(() => reciprocalRankFusion(lists, Number.NaN)).toThrow(RangeError);
  });

  it("breaks ties by first appearance, reading list 0 first", () => {
    const fused = reciprocalRankFusion([
      ["m", "n"],
      ["o", "p"],
    ]);
    expect(fused.map((r) => r.id)).toEqual(["m", "o", "n", "p"]);
    const reversed = reciprocalRankFusion([
      ["o", "p"],
      ["m", "n"],
    ]);
    expect(reversed.map((r) => r.id)).toEqual(["o", "m", "p", "n"]);
  });

  it("counts an id repeated in one list once, at its best place", () => {
    const fused = reciprocalRankFusion([["a", "b", "a"], ["b"]]);
    const a = fused.find((r) => r.id === "a")!;
    expect(a.score).toBeCloseTo(1 / 61, 12);
    expect(a.lists).toEqual([0]);
    expect(fused.find((r) => r.id === "b")).toEqual({ id: "b", score: 1 / 62 + 1 / 61, lists: [0, 1] });
  });

  it("answers nothing for no lists or empty ones, and one list's order for one list", () => {
    expect(reciprocalRankFusion([])).toEqual([]);
    expect(reciprocalRankFusion([[], []])).toEqual([]);
    expect(reciprocalRankFusion([["c", "a", "b"]]).map((r) => r.id)).toEqual(["c", "a", "b"]);
  });
});

describe("cosineTopK", () => {
  const vectors = [
    { id: "east", vector: unit(1, 0, 0) },
    { id: "north-east", vector: unit(1, 1, 0) },
    { id: "north", vector: unit(0, 1, 0) },
    { id: "west", vector: unit(-1, 0, 0) },
    { id: "other model", vector: unit(1, 0) },
  ];

  it("answers the k nearest by dot product, best first", () => {
    const top = cosineTopK(unit(1, 0.2, 0), vectors, 3);
    expect(top.map((r) => r.id)).toEqual(["east", "north-east", "north"]);
    expect(top[0]!.score).toBeCloseTo(1 / Math.hypot(1, 0.2), 6);
    expect(top[1]!.score).toBeCloseTo((1 + 0.2) / (Math.hypot(1, 0.2) * Math.SQRT2), 6);
  });

  it("skips vectors of another length and answers all when k is larger", () => {
    const all = cosineTopK(unit(-1, 0, 0), vectors, 10);
    expect(all.map((r) => r.id)).toEqual(["west", "north", "north-east", "east"]);
    expect(all[0]!.score).toBeCloseTo(1, 6);
    expect(all[3]!.score).toBeCloseTo(-1, 6);
  });

  it("answers none for k of 0 or less, rounds a fractional k down, and keeps input order on ties", () => {
    expect(cosineTopK(unit(1, 0, 0), vectors, 0)).toEqual([]);
    expect(cosineTopK(unit(1, 0, 0), vectors, -2)).toEqual([]);
    expect(cosineTopK(unit(1, 0, 0), vectors, 1.9)).toHaveLength(1);
    const twins = [
      { id: "first", vector: unit(0, 1) },
      { id: "second", vector: unit(0, 1) },
    ];
    expect(cosineTopK(unit(0, 1), twins, 2).map((r) => r.id)).toEqual(["first", "second"]);
    expect(cosineTopK(unit(0, 1), [], 5)).toEqual([]);
  });
});
