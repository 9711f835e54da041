import { describe, expect, it } from "vitest";
import {
  LOREBOOK_LIMITS,
  type Lorebook,
  parseLorebook,
  parseLorebookJson,
  selectLoreEntries,
  toCharacterBook,
} from "./lorebook";

const countWords = (t: string) => t.split(/\s+/).filter(Boolean).length;

/** A book from `character_book`-shaped entries (parsed like an imported card's). */
function book(entries: unknown[], settings: Record<string, unknown> = {}): Lorebook {
  const parsed = parseLorebook({ ...settings, entries });
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.book;
}

const names = (entries: Array<{ name: string }>) => entries.map((e) => e.name);
const select = (b: Lorebook, messages: string[]) => {
  const { before, after } = selectLoreEntries(b, messages, countWords);
  return { before: names(before), after: names(after) };
};

describe("lorebook matching", () => {
  it("inserts an entry whose key appears in the recent messages, case-insensitively by default", () => {
    const b = book([
      { name: "dragon", keys: ["Dragon"], content: "Dragons sleep in the north.", enabled: true },
    ]);
    expect(select(b, ["I saw a DRAGON today"]).after).toEqual(["dragon"]);
    expect(select(b, ["I saw a cat today"]).after).toEqual([]);
  });

  it("case_sensitive: the key must match its case", () => {
    const b = book([
      { name: "cs", keys: ["Rose"], content: "Rose is the gardener.", case_sensitive: true, enabled: true },
    ]);
    expect(select(b, ["a rose in the garden"]).after).toEqual([]);
    expect(select(b, ["Rose waves"]).after).toEqual(["cs"]);
  });

  it("constant: always inserted, even without keys", () => {
    const b = book([
      { name: "world", keys: [], content: "The world is flat.", constant: true, enabled: true },
    ]);
    expect(select(b, ["hello"]).after).toEqual(["world"]);
    expect(select(b, []).after).toEqual(["world"]);
  });

  it("enabled: false is never inserted, even when constant or matched", () => {
    const b = book([
      { name: "off", keys: ["moon"], content: "Off.", constant: true, enabled: false },
      { name: "off2", keys: ["moon"], content: "Off too.", enabled: false },
    ]);
    expect(select(b, ["the moon"]).after).toEqual([]);
  });

  it("selective: a primary key and at least one secondary key must both be found", () => {
    const b = book([
      {
        name: "sel",
        keys: ["sword"],
        secondary_keys: ["king", "queen"],
        selective: true,
        content: "The king's sword is cursed.",
        enabled: true,
      },
    ]);
    expect(select(b, ["a sword"]).after).toEqual([]);
    expect(select(b, ["the queen"]).after).toEqual([]);
    expect(select(b, ["the queen's sword"]).after).toEqual(["sel"]);
  });

  it("secondary keys are ignored when selective is false, and a selective entry without them needs only a key", () => {
    const b = book([
      {
        name: "plain",
        keys: ["sword"],
        secondary_keys: ["king"],
        selective: false,
        content: "A.",
        enabled: true,
      },
      { name: "empty", keys: ["sword"], secondary_keys: [], selective: true, content: "B.", enabled: true },
    ]);
    expect(select(b, ["a sword"]).after).toEqual(["plain", "empty"]);
  });

  it("scan_depth: only the newest messages are scanned (2 by default)", () => {
    const entries = [
      { name: "old", keys: ["lighthouse"], content: "The lighthouse is haunted.", enabled: true },
    ];
    const messages = ["the lighthouse", "something", "else"];
    expect(select(book(entries), messages).after).toEqual([]);
    expect(select(book(entries, { scan_depth: 3 }), messages).after).toEqual(["old"]);
    expect(select(book(entries, { scan_depth: 0 }), ["the lighthouse"]).after).toEqual([]);
  });

  it("position and insertion_order: before/after the character, lower insertion_order first", () => {
    const b = book([
      { name: "a3", keys: [], constant: true, content: "x", insertion_order: 30, enabled: true },
      {
        name: "b1",
        keys: [],
        constant: true,
        content: "x",
        insertion_order: 10,
        position: "before_char",
        enabled: true,
      },
      {
        name: "a1",
        keys: [],
        constant: true,
        content: "x",
        insertion_order: 5,
        position: "after_char",
        enabled: true,
      },
      {
        name: "b2",
        keys: [],
        constant: true,
        content: "x",
        insertion_order: 20,
        position: "before_char",
        enabled: true,
      },
    ]);
    expect(select(b, [])).toEqual({ before: ["b1", "b2"], after: ["a1", "a3"] });
  });

  it("token_budget: entries join by priority (highest insertion_order) and the first that does not fit stops the rest", () => {
    const b = book(
      [
        { name: "low", keys: [], constant: true, content: "one two", insertion_order: 1, enabled: true },
        {
          name: "high",
          keys: [],
          constant: true,
          content: "one two three four",
          insertion_order: 9,
          enabled: true,
        },
        {
          name: "mid",
          keys: [],
          constant: true,
          content: "one two three four five",
          insertion_order: 5,
          enabled: true,
        },
      ],
      { token_budget: 10 },
    );
    // high (4 words) fits; high+mid = 9 < 10 fits; +low = 11 >= 10 does not.
    expect(select(b, []).after).toEqual(["mid", "high"]);
    const tight = book(
      [
        { name: "big", keys: [], constant: true, content: "a b c d e f", insertion_order: 9, enabled: true },
        { name: "small", keys: [], constant: true, content: "a", insertion_order: 1, enabled: true },
      ],
      { token_budget: 6 },
    );
    // SillyTavern stops at the first overflow: the small entry after it is not tried.
    expect(select(tight, []).after).toEqual([]);
  });

  it("a budget from the prompt caps the book's", () => {
    const b = book([{ name: "e", keys: [], constant: true, content: "a b c d", enabled: true }], {
      token_budget: 100,
    });
    expect(names(selectLoreEntries(b, [], countWords, 3).after)).toEqual([]);
    expect(names(selectLoreEntries(b, [], countWords, 5).after)).toEqual(["e"]);
  });

  it("recursive_scanning: inserted content can trigger further entries, only when enabled", () => {
    const entries = [
      { name: "castle", keys: ["castle"], content: "The castle belongs to Mordred.", enabled: true },
      { name: "mordred", keys: ["mordred"], content: "Mordred is the king's nephew.", enabled: true },
      { name: "nephew", keys: ["nephew"], content: "A nephew inherits nothing.", enabled: true },
    ];
    expect(select(book(entries), ["the castle"]).after).toEqual(["castle"]);
    expect(select(book(entries, { recursive_scanning: true }), ["the castle"]).after).toEqual([
      "castle",
      "mordred",
      "nephew",
    ]);
  });

  it("recursion is bounded even when entries trigger each other forever", () => {
    const entries = Array.from({ length: 10 }, (_, i) => ({
      name: `e${i}`,
      keys: [`k${i}`],
      content: `k${i + 1}`,
      enabled: true,
    }));
    const chosen = select(book(entries, { recursive_scanning: true, token_budget: 1000 }), ["k0"]).after;
    expect(chosen).toEqual(["e0", "e1", "e2", "e3", "e4"]);
  });
});

