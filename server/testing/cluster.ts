// A test cluster on this machine: several built server processes on PostgreSQL, Redis and S3 behind a real nginx (tests and the cluster benchmark).
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import pg from "pg";
import { findNginx, startNginx } from "./nginx";
import { freePort } from "./processes";
import { type RedisProcess, startRedisProcess } from "./redis-process";
import { startTestS3, type TestS3 } from "./s3-server";
import { createTestDatabase, TEST_DATABASE_URL } from "./server";
import { startTcpRelay, type TcpRelay } from "./tcp-relay";

/**
 * A cluster on this machine: N instances of the built server (`node
 * dist/server/main.js`, as `npm start` runs it) as child processes on one fresh PostgreSQL
 * database, one Redis key prefix, one S3 server (s3rver in this process) and a model double given
 * by the caller, behind a real nginx (nginx.ts) routing by INSTANCE_HEADER. No test-runner
 * imports: the cluster benchmark uses it too.
 */

const root = path.resolve(import.meta.dirname, "../..");

export { findNginx } from "./nginx";
/** Redis for cluster runs, from TEST_REDIS_URL; empty when they are skipped. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? "";
/** The compiled server; CLUSTER_SERVER_ENTRY measures or tests another build. */
const SERVER_ENTRY = process.env.CLUSTER_SERVER_ENTRY || path.join(root, "dist/server/main.js");
/** The header nginx routes on: "a", "b", … one instance; anything else (or none) round robin. */
export const INSTANCE_HEADER = "x-instance";
/** The header nginx adds to every answer: the upstream address (host:port) that served it. */
export const UPSTREAM_HEADER = "x-upstream";
const READY_TIMEOUT_MS = 60_000;
/** Output kept per instance life, characters (the newest). */
const OUTPUT_LIMIT = 2_000_000;

/** Why a cluster cannot start here (PostgreSQL, Redis or nginx missing); undefined when it can. */
export function clusterUnavailable(): string | undefined {
  if (!TEST_DATABASE_URL) return "TEST_DATABASE_URL is not set (no PostgreSQL server given)";
  if (!TEST_REDIS_URL) return "TEST_REDIS_URL is not set (no Redis server given)";
  if (!findNginx()) return "nginx is not installed (apt-get install nginx; .ci/run does it)";
  return undefined;
}

export { freePort } from "./processes";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for `child` to exit, at most `ms`. @returns whether it exited. */
function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** One server process of the cluster, restartable on the same port and data folder. */
export class ClusterInstance {
  private child: ChildProcess | undefined;
  private readonly lives: string[] = [];

  constructor(
    /** "a", "b", …: also the value of INSTANCE_HEADER that routes to it. */
    readonly name: string,
    readonly port: number,
    private env: Record<string, string>,
  ) {}

  /** The instance itself, not through nginx. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The running process's id. @throws Error when it is not running. */
  get pid(): number {
    if (!this.running) throw new Error(`instance ${this.name} is not running`);
    return this.child!.pid!;
  }

  get running(): boolean {
    return Boolean(this.child && this.child.exitCode === null && this.child.signalCode === null);
  }

  /** Stdout and stderr of every life so far (the last OUTPUT_LIMIT characters of each), in order. */
  output(): string {
    return this.lives.join("");
  }

  /** Stdout and stderr of the current (or last) life only. */
  currentOutput(): string {
    return this.lives.at(-1) ?? "";
  }

  /**
   * Starts the process and waits until GET /api/ready answers 200.
   * @param env settings changed from this start on (kept for later starts too).
   * @throws Error with the process's output when it exits or is not ready in READY_TIMEOUT_MS.
   */
  async start(env: Record<string, string> = {}): Promise<void> {
    if (this.running) throw new Error(`instance ${this.name} is already running`);
    this.env = { ...this.env, ...env };
    const life = this.lives.push(`--- ${this.name} started ${new Date().toISOString()}\n`) - 1;
    const child = spawn(process.execPath, ["--enable-source-maps", SERVER_ENTRY], {
      cwd: root,
      env: this.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    this.child = child;
    const keep = (chunk: Buffer) => {
      this.lives[life] = (this.lives[life]! + chunk.toString("utf8")).slice(-OUTPUT_LIMIT);
    };
    child.stdout!.on("data", keep);
    child.stderr!.on("data", keep);
    await this.waitReady();
  }

  /**
   * Polls GET /api/ready until it answers 200.
   * @throws Error (with the output) when the process exits first or `timeoutMs` passes.
   */
  async waitReady(timeoutMs = READY_TIMEOUT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.running)
        throw new Error(`instance ${this.name} exited:\n${this.currentOutput().slice(-4000)}`);
      try {
        const answer = await fetch(`${this.url}/api/ready`, { signal: AbortSignal.timeout(2000) });
        await answer.arrayBuffer();
        if (answer.status === 200) return;
      } catch {
        // Not listening yet.
      }
      await sleep(100);
    }
    throw new Error(
      `instance ${this.name} not ready in ${timeoutMs} ms:\n${this.currentOutput().slice(-4000)}`,
    );
  }

