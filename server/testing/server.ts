// Test apps and stacks: the embedded or shared stack, scratch PostgreSQL databases, test configuration, and a listening server for browser tests.
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { type App, buildApp } from "../app";
import { findMemberByEmail } from "../db/user-queries";
import { type AppConfig, loadConfig } from "../env";
import { AccountRepo } from "../modules/account/account.repo";
import type { LlmProvider } from "../providers/llm/llm";
import { createStorage } from "../providers/storage/index";
import type { FileStorage } from "../providers/storage/storage";
import { createDatabase, type ScratchDatabase } from "./databases";
import { startTestS3, type TestS3 } from "./s3-server";

/** The tiny real GGUF model shipped beside the project (../shared/models). */
export const TINY_MODEL_PATH = path.resolve(import.meta.dirname, "../../../shared/models/stories260K.gguf");

/** PostgreSQL URL for tests, from TEST_DATABASE_URL; empty when PostgreSQL tests are skipped. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? "";

/** Redis URL for tests, from TEST_REDIS_URL; empty when Redis tests are skipped. */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? "";

/**
 * Which engines every test app runs on ("the same API test suite runs on both
 * configurations"): "embedded" (default: SQLite, local disk, memory) or "shared" (TEST_STACK=shared:
 * PostgreSQL on TEST_DATABASE_URL, Redis on TEST_REDIS_URL, S3 on an in-process s3rver).
 */
export const TEST_STACK: "embedded" | "shared" = process.env.TEST_STACK === "shared" ? "shared" : "embedded";

/**
 * Whether a suite about the local disk itself (files planted outside the content folder, symlinks,
 * file modes, disk-only headers) must skip: true on the shared stack, where content is in S3 and
 * that attack or behaviour does not exist; prints why. Use: `describe.skipIf(localDiskOnly("…"))`.
 * @param reason what the suite checks that only the local disk has.
 */
export function localDiskOnly(reason: string): boolean {
  if (TEST_STACK !== "shared") return false;
  console.warn(`SKIPPED on the shared stack (content in S3, not on the local disk): ${reason}`);
  return true;
}

/** One s3rver per test process; each app gets its own S3_PREFIX in its bucket. */
let sharedS3: Promise<TestS3> | undefined;

/**
 * The environment of one app on the shared stack: Redis and S3 under a fresh prefix each.
 * @throws Error when TEST_REDIS_URL or TEST_DATABASE_URL is not set.
 */
async function sharedStackEnv(id: string): Promise<Record<string, string>> {
  if (!TEST_REDIS_URL || !TEST_DATABASE_URL) {
    throw new Error("TEST_STACK=shared needs TEST_REDIS_URL and TEST_DATABASE_URL");
  }
  sharedS3 ??= startTestS3({ bucket: "shared-stack" });
  const s3 = await sharedS3;
  return { ...s3.env, S3_PREFIX: id, REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: `test:${id}:` };
}

/**
 * The shared-stack run must fail when any kind of state silently stays in one process: every
 * engine must be the shared one (rate limits may be off, as in most tests).
 * @throws Error naming each engine that fell back to the embedded default.
 */
export function assertSharedEngines(engines: Record<string, string>): void {
  const embedded = Object.entries(engines).filter(([, engine]) =>
    ["memory", "local", "sqlite"].includes(engine),
  );
  if (embedded.length > 0) {
    throw new Error(
      `TEST_STACK=shared, yet ${embedded.map(([kind, engine]) => `${kind} is "${engine}"`).join(", ")}`,
    );
  }
}

/** Deletes every Redis key under `prefix` (a test app's REDIS_PREFIX). */
async function removeRedisKeys(prefix: string): Promise<void> {
  const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true });
  try {
    await redis.connect();
    for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 500 })) {
      if ((keys as string[]).length > 0) await redis.del(...(keys as string[]));
    }
  } finally {
    redis.disconnect();
  }
}

