import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { lazyModule } from "./lazy-module";

const require = createRequire(import.meta.url);

describe("lazyModule", () => {
  it("loads the package on the first call only, and returns the same module each time", () => {
    const id = require.resolve("fflate");
    delete require.cache[id];
    const load = lazyModule<typeof import("fflate")>("fflate");
    expect(require.cache[id]).toBeUndefined();
    const first = load();
    expect(require.cache[id]).toBeDefined();
    expect(typeof first.zipSync).toBe("function");
    expect(load()).toBe(first);
  });

  it("throws for a package that is not installed, when called", () => {
    const load = lazyModule("no-such-package-installed-here");
    expect(() => load()).toThrow(/Cannot find module/);
  });
});
