import { describe, expect, it } from "vitest";
import { snippetParts } from "./search";

describe("search snippets", () => {
  it("cuts a snippet into plain and matched parts by the offsets", () => {
    expect(
      snippetParts({
        snippet: "say hello to you",
        marks: [
          [4, 9],
          [13, 16],
        ],
      }),
    ).toEqual([
      { text: "say ", match: false },
      { text: "hello", match: true },
      { text: " to ", match: false },
      { text: "you", match: true },
    ]);
    expect(snippetParts({ snippet: "<b>x</b>", marks: [] })).toEqual([{ text: "<b>x</b>", match: false }]);
  });

  it("ignores offsets that overlap, run backwards or past the end", () => {
    expect(
      snippetParts({
        snippet: "abcdef",
        marks: [
          [0, 2],
          [1, 3],
          [4, 4],
          [5, 99],
        ],
      }),
    ).toEqual([
      { text: "ab", match: true },
      { text: "cdef", match: false },
    ]);
  });
});
