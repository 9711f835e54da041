import { describe, expect, it } from "vitest";
import { SentenceStream, speechSentences, speechText, uncensorTranscript } from "./speech";

describe("speech text of a reply", () => {
  it("drops narration between asterisks and never reads the symbols", () => {
    expect(speechText("*smiles* Hello there! *waves* How are you?")).toBe("Hello there! How are you?");
    // Markdown bold is emphasis of spoken words, not narration: the words stay, the stars go.
    expect(speechText("A **bold** claim and a lone * star")).toBe("A bold claim and a lone star");
    expect(speechText("*nods*")).toBe("");
  });

  it("streams sentences as soon as they end, joining very short ones, the same cuts as the whole text", () => {
    const reply =
      "*smiles* Oh. Hello there, my friend! How are you today? I was *sighs.* waiting.\nBye for now";
    const stream = new SentenceStream();
    const got: string[] = [];
    const afterEach: number[] = [];
    for (const piece of reply.match(/.{1,4}/gs) ?? []) {
      got.push(...stream.push(piece));
      afterEach.push(got.length);
    }
    got.push(...stream.end());
    expect(got).toEqual([
      "Oh. Hello there, my friend!",
      "How are you today?",
      "I was waiting.",
      "Bye for now",
    ]);
    // The first sentence was out long before the stream ended.
    expect(afterEach.indexOf(1)).toBeLessThan(afterEach.length / 2);
    expect(speechSentences(reply)).toEqual(got);
  });
});

describe("product.md §5: censored words in transcripts", () => {
  it("writes a word censored with asterisks in full, keeping case, and leaves unknown ones", () => {
    expect(uncensorTranscript("what the f*** is this s**t")).toBe("what the fuck is this shit");
    expect(uncensorTranscript("F**k, a**hole")).toBe("Fuck, asshole");
    expect(uncensorTranscript("h*llo and 5*3")).toBe("h*llo and 5*3");
  });
});
