// Recall in the prompt: the budget, what the window holds, neighbours, and the lines by day and speaker.
import { describe, expect, it } from "vitest";
import type { RecallFound, RecallMatch, RecallMessage } from "./recall-port";
import { packRecall, recallBudget, recallDate } from "./recall-prompt";

const DAY = 86_400_000;
const may8 = Date.UTC(2023, 4, 8, 13, 56);
const message = (n: number, side: "user" | "reply", text: string, time = may8): RecallMessage => ({
  entryId: `e${n}`,
  seq: n * 10 + (side === "user" ? 0 : 1),
  side,
  text,
  time,
  characterId: "c",
});
const match = (m: RecallMessage, around: Partial<RecallMatch> = {}): RecallMatch => ({
  ...m,
  terms: ["word"],
  by: ["words"],
  ...around,
});
const found = (matches: RecallMatch[]): RecallFound => ({ enabled: true, query: ["word"], matches, ms: 1 });
const options = (budget: number, exclude: string[] = []) => ({
  budget,
  exclude: new Set(exclude),
  countTokens: (t: string) => Math.ceil(t.length / 4),
  speaker: (m: RecallMessage) => (m.side === "user" ? "Caroline" : "Melanie"),
});

describe("recall in the prompt", () => {
  it("writes the chosen messages oldest first under a line per day, each with its speaker", () => {
    const later = message(5, "reply", "I painted a sunrise last week.", may8 + 17 * DAY);
    const early = message(1, "user", "I went to the support group yesterday.");
    const packed = packRecall(found([match(later), match(early)]), options(1000));
    expect(packed.lines).toEqual([
      "Earlier in this chat (recalled):",
      "8 May 2023:",
      "Caroline: I went to the support group yesterday.",
      "25 May 2023:",
      "Melanie: I painted a sunrise last week.",
    ]);
    expect(packed.messages.map((m) => [m.entryId, m.why, m.speaker])).toEqual([
      ["e1", "match", "Caroline"],
      ["e5", "match", "Melanie"],
    ]);
  });

  it("adds a match's neighbours after it, cut as context, and never one twice", () => {
    const question = message(2, "user", "What did you paint?");
    const answer = message(2, "reply", `A sunrise over the lake ${"and more ".repeat(60)}`);
    const next = message(3, "user", "Lovely!");
    const packed = packRecall(
      found([match(answer, { before: question, after: next }), match(question, { after: answer })]),
      options(1000),
    );
    expect(packed.messages.map((m) => [m.entryId, m.side, m.why])).toEqual([
      ["e2", "user", "neighbour"],
      ["e2", "reply", "match"],
      ["e3", "user", "neighbour"],
    ]);
    expect(packed.messages[1]!.text.length).toBeGreaterThan(240);
  });

  it("keeps to the budget, skipping a message too long for what is left", () => {
    const long = message(1, "user", "x ".repeat(400));
    const short = message(2, "user", "A short line with the word.");
    const packed = packRecall(found([match(long), match(short)]), options(60));
    expect(packed.messages.map((m) => m.entryId)).toEqual(["e2"]);
    const tokens = Math.ceil(packed.lines.join("\n").length / 4);
    expect(tokens).toBeLessThanOrEqual(60);
  });

  it("never repeats an entry the prompt's history carries; nothing found, no lines", () => {
    const kept = message(7, "user", "Still in the window.");
    expect(packRecall(found([match(kept)]), options(1000, ["e7"]))).toEqual({ lines: [], messages: [] });
    expect(packRecall(found([]), options(1000))).toEqual({ lines: [], messages: [] });
  });

  it("scales its budget with the window, up to a cap", () => {
    expect(recallBudget(4096)).toBe(1000);
    expect(recallBudget(8192)).toBe(2000);
    expect(recallBudget(131_072)).toBe(4000);
    expect(recallDate(Date.UTC(2023, 0, 31, 23, 59))).toBe("31 Jan 2023");
  });
});
