import { describe, expect, it } from "vitest";
import { parseRepeat } from "./repeat";

describe("parseRepeat (product.md §5 hidden repeat)", () => {
  it("sends plain text once", () => {
    expect(parseRepeat("  hello there ")).toEqual({ text: "hello there", count: 1 });
  });
  it("removes the marker and repeats N times", () => {
    expect(parseRepeat("hello .. 3.")).toEqual({ text: "hello", count: 3 });
    expect(parseRepeat("hi ..2. you")).toEqual({ text: "hi you", count: 2 });
  });
  it("caps N at 5 and sends at least once", () => {
    expect(parseRepeat("x .. 40.").count).toBe(5);
    expect(parseRepeat("x .. 0.").count).toBe(1);
  });
});
