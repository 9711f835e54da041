// Recall's category words: the members of a category a question asks for ("what sports…"), and none for a question that asks for no list.
import { describe, expect, it } from "vitest";
import { CATEGORY_WORDS_MAX, categoryWords } from "./recall-lexicon";

describe("a question's category words", () => {
  it("gives the members of a category asked for in the plural", () => {
    expect(categoryWords("What sports does John like besides basketball?")).toContain("kickboxing");
    expect(categoryWords("What sports does John like besides basketball?")).not.toContain("basketball");
    expect(categoryWords("Which countries has Maria been to?")).toEqual(
      expect.arrayContaining(["spain", "england"]),
    );
    expect(categoryWords("What are Joanna's hobbies?")).toContain("hiking");
    expect(categoryWords("How many pets does James have?")).toContain("dog");
  });

  it("reads an adjective head in any form, and a singular head after 'kind of'", () => {
    expect(categoryWords("What martial arts has John done?")).toContain("karate");
    expect(categoryWords("Which European country did she like?")).toContain("france");
    expect(categoryWords("What kind of music does Dave listen to?")).toContain("jazz");
    expect(categoryWords("What type of pet would suit me?")).toContain("cat");
  });

  it("gives none for one thing asked for, a category not asked for, or no category", () => {
    expect(categoryWords("What book did Caroline recommend?")).toEqual([]);
    expect(categoryWords("What did Mel and her kids make at the workshop?")).toEqual([]);
    expect(categoryWords("When did you go to the support group?")).toEqual([]);
    expect(categoryWords("")).toEqual([]);
  });

  it("gives each member once, lower case, at most CATEGORY_WORDS_MAX", () => {
    const words = categoryWords("What activities, sports, hobbies and pets, and which countries?");
    expect(words.length).toBe(CATEGORY_WORDS_MAX);
    expect(new Set(words).size).toBe(words.length);
    for (const word of words) expect(word).toMatch(/^[a-z]+$/);
  });
});
