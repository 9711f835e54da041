import { describe, expect, it } from "vitest";
import { findChromium } from "./chromium";

describe("findChromium: the browser the tests drive, on every system", () => {
  const only =
    (...files: string[]) =>
    (file: string) =>
      files.includes(file);

  it("takes CHROMIUM_PATH first, and refuses one that names no file", () => {
    expect(
      findChromium({ CHROMIUM_PATH: "/opt/chrome" }, "linux", only("/opt/chrome", "/usr/bin/chromium")),
    ).toBe("/opt/chrome");
    expect(() => findChromium({ CHROMIUM_PATH: "/nope" }, "linux", only("/usr/bin/chromium"))).toThrow(
      /CHROMIUM_PATH/,
    );
  });

  it("finds Debian's package on Linux and the apps on macOS", () => {
    expect(findChromium({}, "linux", only("/usr/bin/chromium"))).toBe("/usr/bin/chromium");
    const chrome = "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome";
    expect(findChromium({}, "darwin", only(chrome))).toBe(chrome);
  });

  it('answers "" when no browser is anywhere (the browser tests are skipped)', () => {
    expect(findChromium({}, "darwin", () => false)).toBe("");
  });
});