export interface TestApp extends App {
  dataDir: string;
  /** The settings the app was built with (e.g. CONTENT_SECRET, set on the shared stack). */
  config: AppConfig;
  /**
   * The app's content storage as the app sees it (local disk under dataDir/content, or S3 under
   * the app's S3_PREFIX on the shared stack): tests check stored files through it, so the same
   * check runs on both stacks.
   */
  storage: FileStorage;
  /** Removes the temporary data directory and the temporary PostgreSQL database. */
  dispose(): Promise<void>;
}

/**
 * Creates an empty PostgreSQL database named `<prefix>_<random>` on TEST_DATABASE_URL's server.
 * @returns its URL and `drop()`, which removes it even while connections remain.
 * @throws Error when TEST_DATABASE_URL is not set.
 */
export async function createTestDatabase(prefix: string): Promise<ScratchDatabase> {
  if (!TEST_DATABASE_URL) throw new Error("TEST_DATABASE_URL is not set");
  const name = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  return createDatabase(TEST_DATABASE_URL, name);
}

/**
 * The settings every test app starts from: data in `dataDir`, the database at `databaseUrl`
 * (empty: SQLite in `dataDir`), silent logs, no model, no speech, no rate limits, any free port,
 * the guest demo open; `env` on top.
 * @throws Error (from loadConfig) when `env` holds an invalid setting.
 */
export function testConfig(
  dataDir: string,
  databaseUrl: string,
  env: Record<string, string> = {},
): AppConfig {
  return loadConfig({
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: "silent",
    LLM_PROVIDER: "none",
    // Spoken replies cost CPU in every chat test: on only where a test asks (TTS_PROVIDER=espeak).
    TTS_PROVIDER: "none",
    PORT: "0",
    HOST: "127.0.0.1",
    RATE_LIMIT_ENABLED: "0",
    // Every answer must match its route's declared response schema (a 500 the test sees otherwise).
    API_CHECK_RESPONSES: "1",
    // The tiny model needs no second thread; test files, Chromium and servers share two cores,
    // where a llama.cpp thread per core spins against them (the default on a 2-core machine).
    LLM_THREADS: "1",
    // No GPU here: "auto" would test-load each GPU build of llama.cpp at every test app's start.
    LLM_GPU: "off",
    // No test app backs up on a clock (the backup tests take theirs when they say).
    BACKUP_SCHEDULE: "off",
    // Most suites sign guests in; the demo's own tests set DEMO_LOGIN (or "" for its default).
    DEMO_LOGIN: "1",
    ...env,
  });
}

/** The data one or more test apps run on, one after another (a restart keeps it). */
export interface TestStack {
  dataDir: string;
  /** The settings every `start()` builds its app with. */
  config: AppConfig;
  /** The content storage the apps use (see TestApp.storage). */
  storage: FileStorage;
  /**
   * Builds an app on this data, as a fresh process would after a restart; the caller closes it.
   * @throws Error under TEST_STACK=shared when an engine fell back to the embedded one.
   */
  start(): Promise<App>;
  /** Removes the data directory, the database, the Redis keys and the stored objects. */
  dispose(): Promise<void>;
}

/**
 * A temporary data directory and database (and under TEST_STACK=shared a fresh PostgreSQL
 * database, Redis prefix and S3 prefix, whatever `dialect` says) that outlive one app.
 * @param options.dialect "postgres" creates a fresh database on TEST_DATABASE_URL's server.
 * @param options.llm provider to use; default: none configured (LLM_PROVIDER=none).
 * @param options.env extra environment (e.g. LLM_MODEL_PATH).
 */
