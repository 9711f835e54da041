// Recall's query words: stop words, speakers' names and a named period left out; a short message borrows from the recent exchanges.
import { describe, expect, it } from "vitest";
import { contentWords, matchedTerms, namedPeriod, recallQuery } from "./recall-terms";

describe("recall's query", () => {
  it("keeps the words that carry a topic, once each, in order", () => {
    expect(contentWords("When did you go to the LGBTQ support group? The group!")).toEqual([
      "lgbtq",
      "support",
      "group",
    ]);
    expect(contentWords("Ça va? Café crème")).toEqual(["ça", "va", "café", "crème"]);
  });

  it("leaves out the speakers' names, which the chat is full of", () => {
    expect(recallQuery("What did Caroline paint last year?", [], ["Caroline", "Mel Anie"])).toEqual([
      "paint",
      "last",
      "year",
    ]);
    expect(recallQuery("Did Mel like it?", [], ["Caroline", "Mel Anie"])).toEqual([]);
  });

  it("fills a short message from the recent exchanges, newest first", () => {
    expect(recallQuery("And then?", ["We drove to Lisbon by train", "Tell me about Porto"])).toEqual([
      "drove",
      "lisbon",
      "train",
      "porto",
    ]);
    expect(recallQuery("Tell me about your sister Lena", ["We drove to Lisbon"])).toEqual(["sister", "lena"]);
  });

  it("leaves out the words of a named period", () => {
    const period = namedPeriod("What did Nate win in November 2022?")!;
    expect(recallQuery("What did Nate win in November 2022?", [], ["Nate"], period.words)).toEqual(["win"]);
  });
});

describe("a named period", () => {
  const day = (s: string) => Date.parse(`${s}T00:00:00Z`);
  it("reads a month and a year, widened a week before and two after", () => {
    const period = namedPeriod("which tournament in the beginning of November 2022?")!;
    expect(period.from).toBe(day("2022-11-01") - 7 * 86_400_000);
    expect(period.to).toBe(day("2022-12-01") + 14 * 86_400_000);
    expect(period.words).toEqual(["november", "2022"]);
  });

  it("reads a day in both orders", () => {
    for (const text of ["on 25 February, 2022", "on February 25, 2022", "25 feb 2022"]) {
      const period = namedPeriod(text)!;
      expect(period.from, text).toBe(day("2022-02-25") - 7 * 86_400_000);
      expect(period.to, text).toBe(day("2022-02-26") + 14 * 86_400_000);
    }
  });

  it("needs a year: a month alone, a modal 'may' or a year alone names none", () => {
    expect(namedPeriod("what did you do in November?")).toBeUndefined();
    expect(namedPeriod("you may go in 2022")).toBeUndefined();
    expect(namedPeriod("back in 2019")).toBeUndefined();
  });
});

describe("the words a message matched", () => {
  it("finds a query word's stem in the text's words", () => {
    expect(matchedTerms("She was painting sunsets all week", ["painted", "sunset", "garden"])).toEqual([
      "painted",
      "sunset",
    ]);
  });
});
