import { describe, expect, it } from "vitest";
import { chooseSpeakers, type TurnCandidate } from "./turn-order";

const members: TurnCandidate[] = [
  { id: "luna", name: "Luna", talkativeness: 0.5 },
  { id: "leo", name: "Leo", talkativeness: 0.5 },
  { id: "mia", name: "Mia", talkativeness: 0.5 },
  { id: "ethan", name: "Ethan", talkativeness: 0.5 },
];
/** A seeded generator so every draw is repeatable. */
function seeded(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31;
  };
}

describe("group turn order", () => {
  it("lets the characters named in the message answer first, in the order named", () => {
    expect(chooseSpeakers("Mia, what do you think? And you, Luna?", members, "mia")).toEqual(["mia", "luna"]);
    expect(chooseSpeakers("hey LEO!", members, undefined)).toEqual(["leo"]);
  });

  it("matches whole names only", () => {
    const speakers = chooseSpeakers("Leonardo painted this", members, "luna", seeded(3));
    expect(speakers).not.toContain("luna");
  });

  it("never picks the last speaker unaddressed, and at most 3 speakers", () => {
    for (let seed = 1; seed < 300; seed++) {
      const speakers = chooseSpeakers("what a day", members, "leo", seeded(seed));
      expect(speakers.length).toBeGreaterThanOrEqual(1);
      expect(speakers.length).toBeLessThanOrEqual(3);
      expect(speakers).not.toContain("leo");
      expect(new Set(speakers).size).toBe(speakers.length);
    }
  });

  it("favours talkative characters", () => {
    const weighted = members.map((m) => ({ ...m, talkativeness: m.id === "ethan" ? 1 : 0.05 }));
    const random = seeded(7);
    let ethanFirst = 0;
    for (let i = 0; i < 400; i++)
      if (chooseSpeakers("hi all", weighted, undefined, random)[0] === "ethan") ethanFirst++;
    expect(ethanFirst).toBeGreaterThan(300);
  });
});
