// Child processes for tests: starting an entry point of this project, waiting for a condition, free ports, killing what was started.
import { type ChildProcess, spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";

/** The project root, where `server/main.ts` and `server/worker.ts` are found. */
export const ROOT = path.resolve(import.meta.dirname, "../..");

/** A child process with everything it printed so far (stdout and stderr interleaved). */
export interface RunningProcess {
  child: ChildProcess;
  /** Everything printed so far. */
  output: () => string;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
}

/** How {@link startEntry} runs an entry. */
export interface EntryOptions {
  /** Node.js flags before the entry; default `--import tsx` (a TypeScript entry). */
  nodeArgs?: string[];
  /** The environment `env` goes over; default this process's. */
  baseEnv?: NodeJS.ProcessEnv;
}

/**
 * Starts an entry point of this project in its own Node.js process, from the project root, with
 * `env` over `options.baseEnv`: by default a TypeScript entry (e.g. `server/main.ts`) through tsx
 * with this process's environment; `options.nodeArgs` runs another (e.g. the built
 * `dist/server/main.js` with `--enable-source-maps`). The caller kills it (see `killAll`).
 */
export function startEntry(
  entry: string,
  env: Record<string, string>,
  options: EntryOptions = {},
): RunningProcess {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? ["--import", "tsx"]), entry], {
    cwd: ROOT,
    env: { ...(options.baseEnv ?? process.env), ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const collect = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** SIGKILLs every process of `children` still running and empties the list. */
export function killAll(children: ChildProcess[]): void {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
}

/**
 * Polls `probe` every 50 ms until it returns something other than undefined.
 * @returns that value.
 * @throws Error after `timeoutMs` milliseconds, with `explain()` (e.g. a process's output).
 */
export async function waitFor<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs: number,
  explain: () => string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting; ${explain()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A port free on 127.0.0.1 at the time of asking. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Whether a new TCP connection to 127.0.0.1:`port` is accepted. */
export function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}