  /** Kills the process with SIGKILL (no shutdown at all) and waits for it to be gone. */
  async kill(): Promise<void> {
    if (!this.running) return;
    const child = this.child!;
    child.kill("SIGKILL");
    await exited(child, 10_000);
  }

  /** SIGTERM (graceful shutdown), then SIGKILL after `graceMs` more. */
  async stop(graceMs = 10_000): Promise<void> {
    if (!this.running) return;
    const child = this.child!;
    child.kill("SIGTERM");
    if (!(await exited(child, graceMs))) await this.kill();
  }

  /** Stops it gracefully and starts it again on the same port and data, with `env` changed. */
  async restart(env: Record<string, string> = {}): Promise<void> {
    await this.stop();
    await this.start(env);
  }
}

export interface ClusterOptions {
  /** The model double's `baseUrl` (an OpenAI-wire server in the test process). */
  modelBaseUrl: string;
  /** Number of instances, named a, b, c, …; default 2. */
  instances?: number;
  /** Settings for every instance, on top of the cluster's own. */
  env?: Record<string, string>;
  /** Start every instance at once on the empty database (default: the first alone, then the others). */
  startTogether?: boolean;
  /** nginx's worker_connections (default 4096). */
  workerConnections?: number;
  /** A redis-server of the cluster's own (`Cluster.redis`), which a test may kill or empty. */
  ownRedis?: boolean;
  /** Storage reached through a relay (`Cluster.storageRelay`) that a test may freeze. */
  freezableStorage?: boolean;
}

export interface Cluster {
  /** nginx's address: every test request goes here. */
  url: string;
  instances: ClusterInstance[];
  /** The fresh PostgreSQL database every instance uses. */
  databaseUrl: string;
  /** REDIS_PREFIX of this run. */
  redisPrefix: string;
  s3: TestS3;
  /** The cluster's own redis-server (with `ownRedis`). */
  redis?: RedisProcess;
  /** The relay in front of the S3 server (with `freezableStorage`). */
  storageRelay?: TcpRelay;
  /** The nginx process id (CPU time in the benchmark). */
  nginxPid: number;
  /** The instance named `name`. @throws Error when there is none. */
  instance(name: string): ClusterInstance;
  /**
   * fetch through nginx, routed to instance `via` ("a", "b", …) or round robin ("both").
   * `pathAndQuery` starts with "/".
   */
  fetch(via: string, pathAndQuery: string, init?: RequestInit): Promise<Response>;
  /** The instance that served an answer (from UPSTREAM_HEADER); undefined when none matches. */
  servedBy(response: Response): string | undefined;
  /** A query on the cluster's database (a pool opened on first use, closed by `stop`). */
  query<Row extends pg.QueryResultRow = Record<string, unknown>>(
    text: string,
    values?: unknown[],
  ): Promise<Row[]>;
  /** Stops nginx and every instance, drops the database, closes S3, removes the Redis keys and files. */
  stop(): Promise<void>;
}

/** Deletes every Redis key under `prefix` (SCAN, then DEL in batches). */
async function removeRedisKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
}

/**
 * Starts the whole cluster (see the file's comment). Instances get TRUST_PROXY=1 (nginx is the one
 * hop in front), LLM_PROVIDER=openai on `modelBaseUrl`, speech off, rate limits off unless
 * `options.env` says otherwise, SHUTDOWN_GRACE_MS=2000 and LOG_LEVEL=warn (console lines such as
 * the demo clean-up's still print). See `options.startTogether` for the order of the first start.
 * @throws Error when PostgreSQL, Redis or nginx are missing (see clusterUnavailable) or a part does
 *   not start; whatever had started is stopped first.
 */
