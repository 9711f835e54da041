// The composition root: opens the server's dependencies and builds every service once.

import { backupSource, buildBackups } from "./container/backups";
import { buildChat, buildImages, buildTurns } from "./container/chat";
import type { ContainerDeps } from "./container/deps";
import { buildModels } from "./container/models";
import { buildPeople } from "./container/people";
import { schedulePeriodicJobs } from "./container/schedules";
import { type Db, openDatabase } from "./db/index";
import { seed } from "./db/seed";
import { CacheGroup } from "./db/short-cache";
import type { AppConfig } from "./env";
import { createJobQueue } from "./jobs/index";
import { AuthRepo } from "./modules/auth/auth.repo";
import { migrateSafely } from "./modules/backups/safe-migrate";
import { ContentAccess, contentSecret } from "./modules/content/content-access";
import { ContentAccessRepo } from "./modules/content/content-access.repo";
import { MembersRepo } from "./modules/members/members.repo";
import { ModelsRepo } from "./modules/models/models.repo";
import { createLlm, wrap } from "./providers/llm/index";
import type { FirstRunState, LlmProvider } from "./providers/llm/llm";
import { openRedis } from "./providers/redis/redis";
import { createStorage } from "./providers/storage/index";

export type { ContainerDeps } from "./container/deps";

/**
 * Which engine holds each kind of shared state, as `/api/ready` and the tests read it:
 * with REDIS_URL set nothing may be "memory" (a silent fall-back would split the cluster).
 */
export interface Engines {
  database: "sqlite" | "postgres";
  storage: "local" | "s3";
  rateLimits: "memory" | "redis" | "off";
  /** The job queue: in this process, or BullMQ on Redis (server/jobs). */
  jobs: "memory" | "bullmq";
  /** Live replies, Stop and the running generations (server/modules/chat/live-replies*.ts). */
  streams: "memory" | "redis";
}

/**
 * Opens what the container is built from, as every process of the server does (the web server,
 * server/app.ts, and the job worker, server/worker.ts): the database (migrated to the latest
 * schema and seeded, both idempotent), the content storage, the language model and, with
 * REDIS_URL, Redis.
 * @param options.llm a provider to use instead of the configured one (tests and benchmarks).
 * @returns the container's dependencies and a promise that resolves when the model has loaded.
 * @throws Error when the database cannot be opened or migrated.
 */
export async function openDependencies(
  config: AppConfig,
  options: { llm?: LlmProvider; log: (line: string) => void; logError: (error: unknown) => void },
): Promise<ContainerDeps & { llmReady: Promise<void> }> {
  const { log, logError } = options;
  const db = openDatabase(config.DATABASE_URL, config.dataDir);
  // An existing SQLite database is backed up before pending migrations, and put back if one fails.
  await migrateSafely(db, {
    source: backupSource(config),
    dir: config.backupDir,
    passphrase: config.BACKUP_PASSPHRASE,
    keep: config.BACKUP_KEEP,
    log,
  });
  const storage = createStorage(config);
  await seed(db.db, storage);
  const configured = options.llm
    ? undefined
    : createLlm(config, log, { firstRun: await firstRunState(db.db) });
  const llm = configured?.llm ?? wrap(options.llm!);
  const redis = config.REDIS_URL ? openRedis(config.REDIS_URL, config.REDIS_PREFIX) : undefined;
  return {
    db,
    storage,
    llm,
    log,
    logError,
    redis,
    llmInjected: Boolean(options.llm),
    llmReady: configured?.ready ?? Promise.resolve(),
  };
}

/**
 * Whether an admin account exists and an admin has made a model connection the default, read at
 * start for the line that says how to connect a model (server/providers/llm/index.ts).
 */
async function firstRunState(db: Db): Promise<FirstRunState> {
  const [adminExists, assignments] = await Promise.all([
    new MembersRepo(db).adminExists(),
    new ModelsRepo(db).assignments(),
  ]);
  return { adminExists, modelConnected: assignments.some((a) => a.scope === "default") };
}

/** Every repository, provider and service of the server, each built once. */
export type Container = ReturnType<typeof buildContainer>;

