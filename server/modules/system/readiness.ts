// The readiness checks of GET /api/ready: database, storage and language model, each bounded by a timeout.

import { sql } from "kysely";
import type { Db } from "../../db/index";
import type { LlmProvider } from "../../providers/llm/llm";
import type { FileStorage } from "../../providers/storage/storage";

/** Longest wait for one readiness check, milliseconds: past it the check counts as failed. */
export const READY_CHECK_TIMEOUT_MS = 2000;

/**
 * One thing an instance needs before a load balancer sends it traffic (GET /api/ready). `run`
 * resolves when it answers and throws (with a short reason) when it does not. More engines
 * (Redis, the job queue) join by adding a check to the list given to the system routes.
 */
export interface ReadinessCheck {
  /** The name shown in the answer: "database", "storage", "model", "redis"... */
  name: string;
  run(): Promise<void>;
}

/**
 * How one check went: `ms` is its duration; when it failed, `failure` says whether it timed out
 * and `reason` is its error's message (for the log: it may name hosts or users, so the public
 * answer carries only `failure`).
 */
export interface CheckResult {
  ok: boolean;
  ms: number;
  failure?: "timeout" | "error";
  reason?: string;
}

/**
 * The standard checks: the database answers `select 1`; the storage answers a cheap `exists`
 * (of a key that need not exist); the language model reports itself ready (`status()`: loaded,
 * or an OpenAI-compatible endpoint configured) and, when not, its reason.
 */
export function standardChecks(parts: {
  db?: Db;
  storage?: FileStorage;
  llm: LlmProvider;
}): ReadinessCheck[] {
  const { db, storage, llm } = parts;
  return [
    ...(db ? [{ name: "database", run: async () => void (await sql`select 1`.execute(db)) }] : []),
    ...(storage ? [{ name: "storage", run: async () => void (await storage.exists(".ready-probe")) }] : []),
    {
      name: "model",
      run: async () => {
        const status = llm.status();
        if (!status.ready) throw new Error(status.message);
      },
    },
  ];
}

/**
 * Runs every check at once, each bounded by `timeoutMs`.
 * @returns ready when all passed, and each check's result by name (in the list's order).
 */
export async function runChecks(
  checks: readonly ReadinessCheck[],
  timeoutMs = READY_CHECK_TIMEOUT_MS,
): Promise<{ ready: boolean; checks: Record<string, CheckResult> }> {
  const results = await Promise.all(checks.map((check) => runOne(check, timeoutMs)));
  return {
    ready: results.every((result) => result.ok),
    checks: Object.fromEntries(checks.map((check, i) => [check.name, results[i]!])),
  };
}

async function runOne(check: ReadinessCheck, timeoutMs: number): Promise<CheckResult> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Error(`no answer within ${timeoutMs} ms`);
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(timedOut), timeoutMs);
  });
  try {
    await Promise.race([check.run(), timeout]);
    return { ok: true, ms: Math.round(performance.now() - started) };
  } catch (error) {
    return {
      ok: false,
      ms: Math.round(performance.now() - started),
      failure: error === timedOut ? "timeout" : "error",
      reason: (error instanceof Error ? error.message : String(error)).slice(0, 300),
    };
  } finally {
    clearTimeout(timer);
  }
}
