import { describe, expect, it } from "vitest";
import type { CharacterBook } from "../../../common/api";
import { draftsFromBook, lorebookField, newDraft, splitKeys } from "./lorebookDraft";

describe("lorebook editor state", () => {
  it("splits comma-separated keys, dropping blanks", () => {
    expect(splitKeys(" dragon, wyvern ,, ")).toEqual(["dragon", "wyvern"]);
  });

  it("sends a new entry with the defaults and drops blank ones", () => {
    const entry = { ...newDraft(), keys: "jazz, sax", content: "Nova plays the saxophone." };
    const json = lorebookField(null, [entry, newDraft()]);
    expect(JSON.parse(json)).toEqual({
      entries: [
        {
          keys: ["jazz", "sax"],
          secondary_keys: [],
          content: "Nova plays the saxophone.",
          enabled: true,
          constant: false,
          selective: false,
          case_sensitive: false,
          insertion_order: 100,
          position: "after_char",
        },
      ],
    });
    expect(lorebookField(null, [newDraft()])).toBe("");
  });

  it("keeps the book's settings and the fields the editor does not show", () => {
    const book: CharacterBook = {
      scan_depth: 4,
      recursive_scanning: true,
      entries: [
        {
          id: 7,
          keys: ["amulet"],
          secondary_keys: ["throne"],
          content: "Stolen.",
          enabled: true,
          constant: false,
          selective: true,
          case_sensitive: true,
          insertion_order: 42,
          position: "before_char",
          comment: "theft",
        },
      ],
    };
    const [draft] = draftsFromBook(book);
    expect(draft).toMatchObject({ keys: "amulet", secondaryKeys: "throne", selective: true });
    const sent = JSON.parse(lorebookField(book, [{ ...draft!, content: "Found again." }])) as CharacterBook;
    expect(sent.scan_depth).toBe(4);
    expect(sent.recursive_scanning).toBe(true);
    expect(sent.entries[0]).toMatchObject({
      id: 7,
      case_sensitive: true,
      insertion_order: 42,
      comment: "theft",
      content: "Found again.",
    });
  });
});
