import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import SQLite from "better-sqlite3";
import pg from "pg";
import { cpuMs } from "./measure";
import { freshPostgres } from "./postgres";

/** What the benchmarks that run the compiled server share: starting it, its RSS, waiting for it to idle. */

const root = path.resolve(import.meta.dirname, "../..");

/** The compiled server (`npm run build`); BENCH_SERVER_ENTRY: another one (an older commit's, for a before/after). */
export const serverEntry = process.env.BENCH_SERVER_ENTRY ?? path.join(root, "dist/server/main.js");

/** Exits with a hint when the compiled server is missing. */
export function requireBuild(): void {
  if (fs.existsSync(serverEntry)) return;
  console.error(`${path.relative(root, serverEntry)} is missing: run \`npm run build\` first.`);
  process.exit(1);
}

/** A server process started by {@link startServer}. */
export interface RunningServer {
  /** e.g. `http://127.0.0.1:41234`. */
  base: string;
  child: ChildProcess;
  /** SIGTERM, resolved when the process has exited. */
  stop(): Promise<void>;
}

/**
 * Starts a server entry with `env` over this process's environment and waits for its
 * "running at <url>" line.
 * BENCH_CPU_PROF=<dir>: the server writes a V8 CPU profile there when it stops;
 * BENCH_NODE_FLAGS: more node flags (e.g. `--perf-basic-prof`);
 * BENCH_SERVER_LOG=<file>: its output goes there (else it is read and dropped).
 * @param options.inherit which of this process's variables the server gets (all by default; a
 *   benchmark whose settings must not come from the calling shell drops some).
 * @throws Error when the process ends before it says it runs.
 */
export async function startServer(
  env: Record<string, string>,
  entry = serverEntry,
  options: { inherit?: (name: string) => boolean } = {},
): Promise<RunningServer> {
  const inherit = options.inherit ?? (() => true);
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => inherit(name)));
  const profile = process.env.BENCH_CPU_PROF
    ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`]
    : [];
  const extra = (process.env.BENCH_NODE_FLAGS ?? "").split(" ").filter(Boolean);
  if (process.env.BENCH_HEAP_SNAPSHOT) extra.push("--heapsnapshot-signal=SIGUSR2");
  const child = spawn(process.execPath, [...profile, ...extra, entry], {
    stdio: ["ignore", "pipe", "inherit"],
    // Benchmark users are guests: the demo is open unless `env` says otherwise.
    env: { ...inherited, DEMO_LOGIN: "1", ...env },
  });
  for await (const line of createInterface({ input: child.stdout! })) {
    const match = /running at (http:\/\/[^\s]+)/.exec(line);
    if (match) {
      if (process.env.BENCH_SERVER_LOG)
        child.stdout!.pipe(fs.createWriteStream(process.env.BENCH_SERVER_LOG));
      else child.stdout!.resume();
      return {
        base: match[1]!,
        child,
        stop: () =>
          new Promise((resolve) => {
            if (child.exitCode !== null) return resolve();
            child.once("exit", () => resolve());
            child.kill("SIGTERM");
          }),
      };
    }
  }
  throw new Error("the server did not start");
}

/** A process's resident set size, MB (Linux /proc). */
export function rssMb(pid: number): number {
  const line = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
  return Number(line?.[1] ?? Number.NaN) / 1024;
}

/** Waits until the process has used no CPU for 300 ms (background jobs done), at most `capMs`. */
export async function settle(pid: number, capMs = 5000): Promise<void> {
  const deadline = Date.now() + capMs;
  let last = cpuMs(pid);
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const now = cpuMs(pid);
    if (now === last) return;
    last = now;
  }
}

/** Lifts the plans' and the users' message limits so a benchmark never meets the daily cap. */
export async function liftLimits(database: { sqliteFile?: string; postgresUrl?: string }): Promise<void> {
  if (database.sqliteFile) {
    const db = new SQLite(database.sqliteFile);
    db.prepare("update plans set message_limit = 1000000000").run();
    db.prepare("update users set chat_limit = 1000000000").run();
    db.close();
  } else {
    const client = new pg.Client({ connectionString: database.postgresUrl });
    await client.connect();
    await client.query("update plans set message_limit = 1000000000");
    await client.query("update users set chat_limit = 1000000000");
    await client.end();
  }
}

/** One engine's run of a benchmark: a data folder of its own and, on PostgreSQL, a database of its own. */
export interface EngineData {
  dataDir: string;
  /** The fresh database's URL; "" on SQLite (the server keeps app.db in `dataDir`). */
  databaseUrl: string;
  /**
   * The settings of a server on this data behind the model double at `modelUrl` (OpenAI wire,
   * model "bench"): any free port on 127.0.0.1, rate limits and speech off.
   */
  env(modelUrl: string): Record<string, string>;
  /** {@link liftLimits} on this run's database. */
  liftLimits(): Promise<void>;
  /** Stops `server` (this run's, when given), then drops the database and removes the data folder. */
  dispose(server?: RunningServer): Promise<void>;
}

/**
 * Makes a data folder under the system's temporary folder named `<prefix><random>` and, when
 * `pgBase` (a PostgreSQL server's URL) is given, an empty database there (see freshPostgres).
 */
export async function engineData(prefix: string, pgBase?: string): Promise<EngineData> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const database = pgBase ? await freshPostgres(pgBase) : undefined;
  const databaseUrl = database?.url ?? "";
  return {
    dataDir,
    databaseUrl,
    env: (modelUrl) => ({
      PORT: "0",
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: databaseUrl,
      LLM_PROVIDER: "openai",
      LLM_BASE_URL: modelUrl,
      LLM_MODEL: "bench",
      RATE_LIMIT_ENABLED: "0",
      TTS_PROVIDER: "none",
    }),
    liftLimits: () =>
      liftLimits(databaseUrl ? { postgresUrl: databaseUrl } : { sqliteFile: path.join(dataDir, "app.db") }),
    dispose: async (server) => {
      await server?.stop();
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
