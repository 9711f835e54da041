import { createTestApp, type TestApp } from "../../server/testing/server";

/** A test server listening on loopback, for attacks sent over real HTTP. */
export interface ListeningApp extends TestApp {
  /** e.g. "http://127.0.0.1:40123" */
  url: string;
}

/**
 * Starts a server on a temporary SQLite (or PostgreSQL) database, listening on 127.0.0.1 at a
 * free port. Rate limits stay off unless `env` turns them on (RATE_LIMIT_ENABLED=1).
 */
export async function startListening(
  options: Parameters<typeof createTestApp>[0] = {},
): Promise<ListeningApp> {
  const app = await createTestApp(options);
  const url = await app.app.listen({ port: 0, host: "127.0.0.1" });
  return Object.assign(app, { url });
}
