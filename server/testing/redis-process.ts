// A throw-away redis-server of a test's own, on a free port with nothing kept on disk.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { acceptsConnections, freePort, waitFor } from "./processes";

/**
 * A throw-away redis-server of a test's own (never the shared one of TEST_REDIS_URL, which other
 * test files use at the same time): on a free port of 127.0.0.1, keeping nothing on disk, so a
 * restart comes back empty, as a Redis without persistence does after a crash.
 */
export interface RedisProcess {
  /** redis://127.0.0.1:<port> */
  readonly url: string;
  readonly port: number;
  /** Whether the server was started and not killed since. */
  readonly running: boolean;
  /** SIGKILLs the server (no save) and starts a new, empty one on the same port. */
  restartEmpty(): Promise<void>;
  /** SIGKILLs the server; `start` brings an empty one back. */
  kill(): Promise<void>;
  /** Starts the server again after `kill` (empty). */
  start(): Promise<void>;
  /** Kills the server and removes its folder. */
  close(): Promise<void>;
}

/** Whether a redis-server binary is on PATH. */
export function hasRedisServer(): boolean {
  return spawnSync("redis-server", ["--version"]).status === 0;
}

/**
 * Starts a redis-server of the test's own (see RedisProcess).
 * @throws Error when redis-server is missing or does not accept connections within 10 s.
 */
export async function startRedisProcess(): Promise<RedisProcess> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "companion-redis-"));
  let child: ChildProcess | undefined;
  let output = "";
  const start = async () => {
    output = "";
    child = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    child.stdout!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr!.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    await waitFor(
      async () => ((await acceptsConnections(port)) ? true : undefined),
      10_000,
      () => `redis-server did not start: ${output.slice(-2000)}`,
    );
  };
  const kill = async () => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGKILL");
    await exited;
  };
  const exitWithTest = () => child?.kill("SIGKILL");
  process.once("exit", exitWithTest);
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    get running() {
      return child !== undefined;
    },
    start,
    kill,
    async restartEmpty() {
      await kill();
      await start();
    },
    async close() {
      process.off("exit", exitWithTest);
      await kill();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