export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const unavailable = clusterUnavailable();
  if (unavailable) throw new Error(unavailable);
  if (!fs.existsSync(SERVER_ENTRY))
    execFileSync(process.execPath, ["scripts/build-server.mjs"], { cwd: root });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "companion-cluster-"));
  const redisPrefix = `cluster-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}:`;
  const cleanups: Array<() => Promise<void>> = [async () => fs.rmSync(dir, { recursive: true, force: true })];
  const instances: ClusterInstance[] = [];
  let nginx: ChildProcess | undefined;
  let pool: pg.Pool | undefined;
  const killAll = () => {
    for (const i of instances) if (i.running) process.kill(i.pid, "SIGKILL");
    nginx?.kill("SIGKILL");
  };
  process.once("exit", killAll);
  const stop = async () => {
    process.off("exit", killAll);
    const problems: unknown[] = [];
    const attempt = async (step: () => Promise<unknown>) => {
      try {
        await step();
      } catch (error) {
        problems.push(error);
      }
    };
    if (nginx) {
      nginx.kill("SIGQUIT");
      if (!(await exited(nginx, 5000))) nginx.kill("SIGKILL");
    }
    await Promise.all(instances.map((i) => attempt(() => i.stop(5000))));
    await attempt(async () => pool?.end());
    for (const cleanup of cleanups.splice(0).reverse()) await attempt(cleanup);
    if (problems.length > 0) throw new AggregateError(problems, "the cluster did not stop cleanly");
  };
  try {
    const database = await createTestDatabase("companion_cluster");
    cleanups.push(() => database.drop());
    const redis = options.ownRedis ? await startRedisProcess() : undefined;
    if (redis) cleanups.push(() => redis.close());
    else cleanups.push(() => removeRedisKeys(TEST_REDIS_URL, redisPrefix));
    const s3 = await startTestS3({ bucket: "cluster" });
    cleanups.push(() => s3.close());
    const storageRelay = options.freezableStorage
      ? await startTcpRelay(Number(new URL(s3.config.endpoint!).port))
      : undefined;
    if (storageRelay) cleanups.push(() => storageRelay.close());
    const proxyPort = await freePort();
    const url = `http://127.0.0.1:${proxyPort}`;
    const names = "abcdefghij".slice(0, options.instances ?? 2).split("");
    for (const name of names) {
      const port = await freePort();
      const dataDir = path.join(dir, `data-${name}`);
      fs.mkdirSync(dataDir);
      instances.push(
        new ClusterInstance(name, port, {
          PATH: process.env.PATH ?? "",
          HOME: process.env.HOME ?? dir,
          TMPDIR: os.tmpdir(),
          PORT: String(port),
          HOST: "127.0.0.1",
          DATA_DIR: dataDir,
          PUBLIC_URL: url,
          DATABASE_URL: database.url,
          REDIS_URL: redis?.url ?? TEST_REDIS_URL,
          REDIS_PREFIX: redisPrefix,
          ...s3.env,
          ...(storageRelay ? { S3_ENDPOINT: `http://127.0.0.1:${storageRelay.port}` } : {}),
          LLM_PROVIDER: "openai",
          LLM_BASE_URL: options.modelBaseUrl,
          LLM_MODEL: "cluster-double",
          TTS_PROVIDER: "none",
          TRUST_PROXY: "1",
          RATE_LIMIT_ENABLED: "0",
          // The cluster's clients are guests.
          DEMO_LOGIN: "1",
          SHUTDOWN_GRACE_MS: "2000",
          LOG_LEVEL: "warn",
          ...options.env,
        }),
      );
    }
    // The first start migrates and seeds an empty database; replicas of a deployment may all do
    // it at once (`startTogether`), else the first goes alone and the others follow together.
    if (!options.startTogether) await instances[0]!.start();
    await Promise.all(instances.filter((i) => !i.running).map((i) => i.start()));
    nginx = await startNginx({
      dir: path.join(dir, "nginx"),
      port: proxyPort,
      upstreams: Object.fromEntries([
        ...instances.map((i) => [i.name, [i.port]]),
        ["both", instances.map((i) => i.port)],
      ]),
      routeHeader: INSTANCE_HEADER,
      defaultUpstream: "both",
      upstreamHeader: UPSTREAM_HEADER,
      workerConnections: options.workerConnections ?? 4096,
    });
    const byPort = new Map(instances.map((i) => [`127.0.0.1:${i.port}`, i.name]));
    return {
      url,
      instances,
      databaseUrl: database.url,
      redisPrefix,
      s3,
      redis,
      storageRelay,
      nginxPid: nginx.pid!,
      instance(name) {
        const found = instances.find((i) => i.name === name);
        if (!found) throw new Error(`no instance ${name}`);
        return found;
      },
      fetch(via, pathAndQuery, init = {}) {
        const headers = new Headers(init.headers);
        headers.set(INSTANCE_HEADER, via);
        return fetch(`${url}${pathAndQuery}`, { ...init, headers });
      },
      servedBy(response) {
        // After a failed try nginx lists every address it tried: the last one answered.
        const last = (response.headers.get(UPSTREAM_HEADER) ?? "").split(",").at(-1)?.trim() ?? "";
        return byPort.get(last);
      },
      async query(text, values) {
        if (!pool) {
          pool = new pg.Pool({ connectionString: database.url, max: 2 });
          // A test may terminate the database's connections: an idle one lost is replaced.
          pool.on("error", () => {});
        }
        return (await pool.query(text, values)).rows;
      },
      stop,
    };
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
}