describe("SillyTavern's semantics on a card's book", () => {
  it("inserts the constant entry and the matched selective entry, and leaves out the entry beyond the token budget", () => {
    // As a V2 card carries it (data.character_book), with the fields SillyTavern reads.
    const characterBook = {
      name: "Eldoria",
      scan_depth: 2,
      token_budget: 30,
      recursive_scanning: false,
      extensions: {},
      entries: [
        {
          id: 0,
          keys: [],
          content: "Eldoria is a kingdom of floating islands.",
          extensions: {},
          enabled: true,
          insertion_order: 100,
          constant: true,
          position: "before_char",
          comment: "constant",
        },
        {
          id: 1,
          keys: ["amulet"],
          secondary_keys: ["Queen Ysolde", "throne"],
          selective: true,
          content: "The amulet was stolen from Queen Ysolde's throne room.",
          extensions: {},
          enabled: true,
          insertion_order: 50,
          position: "after_char",
          comment: "selective",
        },
        {
          id: 2,
          keys: ["amulet"],
          secondary_keys: ["nobody says this"],
          selective: true,
          content: "Never inserted: its secondary key is not in the chat.",
          extensions: {},
          enabled: true,
          insertion_order: 60,
          position: "after_char",
          comment: "selective miss",
        },
        {
          id: 3,
          keys: ["island"],
          content:
            "The islands drift with the wind, and their shepherds follow them across the sky in little boats.",
          extensions: {},
          enabled: true,
          insertion_order: 10,
          position: "after_char",
          comment: "over budget",
        },
      ],
    };
    const parsed = parseLorebook(characterBook);
    if (!parsed.ok) throw new Error(parsed.message);
    const chat = [
      "nobody says this about the amulet any more", // beyond scan_depth 2: entry 2 stays out
      "Tell me about the amulet.",
      "They say it sat beside the throne, on the islands.",
    ];
    const { before, after } = selectLoreEntries(parsed.book, chat, countWords);
    // constant (7 words) + selective (9 words) = 16 < 30; + the island entry (17 words) = 33 >= 30.
    expect(before.map((e) => e.content)).toEqual(["Eldoria is a kingdom of floating islands."]);
    expect(after.map((e) => e.content)).toEqual(["The amulet was stolen from Queen Ysolde's throne room."]);
  });
});

