// The cluster's job queue engine: BullMQ on Redis, shared by web instances and workers, with retries and periodic schedules.
import type { Job, Queue, Worker } from "bullmq";
import { lazyModule } from "../lazy-module";
import type { RedisHandle } from "../providers/redis/redis";
import { type JobData, type JobQueue, jobError } from "./queue";
import { RegisteredJobQueue } from "./registered-queue";

/** The BullMQ queue every job goes through (keys: `<REDIS_PREFIX>jobs:background:…`). */
const QUEUE_NAME = "background";
/** Finished jobs kept for inspection: at most this many, for at most this long (seconds). */
const KEEP_COMPLETED = { count: 1000, age: 3600 };
const KEEP_FAILED = { count: 1000, age: 7 * 86_400 };
/** How often `idle()` looks at the queue, milliseconds. */
const IDLE_POLL_MS = 20;

/** BullMQ, loaded when the Redis-backed queue is created, not at startup. */
const loadBullMq = lazyModule<typeof import("bullmq")>("bullmq");

/**
 * The shared engine of `JobQueue`: BullMQ on the cluster's Redis.
 *
 * Why BullMQ rather than pg-boss or graphile-worker on PostgreSQL: Redis is already required for
 * a cluster (the shared rate limits, Stop across instances, the resumable reply streams), so the
 * queue adds no new server; its claims are Redis scripts (atomic, cheap) instead of row locks on
 * the database that already carries every chat write; and it brings what we need ready-made and
 * well kept: retries with exponential back-off, de-duplication by key, and job schedulers that
 * make one job per interval for the whole cluster.
 *
 * Guarantees: a job is claimed by exactly one worker (BullMQ moves it from the wait list to the
 * active list in one atomic script, and a lock renewed while it runs keeps it there; a worker that
 * dies mid-job loses its lock and the job is run again by another worker, at most once more).
 * Jobs wait in Redis, so a restart loses nothing; any instance can queue them, only those that
 * called `start()` (JOB_WORKERS=1, or `npm run worker`) run them. `every()` makes a BullMQ job
 * scheduler (id = the job's name): a new schedule runs at once, then every interval, one job per
 * interval across all instances; each `start()` upserts it again, which keeps its timing, and
 * so does each reconnect to Redis (which brings the schedules back when Redis lost its data).
 * Schedules no longer declared by the code are removed at `start()`.
 * Keys live under `<REDIS_PREFIX>jobs` (BullMQ's own `prefix`; it refuses ioredis's keyPrefix).
 */
export class BullMqJobQueue extends RegisteredJobQueue implements JobQueue {
  readonly engine = "bullmq";
  private readonly queue: Queue;
  private worker: Worker | undefined;
  /** Jobs of this process on their way to Redis (`idle()` waits for them first). */
  private readonly adding = new Set<Promise<void>>();
  private readonly prefix: string;
  private readonly concurrency: number;
  /** Between `start()` and `stop()`: this instance keeps the schedules declared. */
  private keeping = false;
  /** The last declaration of the schedules (settled; `declareSchedules()` chains on it). */
  private declaring: Promise<void> = Promise.resolve();

  /**
   * What happens when Redis loses its data (a restart without AOF or snapshot, a fail-over to an
   * empty replica): the connection drops, ioredis reconnects and emits "ready", and this listener
   * declares the schedules again, so each comes back with its first run at once (as when it first
   * started), then one per interval. Schedules come back because they live in the code (`every()`).
   * Queued jobs do not: those waiting, delayed for a retry or running when the data went are lost
   * for good (a running one finishes its work, then BullMQ's "Missing lock" error is logged and
   * it is not retried), and so are the finished jobs kept for inspection and the de-duplication
   * keys. The queue's meta hash (BullMQ's version) is written again too; what BullMQ reads from
   * it (the events stream's length, the paused flag) has defaults without it. The worker needs
   * nothing: its blocking read reconnects by itself and is woken by the first job queued after.
   *
   * Why on every "ready" (a reconnect that found its data too): `upsertJobScheduler` is an
   * upsert: a scheduler that exists keeps its next run's time (its waiting tick is replaced by
   * one at the same millisecond, with the same job id), so declaring again, from every
   * instance at once, never makes a second run in an interval. Only schedules are upserted here:
   * removing those the code no longer declares stays with `start()`, so instances of two
   * versions of the code reconnecting together do not take each other's schedules away.
   * Redis emptied without a reconnect (FLUSHALL) is not seen here.
   */
  private readonly redeclare = (): void => {
    if (!this.keeping) return;
    this.declareSchedules().catch((error: unknown) =>
      this.log(
        new Error("the job schedules could not be declared again after Redis reconnected", { cause: error }),
      ),
    );
  };

  /**
   * @param redis the cluster's Redis: queueing uses its command connection (fails fast when Redis
   *   is down), the worker a connection of its own (BullMQ's blocking reads need no timeout).
   * @param log where failed tries and connection errors go.
   * @param options.concurrency jobs this process runs at once (default 1).
   */
  constructor(
    private readonly redis: RedisHandle,
    private readonly log: (error: unknown) => void,
    options: { concurrency?: number } = {},
  ) {
    super();
    this.prefix = `${redis.prefix}jobs`;
    this.concurrency = options.concurrency ?? 1;
    this.queue = new (loadBullMq().Queue)(QUEUE_NAME, { connection: redis.client, prefix: this.prefix });
    this.queue.on("error", (error) => log(error));
  }

