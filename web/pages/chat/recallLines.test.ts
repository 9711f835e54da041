import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RecalledMessage, RecallInspection } from "../../../common/prompt-inspection";
import { loadNamespaces, setLanguage } from "../../i18n";
import { JUMP_MAX_ENTRIES } from "./hooks/useChatHistory";
import { jumpFrom } from "./hooks/useMessageJump";
import { recallJump, recallReason, recallTokens } from "./recallLines";

/** A recalled message: a match by words unless told otherwise. */
function recalled(overrides: Partial<RecalledMessage> = {}): RecalledMessage {
  return {
    entryId: "entry-1",
    side: "user",
    time: Date.UTC(2026, 10, 2, 9),
    speaker: "Sam",
    text: "We walked to the lighthouse at dawn.",
    tokens: 14,
    why: "match",
    terms: ["lighthous", "dawn"],
    by: ["words"],
    ...overrides,
  };
}

/** The prompt inspector's recall lines: why a message was recalled, the tokens used, the jump. */
describe("the recall section's lines", () => {
  beforeAll(() => loadNamespaces(["chat"]));
  afterAll(() => setLanguage("en"));

  it("says which of the query's words a match holds, and adds 'by meaning' when the embeddings ranked it", () => {
    expect(recallReason(recalled())).toBe("matched: lighthous, dawn");
    expect(recallReason(recalled({ by: ["words", "meaning"] }))).toBe(
      "matched: lighthous, dawn · by meaning",
    );
    expect(recallReason(recalled({ terms: [], by: ["meaning"] }))).toBe("matched · by meaning");
  });

  it("says a neighbour is next to a match, whatever words it holds", () => {
    expect(recallReason(recalled({ why: "neighbour", terms: [], by: [] }))).toBe("next to a match");
    expect(recallReason(recalled({ why: "neighbour", terms: ["dawn"], by: ["meaning"] }))).toBe(
      "next to a match · by meaning",
    );
  });

  it("reads the current language", async () => {
    await setLanguage("de");
    expect(recallReason(recalled({ by: ["meaning", "words"] }))).toBe(
      "Treffer: lighthous, dawn · nach Bedeutung",
    );
    expect(recallReason(recalled({ why: "neighbour", terms: [] }))).toBe("neben einem Treffer");
    await setLanguage("en");
  });

  it("adds up the recalled messages' tokens", () => {
    const recall: RecallInspection = {
      enabled: true,
      query: ["lighthous"],
      budget: 400,
      ms: 3,
      messages: [recalled(), recalled({ entryId: "entry-2", side: "reply", tokens: 30 })],
    };
    expect(recallTokens(recall)).toBe(44);
    expect(recallTokens({ ...recall, messages: [] })).toBe(0);
  });

  it("jumps to the message's entry and side, loading as far back as a jump may, and survives the navigation state", () => {
    const jump = recallJump(recalled({ entryId: "entry-9", side: "reply" }));
    expect(jump).toEqual({ entryId: "entry-9", side: "reply", newer: JUMP_MAX_ENTRIES });
    expect(jumpFrom({ id: "character-1", jump: structuredClone(jump) })).toEqual(jump);
  });
});