describe("parsing a book", () => {
  it("ignores unknown fields and fills defaults", () => {
    const parsed = parseLorebook({
      entries: [{ keys: ["a"], content: "A", surprise: { deep: true } }],
      foo: 1,
    });
    expect(parsed).toEqual({
      ok: true,
      book: {
        name: "",
        scan_depth: null,
        token_budget: null,
        recursive_scanning: false,
        entries: [
          {
            id: null,
            name: "",
            comment: "",
            keys: ["a"],
            secondary_keys: [],
            content: "A",
            enabled: true,
            constant: false,
            selective: false,
            case_sensitive: false,
            insertion_order: 0,
            position: "after_char",
          },
        ],
      },
    });
  });

  it("refuses oversized and malformed books with a sentence", () => {
    const many = Array.from({ length: LOREBOOK_LIMITS.entries + 1 }, () => ({ keys: ["a"], content: "x" }));
    expect(parseLorebook({ entries: many })).toEqual({
      ok: false,
      message: "A lorebook can have at most 200 entries.",
    });
    expect(parseLorebook({ entries: [{ keys: ["a"], content: "x".repeat(2001) }] })).toEqual({
      ok: false,
      message: "The content of lorebook entry 1 must be at most 2000 characters.",
    });
    expect(parseLorebook({ entries: [{ keys: Array.from({ length: 21 }, (_, i) => `k${i}`) }] })).toEqual({
      ok: false,
      message: "Lorebook entry 1 has more than 20 keys.",
    });
    expect(parseLorebook({ entries: [{ keys: "dragon" }] })).toEqual({
      ok: false,
      message: "The keys of lorebook entry 1 must be a list of words.",
    });
    expect(parseLorebook([])).toEqual({ ok: false, message: "The lorebook must be an object with entries." });
    expect(parseLorebookJson("{nope")).toEqual({ ok: false, message: "The lorebook is not valid JSON." });
    expect(parseLorebookJson("  ")).toBeNull();
  });

  it("round-trips through the character_book shape", () => {
    const b = book(
      [
        {
          name: "n",
          keys: ["k"],
          secondary_keys: ["s"],
          selective: true,
          content: "c",
          position: "before_char",
        },
      ],
      { scan_depth: 4, token_budget: 200, recursive_scanning: true },
    );
    expect(parseLorebook(toCharacterBook(b))).toEqual({ ok: true, book: b });
  });
});
