// The background job queue's contract: job data and retry options, periodic jobs, the registry of definitions and the backoff.
/**
 * The one home of background jobs: memory facts and summaries, outgoing mail, the
 * free-subscription checks, plan expiry and the demo clean-up all go through `JobQueue`.
 *
 * A job has a name, defined once with its handler, and data that is plain JSON (ids and short
 * strings: the handler loads what it needs from the database), because on the shared engine the
 * data is stored in Redis and the handler may run in another process. Two engines, chosen by
 * configuration (server/jobs/index.ts):
 * - "memory" (no REDIS_URL, the embedded default): jobs live in this process and run after the
 *   request that queued them has answered; waiting jobs are lost when the process ends.
 * - "bullmq" (REDIS_URL set): BullMQ on Redis. Jobs survive restarts, any instance may queue them,
 *   each is claimed by exactly one worker, scheduled jobs run once per cluster per interval.
 *
 * Image jobs are not here: they live in the `image_jobs` table and the image worker claims them
 * atomically from the database, which already runs each exactly once across instances.
 */

/** A job's data: a JSON object of plain values (it is stored in Redis by the shared engine). */
export type JobData = Readonly<Record<string, string | number | boolean | null>>;

/** How a job is retried. */
export interface JobOptions {
  /** Tries in all, the first included (default 1: no retry). */
  attempts?: number;
  /**
   * Wait before the first retry, milliseconds; each further retry waits twice as long
   * (exponential back-off: backoffMs · 2^(try−1)). Default 1000.
   */
  backoffMs?: number;
}

/** A defined job: its handler and retry settings (defaults filled in). */
export interface JobDefinition {
  handler: (data: JobData) => Promise<unknown>;
  attempts: number;
  backoffMs: number;
}

export interface JobQueue {
  /** Which engine holds the jobs (the engines report). */
  readonly engine: "memory" | "bullmq";

  /**
   * Defines the job `name`: `handler` runs once per queued job, in a process that runs workers.
   * A handler that throws is retried per `options`, then given up (logged).
   * @throws Error when `name` is defined twice or `attempts`/`backoffMs` are not positive.
   */
  define<T extends JobData>(name: string, handler: (data: T) => Promise<unknown>, options?: JobOptions): void;

  /**
   * Queues a job. With `key`, a job with the same key that is still waiting makes this one
   * dropped (e.g. one summary refresh per chat). Never rejects: a job that cannot be stored
   * (Redis unreachable) is logged, so a request never fails for the work it sets off.
   * @throws Error at once when `name` was never defined or `data` is not plain JSON.
   */
  enqueue(name: string, data: JobData, options?: { key?: string }): Promise<void>;

  /**
   * Schedules the defined job `name` (with data `{}`) every `intervalMs`, once per cluster per
   * interval (not once per instance), and once soon after the schedule first starts. Takes
   * effect in `start()`.
   * @throws Error when `name` was never defined or `intervalMs` is below 1.
   */
  every(name: string, intervalMs: number): void;

  /** Begins working: claims and runs jobs, keeps the schedules. Only where workers run (JOB_WORKERS=1). */
  start(): Promise<void>;

  /** Stops claiming jobs and waits for the running ones. Jobs may still be queued (for other workers). */
  stop(): Promise<void>;

  /** Jobs waiting, delayed for a retry or running (the queue-depth metric); scheduled ticks not yet due are not counted. */
  depth(): Promise<number>;

  /**
   * Resolves when nothing is waiting, delayed for a retry or running, jobs this process queued
   * that are still on their way to Redis included (tests). Needs a running worker somewhere, or
   * it waits for ever while jobs wait.
   */
  idle(): Promise<void>;

  /** Stops, then frees what the queue holds (its Redis use); nothing can be queued after. */
  close(): Promise<void>;
}

/**
 * Defines `name` and schedules it every `intervalMs` (once per cluster per interval, and soon
 * after the schedule first starts): the one line a periodic clean-up needs in server/container.ts.
 * Periodic jobs are not retried: the next interval tries again.
 */
export function periodic(
  jobs: JobQueue,
  name: string,
  intervalMs: number,
  run: () => Promise<unknown>,
): void {
  jobs.define(name, () => run());
  jobs.every(name, intervalMs);
}

/**
 * The definitions and schedules both engines keep, with the checks both make.
 * @internal engines only.
 */
export class JobRegistry {
  readonly definitions = new Map<string, JobDefinition>();
  /** Job name → interval, milliseconds. */
  readonly schedules = new Map<string, number>();

  define<T extends JobData>(
    name: string,
    handler: (data: T) => Promise<unknown>,
    options: JobOptions = {},
  ): void {
    if (this.definitions.has(name)) throw new Error(`job "${name}" is defined twice`);
    const attempts = options.attempts ?? 1;
    const backoffMs = options.backoffMs ?? 1000;
    if (!Number.isInteger(attempts) || attempts < 1) throw new Error(`job "${name}": attempts must be ≥ 1`);
    if (!(backoffMs > 0)) throw new Error(`job "${name}": backoffMs must be > 0`);
    this.definitions.set(name, { handler: handler as JobDefinition["handler"], attempts, backoffMs });
  }

  /** @throws Error when `name` was never defined. */
  get(name: string): JobDefinition {
    const definition = this.definitions.get(name);
    if (!definition) throw new Error(`job "${name}" is not defined`);
    return definition;
  }

  every(name: string, intervalMs: number): void {
    this.get(name);
    if (!Number.isInteger(intervalMs) || intervalMs < 1)
      throw new Error(`job "${name}": interval must be ≥ 1 ms`);
    this.schedules.set(name, intervalMs);
  }
}

/**
 * A copy of `data` as it comes back from JSON, so both engines hand handlers the same thing.
 * @throws Error when `data` is not a plain object of JSON values.
 */
export function plainData(name: string, data: JobData): JobData {
  const copy: unknown = JSON.parse(JSON.stringify(data ?? null));
  if (copy === null || typeof copy !== "object" || Array.isArray(copy)) {
    throw new Error(`job "${name}": data must be a plain object`);
  }
  for (const [field, value] of Object.entries(copy)) {
    if (value !== null && typeof value === "object")
      throw new Error(`job "${name}": ${field} is not a plain value`);
  }
  return copy as JobData;
}

/** Wait before try `attempt + 1` after try `attempt` failed (1-based): backoffMs · 2^(attempt−1). */
export function backoffDelay(definition: JobDefinition, attempt: number): number {
  return definition.backoffMs * 2 ** (attempt - 1);
}

/** A failed try as one error, naming the job and the try. */
export function jobError(name: string, attempt: number, attempts: number, error: unknown): Error {
  const reason = error instanceof Error ? error.message : String(error);
  return new Error(`job "${name}" failed (try ${attempt} of ${attempts}): ${reason}`, { cause: error });
}
