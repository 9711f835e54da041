import { describe, expect, it } from "vitest";
import { isNewerVersion } from "./appUpdate";

describe("isNewerVersion (product.md §4 cache busting)", () => {
  it("compares dotted versions part by part as numbers", () => {
    expect(isNewerVersion("1.0.29", "1.0.28")).toBe(true);
    expect(isNewerVersion("1.0.100", "1.0.28")).toBe(true);
    expect(isNewerVersion("1.1", "1.0.28")).toBe(true);
    expect(isNewerVersion("2.0.0", "1.9.99")).toBe(true);
  });

  it("is false for the same or an older version", () => {
    expect(isNewerVersion("1.0.28", "1.0.28")).toBe(false);
    expect(isNewerVersion("1.0.28.0", "1.0.28")).toBe(false);
    expect(isNewerVersion("1.0.9", "1.0.28")).toBe(false);
    expect(isNewerVersion("0.9", "1.0.28")).toBe(false);
  });

  it("never asks for a reload on an unreadable version", () => {
    expect(isNewerVersion("", "1.0.28")).toBe(false);
    expect(isNewerVersion("latest", "1.0.28")).toBe(false);
    expect(isNewerVersion("1.0.x", "1.0.28")).toBe(false);
  });

  it("accepts a leading v", () => {
    expect(isNewerVersion("v1.0.29", "1.0.28")).toBe(true);
  });
});
