// The operator commands as the Docker image runs them: package.json's scripts run the compiled dist/server/*.js with plain node (no tsx, no TypeScript sources).
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
const scripts = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts as Record<
  string,
  string
>;
const built = fs.existsSync(path.join(ROOT, "dist/server/backup.js"));
if (!built)
  console.warn(
    "SKIPPED built commands: dist/server/ is not built (npm run build; npm test builds it first).",
  );

/** The compiled file an npm script runs with node, e.g. "dist/server/backup.js". */
function compiled(script: string): string {
  const match = /^node (?:--[\w-]+ )*(dist\/server\/[\w-]+\.js)$/.exec(scripts[script] ?? "");
  if (!match) throw new Error(`npm run ${script} does not run a compiled file with node: ${scripts[script]}`);
  return match[1]!;
}

describe("operator commands, compiled", () => {
  const dirs: string[] = [];
  const scratch = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "built-cli-"));
    dirs.push(dir);
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("users, make-admin, backup and restore run compiled JavaScript, built by npm run build", () => {
    const build = fs.readFileSync(path.join(ROOT, "scripts/build-server.mjs"), "utf8");
    for (const script of ["users", "make-admin", "backup", "restore", "start", "worker"]) {
      const entry = path.basename(compiled(script), ".js");
      expect(build, entry).toMatch(new RegExp(`["\\s]${entry}"?: "server/`));
    }
  });

  it.skipIf(!built)(
    "backs up, restores into an empty DATA_DIR and lists its users, with node alone",
    async () => {
      const source = scratch();
      const target = scratch();
      const env = (dataDir: string) => ({
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        DATA_DIR: dataDir,
        LOG_LEVEL: "silent",
      });
      const node = (script: string, args: string[], dataDir: string) =>
        run(process.execPath, [compiled(script), ...args], { cwd: ROOT, env: env(dataDir) });
      await node("users", ["add", "owner@example.com", "--admin", "--password", "owner-pass-12"], source);
      const backup = await node("backup", [], source);
      const archive = backup.stdout.trim().split("\n").at(-1)!;
      expect(fs.existsSync(archive)).toBe(true);
      const restored = await node("restore", [archive], target);
      expect(restored.stdout).toMatch(/^Restored the backup of .* Start the server with npm start\.$/m);
      const listed = await node("users", ["list"], target);
      expect(listed.stdout).toContain("owner@example.com");
      const again = await node("restore", [archive], target).catch(
        (e: { code: number; stderr: string }) => e,
      );
      expect(again).toMatchObject({ code: 1, stderr: expect.stringContaining("--force") });
      const usage = await node("restore", [], target).catch((e: { code: number; stderr: string }) => e);
      expect(usage).toMatchObject({ code: 2, stderr: expect.stringContaining("Usage: npm run restore") });
    },
    120_000,
  );
});
