import type { ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { afterEach, describe, expect, it } from "vitest";
import { type App, buildApp } from "./app";
import { killAll, type RunningProcess, startEntry, waitFor } from "./testing/processes";
import { testConfig } from "./testing/server";

/**
 * `npm run worker`: server/worker.ts in its own process (through tsx) runs the jobs a
 * web instance started with JOB_WORKERS=0 only queues, on the same database and Redis.
 */

const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? "";
if (!TEST_REDIS_URL) console.warn("Skipping the job worker process tests: set TEST_REDIS_URL");

const children: ChildProcess[] = [];
const apps: App[] = [];
const dirs: string[] = [];
const prefixes: string[] = [];

afterEach(async () => {
  killAll(children);
  for (const app of apps.splice(0)) await app.close();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  if (prefixes.length > 0) {
    const redis = new Redis(TEST_REDIS_URL);
    for (const prefix of prefixes.splice(0)) {
      for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 500 })) {
        if ((keys as string[]).length > 0) await redis.del(...(keys as string[]));
      }
    }
    redis.disconnect();
  }
});

function startWorker(env: Record<string, string>): RunningProcess {
  const worker = startEntry("server/worker.ts", {
    LLM_PROVIDER: "none",
    TTS_PROVIDER: "none",
    LOG_LEVEL: "info",
    ...env,
  });
  children.push(worker.child);
  return worker;
}

/** The .eml files written to `dir`/outbox whose text contains `needle`. */
function outbox(dir: string, needle: string): string[] {
  const folder = path.join(dir, "outbox");
  if (!fs.existsSync(folder)) return [];
  return fs
    .readdirSync(folder)
    .map((file) => fs.readFileSync(path.join(folder, file), "utf8"))
    .filter((text) => text.includes(needle));
}

describe.skipIf(!TEST_REDIS_URL)("npm run worker: jobs run in a process of their own", () => {
  it("runs the jobs a JOB_WORKERS=0 web instance queued, then drains and exits 0 on SIGTERM", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "companion-worker-"));
    dirs.push(dataDir);
    const prefix = `test:worker-${randomUUID().slice(0, 8)}:`;
    prefixes.push(prefix);
    const env = { REDIS_URL: TEST_REDIS_URL, REDIS_PREFIX: prefix };
    const web = await buildApp(testConfig(dataDir, "", { ...env, JOB_WORKERS: "0" }));
    apps.push(web);
    expect(web.engines.jobs).toBe("bullmq");
    await web.auth.createAccount({
      email: "mia@example.com",
      password: "pass-word-1",
      fullName: "Mia",
      planName: "Free",
    });

    const forgot = await web.app.inject({
      method: "POST",
      url: "/api/auth/forgot-password",
      payload: { email: "mia@example.com" },
    });
    expect(forgot.json()).toMatchObject({ success: 1 });
    const contact = await web.app.inject({
      method: "POST",
      url: "/api/contact",
      payload: { name: "Ana", email: "ana@example.com", subject: "Hi", message: "Queued for the worker" },
    });
    expect(contact.json()).toMatchObject({ success: 1 });
    // The web instance runs no job: both wait in Redis.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await web.jobs.depth()).toBe(2);
    expect(outbox(dataDir, "Reset your password")).toEqual([]);

    const worker = startWorker({ DATA_DIR: dataDir, DATABASE_URL: "", ...env });
    await waitFor(
      () => (worker.output().includes("Job worker running") ? true : undefined),
      60_000,
      worker.output,
    );
    await web.jobs.idle();
    const [reset] = outbox(dataDir, "Reset your password");
    expect(reset).toContain("mia@example.com");
    expect(reset).toMatch(/reset-password\/[\w-]{20,}/);
    expect(outbox(dataDir, "Queued for the worker")).toHaveLength(1);

    worker.child.kill("SIGTERM");
    expect(await worker.exited).toBe(0);
    expect(worker.output()).toContain("Stopped: jobs, workers and database closed.");
  });

  it("refuses to start without REDIS_URL", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "companion-worker-"));
    dirs.push(dataDir);
    const worker = startWorker({ DATA_DIR: dataDir, DATABASE_URL: "", REDIS_URL: "" });
    expect(await worker.exited).toBe(1);
    expect(worker.output()).toContain("REDIS_URL: required by `npm run worker`");
  });
});