/**
 * The composition root: builds each repository, provider and service exactly once and
 * passes them to one another, so no module builds or imports another's service. Providers are
 * chosen from the configuration by their factories. Nothing here touches HTTP; starting and
 * stopping the background workers is `startWorkers` / `stopWorkers`.
 * The builders are in server/container/: sign-in, accounts and plans (people.ts), the model
 * connections (models.ts), characters, chat, voice and pictures (chat.ts), the schedules (schedules.ts).
 */
export function buildContainer(config: AppConfig, deps: ContainerDeps) {
  const { db, storage, llm, log, logError, redis } = deps;
  const models = buildModels(config, deps);
  // every background job goes through it (BullMQ on Redis when REDIS_URL is set).
  const jobs = createJobQueue(redis, logError);

  // what every chat message reads (the session, the character, the chat session) is kept a few
  // seconds per process; the services that write those rows drop them, each given its cache
  // below. The rule of how stale it may be is in server/db/short-cache.ts.
  const caches = new CacheGroup();

  // Sign-in, accounts and plans. "Take my data" exports the cards of the characters (built below).
  const people = buildPeople(config, deps, jobs, caches, {
    exportCard: (user, id) => characters.exportCard(user, id),
  });
  const { auth, payments, account, subscribe } = people;

  // Characters, chat, voice, memory and pictures.
  const chatting = buildChat(config, deps, jobs, caches);
  const { tts, characters, instanceLease, chat, embedder } = chatting;
  const { images, imageWorker } = buildImages(config, deps, chatting);
  const { turns, edits, checkins } = buildTurns(config, deps, chatting, images);

  const backups = buildBackups(config, log);

  schedulePeriodicJobs(
    config,
    jobs,
    { auth, payments, account, instanceLease, chat, checkins, subscribe, backups },
    log,
  );

  const runsWorkers = config.JOB_WORKERS === "1";
  const engines: Engines = {
    database: db.dialect,
    storage: config.s3 ? "s3" : "local",
    rateLimits: config.RATE_LIMIT_ENABLED !== "1" ? "off" : redis ? "redis" : "memory",
    jobs: jobs.engine,
    streams: chat.live.engine,
  };
  return {
    engines,
    /** The per-process caches of the chat path; each writer drops its rows (server/db/short-cache.ts). */
    caches,
    redis,
    db,
    storage,
    llm,
    tts,
    jobs,
    ...people,
    characters,
    quota: chatting.quota,
    memory: chatting.memory,
    conversation: chatting.conversation,
    chatImport: chatting.chatImport,
    inspections: chatting.inspections,
    search: chatting.search,
    chat,
    groups: chatting.groups,
    turns,
    edits,
    voice: chatting.voice,
    images,
    imageWorker,
    checkins,
    /** The admin console's model connections. */
    models: models.service,
    /** Backups of this instance's database and files (BACKUP_*). */
    backups,
    /** Who may read a chat's pictures: the signed picture cookie (CONTENT_SECRET). */
    contentAccess: new ContentAccess(
      new ContentAccessRepo(db.db),
      new AuthRepo(db.db),
      contentSecret(config.CONTENT_SECRET, config.dataDir),
    ),

    /**
     * Takes this process's lease (the owner of the entries it stores, renewed every few seconds),
     * then starts this process's workers when it runs them (JOB_WORKERS=1, and `npm run worker`): the
     * job queue (its jobs and schedules) and the image worker, which resumes image jobs left by a
     * process that ended. With JOB_WORKERS=0 the process only queues jobs; the image
     * worker is stopped before it starts, so it claims nothing here (requests still queue image
     * jobs in the database; a worker process finds them within its sweep, 5 s).
     */
    async startWorkers(): Promise<void> {
      await models.start();
      await instanceLease.start();
      if (!runsWorkers) {
        await imageWorker.stop();
        return;
      }
      imageWorker.start();
      await jobs.start();
    },

    /** Stops the workers and waits for running jobs; jobs can still be queued (before the HTTP server closes). */
    async stopWorkers(): Promise<void> {
      await imageWorker.stop();
      await jobs.stop();
    },

    /** Frees the engines and the database (after the HTTP server has closed). */
    async close(): Promise<void> {
      await instanceLease.stop();
      await llm.close();
      await tts.close();
      await jobs.close();
      await embedder?.close();
      await db.db.destroy();
      await redis?.close();
    },
  };
}