  enqueue(name: string, data: JobData, options: { key?: string } = {}): Promise<void> {
    const { definition, data: plain } = this.queued(name, data);
    const adding = this.queue
      .add(name, plain, {
        attempts: definition.attempts,
        backoff: { type: "exponential", delay: definition.backoffMs },
        removeOnComplete: KEEP_COMPLETED,
        removeOnFail: KEEP_FAILED,
        // Dropped while one with the key waits; queued once more if that one is already running.
        ...(options.key !== undefined ? { deduplication: { id: options.key, keepLastIfActive: true } } : {}),
      })
      .then(
        () => undefined,
        (error: unknown) => this.log(new Error(`job "${name}" could not be queued`, { cause: error })),
      )
      .finally(() => this.adding.delete(adding));
    this.adding.add(adding);
    return adding;
  }

  every(name: string, intervalMs: number): void {
    this.registry.every(name, intervalMs);
  }

  async start(): Promise<void> {
    if (this.keeping) return;
    // Listening before the first declaration: a reconnect in between is not missed.
    this.keeping = true;
    this.redis.client.on("ready", this.redeclare);
    try {
      for (const scheduler of await this.queue.getJobSchedulers(0, -1)) {
        if (!this.registry.schedules.has(scheduler.key)) await this.queue.removeJobScheduler(scheduler.key);
      }
      await this.declareSchedules();
    } catch (error) {
      this.keeping = false;
      this.redis.client.off("ready", this.redeclare);
      throw error;
    }
    const worker = new (loadBullMq().Worker)(QUEUE_NAME, (job: Job) => this.process(job), {
      connection: this.redis.connection("jobs-worker"),
      prefix: this.prefix,
      concurrency: this.concurrency,
    });
    worker.on("error", (error) => this.log(error));
    worker.on("failed", (job, error) => {
      if (job) this.log(jobError(job.name, job.attemptsMade, job.opts.attempts ?? 1, error));
      else this.log(error);
    });
    this.worker = worker;
    await worker.waitUntilReady();
  }

  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.keeping = false;
    this.redis.client.off("ready", this.redeclare);
    await this.declaring;
    // Waits for the jobs this worker runs; nothing new is claimed meanwhile.
    await worker?.close();
  }

  async depth(): Promise<number> {
    return this.count();
  }

  async idle(): Promise<void> {
    // A job queued just before (e.g. by the request a test just sent) may not be in Redis yet.
    while (this.adding.size > 0) await Promise.all([...this.adding]);
    while ((await this.count()) > 0) await new Promise((resolve) => setTimeout(resolve, IDLE_POLL_MS));
  }

  async close(): Promise<void> {
    await this.stop();
    await this.queue.close();
  }

  /**
   * Jobs waiting, running or delayed for a retry, read in one transaction so a job moving between
   * lists is never missed. A delayed job whose id starts with "repeat:" is a schedule's next tick,
   * not work (periodic jobs are not retried).
   */
  private async count(): Promise<number> {
    const keys = this.queue.keys;
    const replies = await this.redis.client
      .multi()
      .llen(keys.wait!)
      .llen(keys.active!)
      .llen(keys.paused!)
      .zcard(keys.prioritized!)
      .zrange(keys.delayed!, "0", "-1")
      .exec();
    if (!replies) throw new Error("the queue's counts were not read (transaction aborted)");
    let total = 0;
    for (const [error, value] of replies) {
      if (error) throw error;
      total += Array.isArray(value)
        ? value.filter((id) => !String(id).startsWith("repeat:")).length
        : Number(value);
    }
    return total;
  }

  /**
   * Declares every schedule of the registry again, after the declarations before it (never two at
   * once). Resolves when Redis holds them all. @throws the first Redis error.
   */
  private declareSchedules(): Promise<void> {
    const declaring = this.declaring.then(() => this.upsertSchedules());
    this.declaring = declaring.catch(() => undefined);
    return declaring;
  }

  /** The queue's meta (BullMQ's version) and one upserted job scheduler per schedule. */
  private async upsertSchedules(): Promise<void> {
    await this.queue.backend.setQueueMeta(this.queue.metaValues);
    for (const [name, every] of this.registry.schedules) {
      const { attempts, backoffMs } = this.registry.get(name);
      await this.queue.upsertJobScheduler(
        name,
        { every },
        {
          name,
          data: {},
          opts: {
            attempts,
            backoff: { type: "exponential", delay: backoffMs },
            removeOnComplete: KEEP_COMPLETED,
            removeOnFail: KEEP_FAILED,
          },
        },
      );
    }
  }

  private async process(job: Job): Promise<void> {
    const definition = this.registry.definitions.get(job.name);
    // Queued by another version of the code: retrying cannot help.
    if (!definition)
      throw new (loadBullMq().UnrecoverableError)(`job "${job.name}" is not defined in this process`);
    await definition.handler(job.data as JobData);
  }
}
