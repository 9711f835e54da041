import { describe, expect, it } from "vitest";
import { splitReply } from "./split-reply";

describe("split replies at sentence boundaries", () => {
  it("keeps a short reply whole", () => {
    expect(splitReply("Hi! How are you?")).toEqual(["Hi! How are you?"]);
    expect(splitReply("   ")).toEqual([]);
  });

  it("splits a long reply between sentences, never inside one", () => {
    const sentences = [
      "I went to the observatory last night and the sky was perfectly clear.",
      "Jupiter was so bright that I could see four of its moons in a line.",
      "*smiles* Then a meteor crossed the whole sky, right above the dome.",
      "I wished that you could have seen it with me.",
    ];
    const parts = splitReply(sentences.join(" "));
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.join(" ")).toBe(sentences.join(" "));
    for (const part of parts) {
      expect(sentences.some((s) => part.startsWith(s))).toBe(true);
      expect(part.length).toBeLessThanOrEqual(180);
    }
  });

  it("never makes more than four messages", () => {
    const long = Array.from(
      { length: 30 },
      (_, i) => `This is sentence number ${i} of a very long reply.`,
    ).join(" ");
    const parts = splitReply(long);
    expect(parts).toHaveLength(4);
    expect(parts.join(" ")).toBe(long);
  });
});
