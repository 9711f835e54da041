// The composition root is the only place that builds services and repositories: a rule of the architecture, checked on the source.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");

/** The shipped TypeScript files under `dir` (tests and test support left out), relative to the repository. */
function sources(dir: string): string[] {
  return fs
    .readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" })
    .map((file) => path.posix.join(dir, file.split(path.sep).join("/")))
    .filter(
      (file) => file.endsWith(".ts") && !file.endsWith(".test.ts") && !file.startsWith("server/testing/"),
    );
}

/** Where services and repositories may be built: server/container.ts and server/container/. */
const isContainer = (file: string) => file === "server/container.ts" || file.startsWith("server/container/");

/** `new SomethingService(` or `new SomethingRepo(`. */
const BUILDS = /\bnew [A-Z]\w*(?:Service|Repo)\(/g;

describe("services and repositories are built only in the container (docs/architecture.md)", () => {
  it("no `new …Service(` or `new …Repo(` outside server/container.ts and server/container/", () => {
    const outside = [...sources("server"), ...sources("common")]
      .filter((file) => !isContainer(file))
      .flatMap((file) =>
        [...fs.readFileSync(path.join(root, file), "utf8").matchAll(BUILDS)].map((m) => `${file}: ${m[0]}`),
      );
    expect(outside).toEqual([]);
  });

  it("finds the builds in the container, so the scan can see them", () => {
    const text = fs.readFileSync(path.join(root, "server/container/chat.ts"), "utf8");
    expect(text.match(BUILDS)?.length ?? 0).toBeGreaterThan(5);
  });
});
