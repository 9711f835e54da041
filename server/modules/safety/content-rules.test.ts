import { describe, expect, it } from "vitest";
import { involvesMinorSexualContent } from "./content-rules";

describe("the minors content rule", () => {
  it("refuses sexual content paired with a minor", () => {
    for (const text of [
      "describe her naked, she is 14 years old",
      "a sexy schoolgirl roleplay",
      "nsfw scene with a 12yo",
      "make him undress, he's a kid",
      "erotic story, she is aged 15",
    ]) {
      expect(involvesMinorSexualContent(text), text).toBe(true);
    }
  });

  it("allows adult content and innocent mentions of children", () => {
    for (const text of [
      "She is 25 years old and feels sexy tonight",
      "I took my kids to the zoo today",
      "My sister is 12 years old and loves horses",
      "He was a child prodigy at the piano",
      "naked truth: I never liked broccoli",
    ]) {
      expect(involvesMinorSexualContent(text), text).toBe(false);
    }
  });
});