export async function createTestStack(
  options: { dialect?: "sqlite" | "postgres"; llm?: LlmProvider; env?: Record<string, string> } = {},
): Promise<TestStack> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "companion-test-"));
  const shared = TEST_STACK === "shared";
  const id = path.basename(dataDir).replace(/[^A-Za-z0-9]/g, "");
  const stackEnv = shared ? await sharedStackEnv(id) : {};
  const { url: databaseUrl, drop: dropDatabase } =
    shared || options.dialect === "postgres"
      ? await createTestDatabase("companion_test")
      : { url: "", drop: async () => {} };
  const config = testConfig(dataDir, databaseUrl, { ...stackEnv, ...options.env });
  const storage = createStorage(config);
  return {
    dataDir,
    config,
    storage,
    async start() {
      const app = await buildApp(config, { llm: options.llm });
      if (shared) {
        try {
          assertSharedEngines({ ...app.engines });
        } catch (error) {
          await app.close();
          throw error;
        }
      }
      return app;
    },
    async dispose() {
      await dropDatabase();
      if (shared) {
        await removeRedisKeys(stackEnv.REDIS_PREFIX!);
        // s3rver keeps its files until the test process ends: leave nothing under this app's prefix.
        if (config.s3?.prefix === stackEnv.S3_PREFIX)
          for (const key of await storage.list("")) await storage.remove(key);
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Builds a server on a temporary data directory (`createTestStack`). Under TEST_STACK=shared it
 * runs on a fresh PostgreSQL database, Redis and S3 whatever `dialect` says, and fails when an
 * engine is embedded.
 * @param options.dialect "postgres" creates a fresh database on TEST_DATABASE_URL's server.
 * @param options.llm provider to use; default: none configured (LLM_PROVIDER=none).
 * @param options.env extra environment (e.g. LLM_MODEL_PATH).
 */
export async function createTestApp(
  options: { dialect?: "sqlite" | "postgres"; llm?: LlmProvider; env?: Record<string, string> } = {},
): Promise<TestApp> {
  const stack = await createTestStack(options);
  const app = await stack.start().catch(async (error: unknown) => {
    await stack.dispose();
    throw error;
  });
  return {
    ...app,
    dataDir: stack.dataDir,
    config: stack.config,
    storage: stack.storage,
    async dispose() {
      // A client may leave a connection open that is not idle (an attack test's request answered
      // before its body was all read): the graceful close would wait for it until the request
      // timeout (60 s, the hook timeout). A test app needs no draining: after a second it is cut.
      const cut = setTimeout(() => app.app.server.closeAllConnections(), 1000);
      try {
        await app.close();
      } finally {
        clearTimeout(cut);
      }
      await stack.dispose();
    },
  };
}

/**
 * Starts a listening server with the built SPA (dist/web) for browser tests, on SQLite in a
 * temporary directory and the tiny real model unless `env` says otherwise.
 */
export async function startTestServer(opts: { env?: Record<string, string> } = {}): Promise<{
  url: string;
  /** The database, for tests that set plan flags (there is no admin API yet). */
  db: TestApp["db"]["db"];
  /**
   * Creates a member account with a password on the Free plan (erasing an earlier one with that
   * e-mail, from a retried test's first try). @returns its user id.
   */
  createMember(email: string, password: string): Promise<string>;
  close(): Promise<void>;
}> {
  const app = await createTestApp({
    env: {
      LLM_PROVIDER: "llama",
      LLM_MODEL_PATH: process.env.LLM_MODEL_PATH || TINY_MODEL_PATH,
      LLM_MAX_TOKENS: "48",
      // TEST_WEB_DIST_DIR lets parallel work build the SPA elsewhere without racing dist/web.
      WEB_DIST_DIR: process.env.TEST_WEB_DIST_DIR || path.resolve(import.meta.dirname, "../../dist/web"),
      ...opts.env,
    },
  });
  await app.llmReady;
  const address = await app.app.listen({ port: 0, host: "127.0.0.1" });
  return {
    url: address,
    db: app.db.db,
    async createMember(email: string, password: string) {
      // A browser test that CI runs once more creates its member again: the first try's account goes.
      const earlier = await findMemberByEmail(app.db.db, email);
      if (earlier)
        await new AccountRepo(app.db.db).eraseUser(earlier, { id: randomUUID(), createdAt: Date.now() });
      const user = await app.auth.createAccount({
        email,
        password,
        fullName: "Test Member",
        planName: "Free",
      });
      return user.id;
    },
    close: () => app.dispose(),
  };
}
