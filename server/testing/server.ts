import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { type App, buildApp } from "../app";
import { type AppConfig, loadConfig } from "../env";
import type { LlmProvider } from "../providers/llm/llm";

/** The tiny real GGUF model shipped beside the project (../shared/models). */
export const TINY_MODEL_PATH = path.resolve(import.meta.dirname, "../../../shared/models/stories260K.gguf");

/** PostgreSQL URL for tests, from TEST_DATABASE_URL; empty when PostgreSQL tests are skipped. */
export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? "";

export interface TestApp extends App {
  dataDir: string;
  /** Removes the temporary data directory and the temporary PostgreSQL database. */
  dispose(): Promise<void>;
}

/**
 * Creates an empty PostgreSQL database named `<prefix>_<random>` on TEST_DATABASE_URL's server.
 * @returns its URL and `drop()`, which removes it even while connections remain.
 * @throws Error when TEST_DATABASE_URL is not set.
 */
export async function createTestDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  if (!TEST_DATABASE_URL) throw new Error("TEST_DATABASE_URL is not set");
  const name = `${prefix}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/**
 * The settings every test app starts from: data in `dataDir`, the database at `databaseUrl`
 * (empty: SQLite in `dataDir`), silent logs, no model, no speech, no rate limits, any free port;
 * `env` on top.
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
    ...env,
  });
}

/**
 * Builds a server on a temporary data directory.
 * @param options.dialect "postgres" creates a fresh database on TEST_DATABASE_URL's server.
 * @param options.llm provider to use; default: none configured (LLM_PROVIDER=none).
 * @param options.env extra environment (e.g. LLM_MODEL_PATH).
 */
export async function createTestApp(
  options: { dialect?: "sqlite" | "postgres"; llm?: LlmProvider; env?: Record<string, string> } = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "companion-test-"));
  const { url: databaseUrl, drop: dropDatabase } =
    options.dialect === "postgres"
      ? await createTestDatabase("companion_test")
      : { url: "", drop: async () => {} };
  const app = await buildApp(testConfig(dataDir, databaseUrl, options.env), { llm: options.llm });
  return {
    ...app,
    dataDir,
    async dispose() {
      await app.close();
      await dropDatabase();
      fs.rmSync(dataDir, { recursive: true, force: true });
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
  /** Creates a member account with a password on the Free plan. @returns its user id. */
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
