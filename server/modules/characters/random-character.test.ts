import { describe, expect, it } from "vitest";
import { composeRandomCharacter } from "./random-character";

describe("composeRandomCharacter", () => {
  it("avoids the names the user's characters already have while others are left", () => {
    const all = ["ava", "chloe", "elena", "hana", "iris", "jade", "lea", "maya", "nora", "rosa", "sara"];
    const men = ["adam", "caleb", "diego", "felix", "hugo", "jonas", "kai", "liam", "mateo", "noah", "oscar"];
    const taken = new Set([...all, ...men]);
    for (let i = 0; i < 40; i += 1) {
      const { name, sex } = composeRandomCharacter(taken);
      expect(name).toBe(sex === "0" ? "Zoe" : "Ryan");
    }
  });

  it("still answers a name when every curated one is taken", () => {
    const { name } = composeRandomCharacter(new Set(["zoe", "ryan", "hana", "adam"]));
    expect(name.length).toBeGreaterThan(0);
  });
});
