// The in-process job queue of the embedded default: jobs run one at a time in this process, after the request that queued them.
import { backoffDelay, type JobData, type JobQueue, jobError } from "./queue";
import { RegisteredJobQueue } from "./registered-queue";

interface Waiting {
  name: string;
  data: JobData;
  key?: string;
  /** The try this run is, 1-based. */
  attempt: number;
}

/**
 * The in-process engine of `JobQueue` (the embedded default, no broker). Jobs wait in
 * this process and run one at a time (`concurrency`), in the order queued, starting after the
 * request that queued them has answered (the next turn of the event loop), so they never delay a
 * reply. A failed try is retried after backoffMs · 2^(try−1) until `attempts` are used, then
 * logged and given up. Scheduled jobs are queued soon after `start()` and then every interval,
 * never twice while one is waiting. Waiting jobs are lost when the process ends: that is what the
 * BullMQ engine is for.
 */
export class MemoryJobQueue extends RegisteredJobQueue implements JobQueue {
  readonly engine = "memory";
  private readonly waiting: Waiting[] = [];
  private readonly waitingKeys = new Set<string>();
  /** Retries waiting for their back-off. */
  private readonly retries = new Set<NodeJS.Timeout>();
  /** The schedules' interval timers. */
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly running = new Set<Promise<void>>();
  private readonly watchers: Array<() => void> = [];
  private readonly concurrency: number;
  private started = false;
  private stopped = false;
  private pumpQueued = false;

  /**
   * @param log where failed tries go (the server's logger).
   * @param options.concurrency jobs run at once (default 1, as the in-process model serves few at once).
   */
  constructor(
    private readonly log: (error: unknown) => void,
    options: { concurrency?: number } = {},
  ) {
    super();
    this.concurrency = options.concurrency ?? 1;
  }

  enqueue(name: string, data: JobData, options: { key?: string } = {}): Promise<void> {
    this.add({ name, data: this.queued(name, data).data, key: options.key, attempt: 1 });
    return Promise.resolve();
  }

  every(name: string, intervalMs: number): void {
    this.registry.every(name, intervalMs);
    if (this.started && !this.stopped) this.schedule(name, intervalMs);
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    for (const [name, intervalMs] of this.registry.schedules) this.schedule(name, intervalMs);
    this.pumpSoon();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    for (const timer of this.retries) clearTimeout(timer);
    this.retries.clear();
    this.waiting.length = 0;
    this.waitingKeys.clear();
    this.changed();
    await this.idle();
  }

  async depth(): Promise<number> {
    return this.waiting.length + this.retries.size + this.running.size;
  }

  async idle(): Promise<void> {
    while (this.waiting.length + this.retries.size + this.running.size > 0) {
      await new Promise<void>((resolve) => this.watchers.push(resolve));
    }
  }

  async close(): Promise<void> {
    await this.stop();
  }

  private schedule(name: string, intervalMs: number): void {
    const tick = () => this.add({ name, data: {}, key: `every:${name}`, attempt: 1 });
    tick();
    const timer = setInterval(tick, intervalMs);
    timer.unref();
    this.timers.push(timer);
  }

  private add(job: Waiting): void {
    if (this.stopped) return;
    if (job.key !== undefined) {
      if (this.waitingKeys.has(job.key)) return;
      this.waitingKeys.add(job.key);
    }
    this.waiting.push(job);
    this.pumpSoon();
  }

  /** Starts jobs on the next turn of the event loop: the request that queued them answers first. */
  private pumpSoon(): void {
    if (this.pumpQueued || !this.started) return;
    this.pumpQueued = true;
    setImmediate(() => {
      this.pumpQueued = false;
      this.pump();
    });
  }

  private pump(): void {
    while (!this.stopped && this.running.size < this.concurrency && this.waiting.length > 0) {
      const job = this.waiting.shift()!;
      if (job.key !== undefined) this.waitingKeys.delete(job.key);
      const run = this.run(job).finally(() => {
        this.running.delete(run);
        this.pump();
        this.changed();
      });
      this.running.add(run);
    }
  }

  private async run(job: Waiting): Promise<void> {
    const definition = this.registry.get(job.name);
    try {
      await definition.handler(job.data);
    } catch (error) {
      this.log(jobError(job.name, job.attempt, definition.attempts, error));
      if (job.attempt >= definition.attempts || this.stopped) return;
      const timer = setTimeout(
        () => {
          this.retries.delete(timer);
          // A retry is a new wait: it keeps its key, unless one with that key waits already.
          this.add({ ...job, attempt: job.attempt + 1 });
          this.changed();
        },
        backoffDelay(definition, job.attempt),
      );
      timer.unref();
      this.retries.add(timer);
    }
  }

  /** Wakes every `idle()` to look again. */
  private changed(): void {
    for (const wake of this.watchers.splice(0)) wake();
  }
}
