import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The app is GPL-3.0-or-later (it bundles eSpeak NG, GPL-3.0): every production package must be
 * listed in THIRD-PARTY-NOTICES.md (written by `npm run notices`) under a license that may be
 * distributed with GPL-3.0 code. Reads package.json, node_modules' package.json files and the
 * notice file only (no network, no dependency scan).
 */
const root = path.join(import.meta.dirname, "..");
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8");

/** SPDX ids that can be combined with GPL-3.0 code and the result distributed under GPL-3.0. */
const GPL3_COMPATIBLE = new Set([
  "0BSD",
  "Apache-2.0",
  "Artistic-2.0",
  "BlueOak-1.0.0",
  "BSD-2-Clause",
  "BSD-3-Clause",
  "CC-BY-4.0",
  "CC0-1.0",
  "GPL-2.0-or-later",
  "GPL-3.0",
  "GPL-3.0-only",
  "GPL-3.0-or-later",
  "ISC",
  "LGPL-2.1",
  "LGPL-2.1-only",
  "LGPL-2.1-or-later",
  "LGPL-3.0",
  "LGPL-3.0-only",
  "LGPL-3.0-or-later",
  "MIT",
  "MIT-0",
  "MPL-2.0",
  "Python-2.0",
  "Unlicense",
  "WTFPL",
  "Zlib",
]);

/**
 * Packages whose license the tool guessed ("*": package.json declares no SPDX id) and that were
 * read by hand. @dicebear avataaars/bottts: code MIT, the avatar designs "Free for personal and
 * commercial use" (not an SPDX license): kept pending the owners' decision, see the notice file.
 */
const REVIEWED_GUESSES: Record<string, string> = {
  "@dicebear/avataaars": "MIT*",
  "@dicebear/avataaars-neutral": "MIT*",
  "@dicebear/bottts": "MIT*",
  "@dicebear/bottts-neutral": "MIT*",
};

/** Why a license expression cannot ship with GPL-3.0 code, or undefined when it can. */
function incompatibility(expression: string): string | undefined {
  const spdx = expression.trim().replace(/\*$/, "");
  const ids = (part: string) =>
    part
      .replace(/[()]/g, " ")
      .split(/\s+(?:AND|OR)\s+/)
      .map((id) => id.replace(/\s+WITH\s+.*$/, "").trim())
      .filter(Boolean);
  const allowed = (id: string) => GPL3_COMPATIBLE.has(id.replace(/\+$/, "-or-later"));
  const inner = spdx.replace(/^\((.*)\)$/, "$1");
  // Nested parentheses: every id must be compatible. Otherwise one compatible OR choice suffices.
  const choices = /[()]/.test(inner) ? [ids(inner).join(" AND ")] : inner.split(/\s+OR\s+/);
  const ok = choices.some((choice) => ids(choice).length > 0 && ids(choice).every(allowed));
  return ok ? undefined : `${expression} is not known to be GPL-3.0-compatible`;
}

interface Notice {
  version: string;
  license: string;
}

/** The package table of THIRD-PARTY-NOTICES.md: name -> versions and licenses listed. */
function notices(): Map<string, Notice[]> {
  const text = read("THIRD-PARTY-NOTICES.md");
  const table = text.slice(0, text.indexOf("\n## License texts"));
  const byName = new Map<string, Notice[]>();
  for (const line of table.split("\n")) {
    const cells = line.split(/(?<!\\)\|/).map((cell) => cell.trim());
    const [, name, version, license] = cells;
    if (!name || !version || !license || name === "Package" || name.startsWith("---")) continue;
    byName.set(name, [...(byName.get(name) ?? []), { version, license }]);
  }
  return byName;
}

describe("licenses", () => {
  it("the project is GPL-3.0-or-later with the full GPL-3.0 text", () => {
    const pkg = JSON.parse(read("package.json")) as { license?: string };
    expect(pkg.license).toBe("GPL-3.0-or-later");
    const license = read("LICENSE");
    expect(license.startsWith("Copyright (C) 2026 the Companion authors")).toBe(true);
    expect(license).toContain("GNU GENERAL PUBLIC LICENSE\n                       Version 3, 29 June 2007");
    expect(license).toContain("END OF TERMS AND CONDITIONS");
  });

  it("tells compatible license expressions from the others", () => {
    for (const ok of ["MIT", "(MIT OR Apache-2.0)", "(MIT AND CC-BY-4.0)", "MIT*", "(MPL-2.0 OR SSPL-1.0)"]) {
      expect(incompatibility(ok), ok).toBeUndefined();
    }
    for (const bad of [
      "SSPL-1.0",
      "BUSL-1.1",
      "UNLICENSED",
      "UNKNOWN",
      "Custom: proprietary",
      "(MIT AND BUSL-1.1)",
      "(MIT OR Apache-2.0) AND SSPL-1.0",
      "Elastic-2.0",
      "CC-BY-NC-4.0",
      "GPL-2.0-only",
    ]) {
      expect(incompatibility(bad), bad).toBeDefined();
    }
  });

  it("THIRD-PARTY-NOTICES.md lists every production dependency at its installed version", () => {
    const pkg = JSON.parse(read("package.json")) as { dependencies?: Record<string, string> };
    const listed = notices();
    const problems: string[] = [];
    for (const name of Object.keys(pkg.dependencies ?? {})) {
      const entries = listed.get(name);
      if (!entries) {
        problems.push(`${name} is missing`);
        continue;
      }
      const manifest = path.join(root, "node_modules", name, "package.json");
      if (!fs.existsSync(manifest)) continue;
      const { version } = JSON.parse(fs.readFileSync(manifest, "utf8")) as { version: string };
      if (!entries.some((entry) => entry.version === version)) {
        problems.push(
          `${name} is listed at ${entries.map((e) => e.version).join(", ")}, installed ${version}`,
        );
      }
    }
    expect(problems, "run `npm run notices` and commit THIRD-PARTY-NOTICES.md").toEqual([]);
  });

  it("every production package is under a license compatible with GPL-3.0", () => {
    const listed = notices();
    expect(listed.size).toBeGreaterThan(0);
    const problems: string[] = [];
    for (const [name, entries] of listed) {
      for (const { version, license } of entries) {
        const why = incompatibility(license);
        if (why) problems.push(`${name}@${version}: ${why}`);
        else if (license.endsWith("*") && REVIEWED_GUESSES[name] !== license) {
          problems.push(`${name}@${version}: ${license} was guessed by the tool: read its license file`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});
