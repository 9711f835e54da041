// Picture test helpers: granting a user pictures, data that outlives an app restart, and the picture cookie for /content/.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type App, buildApp } from "../app";
import type { LlmProvider } from "../providers/llm/llm";
import { createTestDatabase, type TestApp, testConfig } from "./server";

/** Gives a user the plan flags of pictures (il = '1') and, optionally, uncensored pictures. */
export async function allowPictures(app: TestApp | App, userId: string, uncensored = false): Promise<void> {
  await app.db.db
    .updateTable("users")
    .set({ image_generation: 1, uncensored: uncensored ? 1 : 0 })
    .where("id", "=", userId)
    .execute();
}

/**
 * A data directory and database that outlive one app: `start()` builds an app on them (a fresh
 * process after a restart), `dispose()` removes both. PostgreSQL gets its own database on
 * TEST_DATABASE_URL's server.
 */
export async function restartableData(
  dialect: "sqlite" | "postgres",
  env: Record<string, string>,
  llm?: LlmProvider,
): Promise<{ dataDir: string; start(): Promise<App>; dispose(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "companion-restart-"));
  const { url: databaseUrl, drop } =
    dialect === "postgres"
      ? await createTestDatabase("companion_restart")
      : { url: "", drop: async () => {} };
  return {
    dataDir,
    start: () => buildApp(testConfig(dataDir, databaseUrl, env), { llm }),
    async dispose() {
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * The `chat_content` cookie the API sets for the user of `token` (what a browser then sends with
 * its <img> requests under /content/{chat id}/). @returns the `name=value` pair.
 */
export async function contentCookie(app: TestApp | App, token: string): Promise<string> {
  const response = await app.app.inject({
    url: "/api/chat/capabilities",
    headers: { authorization: `Bearer ${token}` },
  });
  const header = response.headers["set-cookie"];
  const line = (Array.isArray(header) ? header : [header ?? ""]).find((c) => c.startsWith("chat_content="));
  if (!line) throw new Error("no chat_content cookie was set");
  return line.split(";")[0]!;
}
