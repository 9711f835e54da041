import { describe, expect, it } from "vitest";
import { firstParagraphs, formatHourMinute, isInAppPath, truncate } from "./text";

describe("truncate", () => {
  it("keeps text of at most 50 characters as is (product.md §9)", () => {
    expect(truncate("a".repeat(50))).toEqual({ text: "a".repeat(50), truncated: false });
  });

  it("cuts longer text at 50 characters and adds an ellipsis", () => {
    const result = truncate(`${"b".repeat(60)}`);
    expect(result.truncated).toBe(true);
    expect(result.text).toBe(`${"b".repeat(50)}...`);
  });

  it("counts characters, not UTF-16 units", () => {
    expect(truncate("😀".repeat(3), 2).text).toBe("😀😀...");
  });
});

describe("firstParagraphs", () => {
  it("returns the first two non-blank paragraphs", () => {
    expect(firstParagraphs("One.\n\nTwo.\r\nThree.")).toEqual(["One.", "Two."]);
  });

  it("returns fewer when the text has fewer", () => {
    expect(firstParagraphs("  Only one  ")).toEqual(["Only one"]);
    expect(firstParagraphs("")).toEqual([]);
  });
});

describe("formatHourMinute", () => {
  it("formats local hour:minute with two digits each", () => {
    const date = new Date(2024, 0, 2, 7, 5);
    expect(formatHourMinute(date.toISOString())).toBe("07:05");
  });

  it("returns an empty string for missing or invalid times", () => {
    expect(formatHourMinute("")).toBe("");
    expect(formatHourMinute("not a date")).toBe("");
  });
});

describe("isInAppPath", () => {
  it("accepts in-app paths only", () => {
    expect(isInAppPath("/characters/list")).toBe(true);
    expect(isInAppPath("//evil.example")).toBe(false);
    expect(isInAppPath("https://evil.example")).toBe(false);
    expect(isInAppPath(undefined)).toBe(false);
  });
});
