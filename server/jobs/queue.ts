/**
 * In-process background jobs (the embedded default: no broker needed). Jobs run one at a time in
 * the order queued, after the request that queued them has answered, so they never block a reply.
 * A job with the same key as one still waiting is dropped (e.g. one summary refresh per chat).
 * Failures are logged, never thrown.
 */
export class BackgroundQueue {
  private readonly jobs: Array<{ key: string; run: () => Promise<void> }> = [];
  private readonly waitingKeys = new Set<string>();
  private running: Promise<void> | undefined;
  private stopped = false;

  constructor(private readonly log: (error: unknown) => void) {}

  /** Queues `run` unless a job with `key` is already waiting. */
  push(key: string, run: () => Promise<void>): void {
    if (this.stopped || this.waitingKeys.has(key)) return;
    this.waitingKeys.add(key);
    this.jobs.push({ key, run });
    this.running ??= this.drain();
  }

  /** Jobs waiting or running (the queue-depth metric). */
  get depth(): number {
    return this.jobs.length + (this.running ? 1 : 0);
  }

  /** Resolves when every queued job has run (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Drops waiting jobs and waits for the running one. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.jobs.length = 0;
    this.waitingKeys.clear();
    await this.idle();
  }

  private async drain(): Promise<void> {
    // Let the request that queued the job answer first.
    await new Promise((resolve) => setImmediate(resolve));
    for (let job = this.jobs.shift(); job; job = this.jobs.shift()) {
      this.waitingKeys.delete(job.key);
      try {
        await job.run();
      } catch (error) {
        this.log(error);
      }
    }
    this.running = undefined;
  }
}
