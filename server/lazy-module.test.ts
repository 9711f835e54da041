import { spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { lazyModule } from "./lazy-module";
import { waitFor } from "./testing/processes";

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

/**
 * Packages a default install (SQLite, local disk, no Redis, Stripe, SMTP or vision) never needs at
 * startup; node-llama-cpp neither, with a remote model as here.
 */
const OPTIONAL = [
  "node-llama-cpp",
  "sharp",
  "bullmq",
  "ioredis",
  "openai",
  "nodemailer",
  "stripe",
  "pg",
  "@aws-sdk/client-s3",
  "fflate",
  "@dicebear/core",
  "@dicebear/collection",
];

/**
 * Preloaded into the server process (LOADED_LOG names a file): logs every module an `import` or a
 * `require` resolves, as it resolves, with a synchronous in-thread hook (module.registerHooks,
 * Node 22.15+). Nothing waits for the process to exit, so a shutdown that ends some other way loses
 * no line. On an older Node: an off-thread loader hook for `import`, and the `require` cache on exit.
 */
const PROBE = `import fs from "node:fs";
import module from "node:module";
const file = process.env.LOADED_LOG;
const record = (line) => fs.appendFileSync(file, line + "\\n");
if (module.registerHooks) {
  module.registerHooks({
    resolve(specifier, context, next) {
      const result = next(specifier, context);
      record(result.url);
      return result;
    },
  });
} else {
  module.register("./hooks.mjs", import.meta.url, { data: { file } });
  const cache = module.createRequire(import.meta.url).cache;
  process.on("exit", () => record(Object.keys(cache).join("\\n")));
}
`;
const HOOKS = `import fs from "node:fs";
let file;
export function initialize(data) {
  file = data.file;
}
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  fs.appendFileSync(file, result.url + "\\n");
  return result;
}
`;

/** The npm packages named by the files and URLs of `log` (one a line). */
function packagesIn(log: string): string[] {
  const names = new Set<string>();
  for (const line of log.split("\n")) {
    const match = /.*node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(line);
    if (match) names.add(match[1]!);
  }
  return [...names];
}

/** This process's environment without the settings that turn optional services on. */
function defaultInstallEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (/^(DATABASE_URL|REDIS_|S3_|STRIPE_|SMTP_|VISION_|TEST_)/.test(name)) delete env[name];
  }
  return env;
}

describe("server startup (resident memory)", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "companion-lazy-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  /** Starts server/main.ts over `dir`'s data, stops it once it listens. @returns the packages it loaded. */
  async function packagesLoadedAtStartup(): Promise<string[]> {
    const probe = path.join(dir, "probe.mjs");
    const log = path.join(dir, "loaded.log");
    fs.writeFileSync(probe, PROBE);
    fs.writeFileSync(path.join(dir, "hooks.mjs"), HOOKS);
    fs.writeFileSync(log, "");
    const child = spawn(process.execPath, ["--import", "tsx", "--import", probe, "server/main.ts"], {
      cwd: path.resolve(import.meta.dirname, ".."),
      env: {
        ...defaultInstallEnv(),
        DATA_DIR: path.join(dir, "data"),
        LOADED_LOG: log,
        PORT: "0",
        HOST: "127.0.0.1",
        LLM_PROVIDER: "openai",
        LLM_BASE_URL: "http://127.0.0.1:9/v1",
        LLM_MODEL: "none",
        TTS_PROVIDER: "none",
        RATE_LIMIT_ENABLED: "0",
        WEB_DIST_DIR: path.join(dir, "no-web"),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise((resolve) => child.once("exit", resolve));
    try {
      await waitFor(
        () => (output.includes("Companion is running at") ? true : undefined),
        60_000,
        () => output,
      );
    } finally {
      child.kill("SIGTERM");
      await exited;
    }
    return packagesIn(fs.readFileSync(log, "utf8"));
  }

  it("a restart over an existing database loads none of the optional packages", async () => {
    const first = await packagesLoadedAtStartup();
    expect(first).toContain("better-sqlite3"); // the probe sees packages at all
    // The first start seeds the database: its avatars are drawn with sharp.
    expect(first).toContain("sharp");
    const restart = await packagesLoadedAtStartup();
    expect(restart).toContain("better-sqlite3");
    expect(restart.filter((name) => OPTIONAL.includes(name))).toEqual([]);
  }, 120_000);
});
