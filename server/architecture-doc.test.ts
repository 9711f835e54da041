// docs/architecture.md's account of how modules meet, checked against the dependency rule that enforces it.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");

/** The `code` names of a text, in order. */
const codeNames = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

describe("docs/architecture.md matches the dependency rule (.dependency-cruiser.cjs)", () => {
  it("lists the seams the rule lets modules import, no more and no fewer", () => {
    const doc = read("docs/architecture.md").replace(/\s+/g, " ");
    const sentence = doc.match(/Modules meet only through the seams (.+?);/)?.[1];
    expect(sentence, 'docs/architecture.md says "Modules meet only through the seams …;"').toBeDefined();
    const rule = read(".dependency-cruiser.cjs").match(/const SEAMS = \[([^\]]*)\]/)?.[1];
    expect(rule, ".dependency-cruiser.cjs declares const SEAMS = [...]").toBeDefined();
    const seams = [...rule!.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
    expect(seams.length).toBeGreaterThan(0);
    expect(new Set(codeNames(sentence!))).toEqual(new Set(seams));
  });

  it("names only module folders that exist", () => {
    const sentence = read("docs/architecture.md")
      .replace(/\s+/g, " ")
      .match(/Modules meet only through the seams (.+?);/)![1]!;
    for (const name of codeNames(sentence)) {
      expect(fs.existsSync(path.join(root, "server/modules", name)), `server/modules/${name}`).toBe(true);
    }
  });
});
