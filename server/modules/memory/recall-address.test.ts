// Recall for a question about a named person: the names it writes, the messages said to them, and the matches reordered.
import { describe, expect, it } from "vitest";
import type { RecallMatch, RecallMessage } from "../prompt/recall-port";
import { ADDRESSED_DEMOTION, addresses, favourNamedOwnWords, namesIn } from "./recall-address";

const message = (seq: number, text: string): RecallMessage => ({
  entryId: `e${seq}`,
  seq,
  side: seq % 2 === 0 ? "user" : "reply",
  characterId: "c1",
  text,
  time: 0,
});
const match = (seq: number, text: string, withNeighbours = true): RecallMatch => ({
  ...message(seq, text),
  terms: [],
  by: ["words"],
  before: withNeighbours ? message(seq - 1, `before ${seq}`) : undefined,
  after: withNeighbours ? message(seq + 1, `after ${seq}`) : undefined,
});

describe("the names a question writes", () => {
  it("takes the capitalised words that do not start a sentence", () => {
    expect(namesIn("How many tournaments has Nate won? What did Joanna bake. Really?")).toEqual([
      "Nate",
      "Joanna",
    ]);
    expect(namesIn("what did nate win?")).toEqual([]);
    expect(namesIn("I think Nate's turtles")).toEqual(["Nate"]);
  });
});

describe("a message that speaks to someone by name", () => {
  it("is told by a greeting, a comma or the clause's end", () => {
    expect(addresses("Way to go, Nate! Winning the tournament is awesome", ["Nate"])).toBe(true);
    expect(addresses("Thanks Nate for the recipe", ["Nate"])).toBe(true);
    expect(addresses("Nate, look at this", ["Nate"])).toBe(true);
    expect(addresses("So proud of you, nate.", ["Nate"])).toBe(true);
  });

  it("is not one that only speaks of them", () => {
    expect(addresses("I met Nate at the tournament yesterday", ["Nate"])).toBe(false);
    expect(addresses("Natefest was fun!", ["Nate"])).toBe(false);
    expect(addresses("Congrats, Joanna!", [])).toBe(false);
  });
});

describe("matches reordered for a question about a named person", () => {
  const question = "How many tournaments has Nate won?";

  it("moves a match said to the person down, keeping its neighbours", () => {
    const matches = [
      match(10, "Congrats, Nate! What a tournament."),
      ...[20, 30, 40].map((s) => match(s, "The tournament was fun.")),
    ];
    const more = Array.from({ length: ADDRESSED_DEMOTION }, (_, i) =>
      match(100 + i * 10, "Another tournament."),
    );
    const out = favourNamedOwnWords([...matches, ...more], question);
    expect(out.findIndex((m) => m.seq === 10)).toBe(ADDRESSED_DEMOTION - 1);
    expect(out[ADDRESSED_DEMOTION - 1]!.before?.text).toBe("before 10");
    expect(out.slice(0, 3).map((m) => m.seq)).toEqual([20, 30, 40]);
  });

  it("takes a match that tells of its speaker without its neighbours", () => {
    const [own, toYou, both] = favourNamedOwnWords(
      [
        match(10, "I won my fourth tournament on Friday!"),
        match(20, "You must be thrilled with that tournament."),
        match(30, "I saw you at the tournament."),
      ],
      question,
    );
    expect([own!.before, own!.after]).toEqual([undefined, undefined]);
    expect(toYou!.before?.text).toBe("before 20");
    expect(both!.after?.text).toBe("after 30");
  });

  it("leaves out a neighbour said to the person", () => {
    const m = { ...match(10, "The final was intense."), after: message(11, "Congrats, Nate!") };
    const [out] = favourNamedOwnWords([m], question);
    expect(out!.after).toBeUndefined();
    expect(out!.before?.text).toBe("before 10");
  });

  it("changes nothing when the question names no one or speaks of I or you", () => {
    const matches = [match(10, "Congrats, Nate!"), match(20, "I won my fourth tournament!")];
    expect(favourNamedOwnWords(matches, "how many tournaments were won?")).toEqual(matches);
    expect(favourNamedOwnWords(matches, "What did I tell Nate about my tournament?")).toEqual(matches);
    expect(favourNamedOwnWords(matches, "Did you see Nate win?")).toEqual(matches);
  });
});
