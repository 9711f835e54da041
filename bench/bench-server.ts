import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { buildApp } from "../server/app";
import { loadConfig } from "../server/env";
import { ScriptedLlm } from "../server/testing/fake-llm";

/**
 * The server under benchmark: SQLite in a temporary directory and an instant test model, so the
 * measured time is the server's own; or, with BENCH_LLM_BASE_URL, the `openai` provider against
 * that (local) Chat Completions endpoint. Prints `PORT <n>` when listening; stops on SIGTERM.
 */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "companion-bench-"));
const endpoint = process.env.BENCH_LLM_BASE_URL ?? "";
const config = loadConfig({
  DATA_DIR: dataDir,
  LOG_LEVEL: "silent",
  LLM_PROVIDER: endpoint ? "openai" : "none",
  LLM_BASE_URL: endpoint,
  LLM_MODEL: "bench",
  // The benchmark signs in many demo users from one address.
  RATE_LIMIT_ENABLED: "0",
  DEMO_LOGIN: "1",
  // Spoken replies have their own benchmark (bench/voice.bench.ts); here only the chat is timed.
  TTS_PROVIDER: "none",
});
const server = await buildApp(
  config,
  endpoint ? {} : { llm: new ScriptedLlm(() => "Sure! *smiles* Tell me more about it.") },
);
// Benchmark users are demo users; lift the Free plan's daily cap so the loop never hits it.
await server.db.db.updateTable("plans").set({ message_limit: 1_000_000_000 }).execute();
const address = await server.app.listen({ port: 0, host: "127.0.0.1" });
console.log(`PORT ${new URL(address).port}`);
process.on("SIGTERM", () => {
  void server.close().then(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
});
