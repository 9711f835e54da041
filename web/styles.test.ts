import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * House rules for the stylesheets: colours live only in the base sheet's token blocks
 * (`:root` and the `html.theme-dark` overrides), every other rule names a token; the base sheet
 * stays under 600 lines and every other sheet under 400.
 */

const WEB = import.meta.dirname;
const BASE = join(WEB, "styles/base.css");
const BASE_MAX_LINES = 600;
const SHEET_MAX_LINES = 400;

/** A raw colour: hex, a colour function, or a named colour used as a value. */
const RAW_COLOUR =
  /#[0-9a-f]{3,8}\b|\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\(|:\s*(?:[^;{}]*\s)?(?:white|black|red|green|blue|gray|grey|yellow|orange|purple|pink)\b/i;

function sheets(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sheets(path);
    return entry.name.endsWith(".css") ? [path] : [];
  });
}

/** The sheet with comments removed and, in the base sheet, the token blocks blanked (lines kept). */
function checkedText(path: string): string {
  let text = readFileSync(path, "utf8").replace(/\/\*[\s\S]*?\*\//g, (comment) =>
    comment.replace(/[^\n]/g, " "),
  );
  if (path === BASE) {
    text = text.replace(/^(?::root|html\.theme-dark) \{[\s\S]*?^\}/gm, (block) =>
      block.replace(/[^\n]/g, " "),
    );
  }
  return text;
}

describe("stylesheets (web/**/*.css)", () => {
  const files = sheets(WEB);

  it("finds the base sheet and the feature sheets", () => {
    expect(files).toContain(BASE);
    expect(files.length).toBeGreaterThan(1);
  });

  it("use no raw colour outside the base sheet's token blocks", () => {
    const found = files.flatMap((path) =>
      checkedText(path)
        .split("\n")
        .flatMap((line, index) =>
          RAW_COLOUR.test(line) ? [`${relative(WEB, path)}:${index + 1}: ${line.trim()}`] : [],
        ),
    );
    expect(found).toEqual([]);
  });

  it("stay short: the base sheet under 600 lines, every other sheet under 400", () => {
    const long = files.flatMap((path) => {
      const lines = readFileSync(path, "utf8").split("\n").length;
      const limit = path === BASE ? BASE_MAX_LINES : SHEET_MAX_LINES;
      return lines < limit ? [] : [`${relative(WEB, path)}: ${lines} lines (limit ${limit})`];
    });
    expect(long).toEqual([]);
  });
});
