import path from "node:path";
import { type DbHandle, openDatabase } from "./db/index";
import { migrateToLatest } from "./db/migrations";
import { seed } from "./db/seed";
import { CACHE_TTL_MS, CacheGroup, ShortCache } from "./db/short-cache";
import type { AppConfig } from "./env";
import { createJobQueue, periodic } from "./jobs/index";
import { AccountRepo } from "./modules/account/account.repo";
import { AccountService } from "./modules/account/account.service";
import { ExportRepo } from "./modules/account/export.repo";
import { EXPORT_CLEANUP_MS, ExportService } from "./modules/account/export.service";
import { AccountsRepo } from "./modules/accounts/accounts.repo";
import { InvitationsService } from "./modules/accounts/invitations";
import { MembersService } from "./modules/accounts/members.service";
import { SetupService } from "./modules/accounts/setup.service";
import { SignupService } from "./modules/accounts/signup.service";
import { AdminRepo } from "./modules/admin/admin.repo";
import { AdminService } from "./modules/admin/admin.service";
import { AuthRepo } from "./modules/auth/auth.repo";
import { AuthService } from "./modules/auth/auth.service";
import { CharactersRepo } from "./modules/characters/characters.repo";
import { CharactersService } from "./modules/characters/characters.service";
import { ChatRepo } from "./modules/chat/chat.repo";
import { ChatService } from "./modules/chat/chat.service";
import { EditsService } from "./modules/chat/edits.service";
import { GroupsService } from "./modules/chat/groups.service";
import { InstanceLease } from "./modules/chat/instance-lease";
import { TurnService } from "./modules/chat/turn.service";
import { CheckinsRepo } from "./modules/checkins/checkins.repo";
import { CHECKIN_JOB_MS, CheckinsService } from "./modules/checkins/checkins.service";
import { contentSecret } from "./modules/content/content-access";
import { ChatsRepo } from "./modules/conversation/chats.repo";
import { ChatsService } from "./modules/conversation/chats.service";
import { HistoryRepo } from "./modules/conversation/history.repo";
import { HistoryService } from "./modules/conversation/history.service";
import { ImageWorker } from "./modules/images/image-worker";
import { ImagesRepo } from "./modules/images/images.repo";
import { ImagesService } from "./modules/images/images.service";
import { MemoryRepo } from "./modules/memory/memory.repo";
import { MemoryService } from "./modules/memory/memory.service";
import { keyBoxFor } from "./modules/models/models.keys";
import { ModelRegistry } from "./modules/models/models.registry";
import { ModelsRepo } from "./modules/models/models.repo";
import { envConnection, ModelsService } from "./modules/models/models.service";
import { OAuthRepo } from "./modules/oauth/oauth.repo";
import { OAuthService } from "./modules/oauth/oauth.service";
import { PaymentsRepo } from "./modules/payments/payments.repo";
import { PaymentsService } from "./modules/payments/payments.service";
import { PlansRepo } from "./modules/plans/plans.repo";
import { QuotaRepo } from "./modules/quota/quota.repo";
import { QuotaService } from "./modules/quota/quota.service";
import { SiteRepo } from "./modules/site/site.repo";
import { SiteService } from "./modules/site/site.service";
import { SubscribeRepo } from "./modules/subscribe/subscribe.repo";
import { SubscribeService } from "./modules/subscribe/subscribe.service";
import { UsersRepo } from "./modules/users/users.repo";
import { UsersService } from "./modules/users/users.service";
import { VoiceRepo } from "./modules/voice/voice.repo";
import { VoiceService } from "./modules/voice/voice.service";
import { createImageProvider, parseSize } from "./providers/image/index";
import { createLlm, type ManagedLlm, wrap } from "./providers/llm/index";
import type { LlmProvider } from "./providers/llm/llm";
import type { Mailer } from "./providers/mail/mail";
import { OutboxMailer, SmtpMailer } from "./providers/mail/nodemailer";
import { OAuthClient } from "./providers/oauth/oauth";
import { createPayments } from "./providers/payments/index";
import { openRedis, type RedisHandle } from "./providers/redis/redis";
import { createStorage } from "./providers/storage/index";
import type { FileStorage } from "./providers/storage/storage";
import { createStt } from "./providers/stt/index";
import { createTts } from "./providers/tts/index";
import { YouTubeComments } from "./providers/video/youtube";
import { createVision } from "./providers/vision/index";

/** What the container is built from: the opened database, storage and model, and the loggers. */
export interface ContainerDeps {
  db: DbHandle;
  storage: FileStorage;
  llm: ManagedLlm;
  /** A plain line for the operator (silent under LOG_LEVEL=silent). */
  log: (line: string) => void;
  /** Whether `llm` was given to openDependencies (tests, benchmarks) rather than configured. */
  llmInjected?: boolean;
  /** Where background failures go (the server's logger). */
  logError: (error: unknown) => void;
  /** The shared Redis (REDIS_URL); undefined: one instance, everything in memory. */
  redis?: RedisHandle;
}

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
  await migrateToLatest(db.db as never);
  const storage = createStorage(config);
  await seed(db.db, storage);
  const configured = options.llm ? undefined : createLlm(config, log);
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

/** The services of self-hosted accounts (server/modules/accounts). */
function buildAccounts(
  config: AppConfig,
  kysely: DbHandle["db"],
  auth: AuthService,
  mailer: Mailer,
  jobs: ReturnType<typeof createJobQueue>,
) {
  const repo = new AccountsRepo(kysely);
  const members = new MembersService(repo, auth);
  const invitations = new InvitationsService(repo, {
    secret: contentSecret(config.CONTENT_SECRET, config.dataDir),
    publicUrl: config.publicUrl,
  });
  const signup = new SignupService(repo, members, invitations, mailer, jobs, {
    mode: config.REGISTRATION,
    publicUrl: config.publicUrl,
  });
  return { setup: new SetupService(repo, members, config.publicUrl), members, invitations, signup };
}

/**
 * The model connections of the admin console (product.md §9): the registry becomes the language
 * model's router. The environment's model seeds the first connection unless a provider was
 * injected (tests, benchmarks), which keeps answering wherever no connection is assigned.
 */
function buildModels(config: AppConfig, deps: ContainerDeps) {
  const { db, llm, log, logError } = deps;
  const repo = new ModelsRepo(db.db);
  const keys = keyBoxFor(config);
  const env = deps.llmInjected ? null : envConnection(config);
  const registry = new ModelRegistry(repo, {
    config,
    base: () => llm.base(),
    fallback: !env,
    keys,
    log,
    logError,
  });
  llm.setRouter(registry);
  const service = new ModelsService(
    repo,
    registry,
    keys,
    { dataDir: config.dataDir, envModelPath: config.LLM_MODEL_PATH },
    logError,
  );
  return {
    service,
    registry,
    /** Seeds the environment's connection (first start only), loads the connections, follows changes. */
    async start(): Promise<void> {
      await service.seed(env);
      await registry.start();
    },
  };
}

/** Most entries of each per-process cache of the chat path: sessions, characters, chats. */
const HOT_CACHE_ENTRIES = 10_000;

/** How often pending replies whose generation stopped are looked for, milliseconds. */
const STALLED_SWEEP_MS = 5_000;

/** Every repository, provider and service of the server, each built once. */
export type Container = ReturnType<typeof buildContainer>;

/**
 * The composition root: builds each repository, provider and service exactly once and
 * passes them to one another, so no module builds or imports another's service. Providers are
 * chosen from the configuration by their factories. Nothing here touches HTTP; starting and
 * stopping the background workers is `startWorkers` / `stopWorkers`.
 */
export function buildContainer(config: AppConfig, deps: ContainerDeps) {
  const { db, storage, llm, log, logError, redis } = deps;
  const models = buildModels(config, deps);
  const kysely = db.db;
  // every background job goes through it (BullMQ on Redis when REDIS_URL is set).
  const jobs = createJobQueue(redis, logError);

  // what every chat message reads (the session, the character, the chat session) is
  // kept a few seconds per process; the rule of how stale it may be is in server/db/short-cache.ts.
  const caches = new CacheGroup();

  // Sign-in, accounts and plans.
  const plansRepo = new PlansRepo(kysely);
  const auth = new AuthService(new AuthRepo(kysely), storage, {
    demoLoginId: config.DEMO_LOGIN_ID,
    demoTtlMs: config.DEMO_USER_TTL_HOURS * 3_600_000,
    sessionMaxAgeMs: config.SESSION_MAX_AGE_DAYS * 86_400_000,
    cache: new ShortCache({ ttlMs: CACHE_TTL_MS, max: HOT_CACHE_ENTRIES }, caches),
  });
  const mailer: Mailer = config.SMTP_URL
    ? new SmtpMailer(config.SMTP_URL, config.MAIL_FROM)
    : new OutboxMailer(path.join(config.dataDir, "outbox"), config.MAIL_FROM, log);
  const payments = new PaymentsService(new PaymentsRepo(kysely), plansRepo, createPayments(config), {
    publicUrl: config.publicUrl,
  });
  const account = new AccountService(
    new AccountRepo(kysely),
    auth,
    mailer,
    { publicUrl: config.publicUrl, resetTtlMs: config.PASSWORD_RESET_TTL_MINUTES * 60_000 },
    jobs,
    // "Erase my account" removes the user's files and asks whether payments are on.
    { storage, payments },
    // "Take my data": the cards come from the characters module (built below, used in jobs).
    new ExportService(new ExportRepo(kysely), {
      storage,
      mailer,
      jobs,
      cards: { exportCard: (user, id) => characters.exportCard(user, id) },
      logError,
      publicUrl: config.publicUrl,
    }),
  );
  const accounts = buildAccounts(config, kysely, auth, mailer, jobs);
  const site = new SiteService(new SiteRepo(kysely), mailer, config.ADMIN_EMAIL, jobs);
  const oauth = new OAuthService(
    new OAuthRepo(kysely),
    auth,
    {
      youtube: new OAuthClient({
        authorizeUrl: config.OAUTH_YOUTUBE_AUTHORIZE_URL,
        tokenUrl: config.OAUTH_YOUTUBE_TOKEN_URL,
        userInfoUrl: config.OAUTH_YOUTUBE_USERINFO_URL,
        clientId: config.OAUTH_YOUTUBE_CLIENT_ID,
        clientSecret: config.OAUTH_YOUTUBE_CLIENT_SECRET,
        redirectUri: `${config.publicUrl}/login/youtube`,
        scope: config.OAUTH_YOUTUBE_SCOPE,
      }),
    },
    logError,
  );
  const subscribe = new SubscribeService(
    new SubscribeRepo(kysely),
    auth,
    mailer,
    new YouTubeComments(config.YOUTUBE_API_BASE_URL, config.YOUTUBE_API_KEY),
    {
      videoId: config.FREE_SUBSCRIBE_VIDEO_ID,
      ttlMs: config.FREE_SUBSCRIBE_TTL_HOURS * 3_600_000,
      pollMs: config.FREE_SUBSCRIBE_POLL_SECONDS * 1000,
      publicUrl: config.publicUrl,
    },
    logError,
    jobs,
  );
  const admin = new AdminService(new AdminRepo(kysely), plansRepo, storage, subscribe);
  const users = new UsersService(new UsersRepo(kysely), storage, auth);

  // Characters, chat, voice, memory and pictures.
  const charactersRepo = new CharactersRepo(kysely);
  const tts = createTts(config);
  const characters = new CharactersService(charactersRepo, storage, llm, {
    preview: (voiceName) => voice.preview(voiceName),
  });
  const memory = new MemoryService(
    new MemoryRepo(kysely),
    llm,
    jobs,
    Date.now,
    logError,
    (sessionId) => conversation.chats.sessionChanged(sessionId),
    caches,
  );
  const quota = new QuotaService(new QuotaRepo(kysely));
  // A conversation: its chats (which chat an id names, members, sessions) and their history
  // (the entries and their rules, swipes, edits).
  // This process's lease: the owner of the entries it stores (settled by another if it stops).
  const instanceLease = new InstanceLease(kysely, Date.now, logError);
  const chats = new ChatsService(new ChatsRepo(kysely), Date.now, caches);
  const history = new HistoryService(new HistoryRepo(kysely), chats, Date.now, caches, instanceLease.id);
  const conversation = { chats, history };
  const chatRepo = new ChatRepo(kysely);
  const chat = new ChatService(
    chatRepo,
    conversation,
    quota,
    llm,
    {
      maxReplyTokens: config.LLM_MAX_TOKENS,
      temperature: config.LLM_TEMPERATURE,
      timeoutMs: config.LLM_TIMEOUT_MS,
    },
    memory,
    storage,
    // live replies, Stop and the running generations in Redis when the cluster has one.
    ChatService.liveReplies(redis, logError),
  );
  const groups = new GroupsService(chatRepo, conversation);
  const voice = new VoiceService(
    tts,
    createStt(config),
    storage,
    new VoiceRepo(kysely),
    conversation,
    { maxRecordingBytes: config.STT_MAX_BYTES },
    logError,
  );

  // pictures on request (durable jobs) and photos from the user.
  const imagesRepo = new ImagesRepo(kysely);
  const imageProvider = createImageProvider(config);
  const imageWorker = new ImageWorker(imagesRepo, quota, imageProvider, storage, {
    concurrency: config.IMAGE_CONCURRENCY,
    timeoutMs: config.IMAGE_TIMEOUT_MS,
    log: logError,
  });
  const images = new ImagesService(
    imagesRepo,
    conversation,
    quota,
    imageProvider,
    createVision(config),
    llm,
    storage,
    imageWorker,
    {
      portrait: parseSize(config.IMAGE_PORTRAIT_SIZE),
      landscape: parseSize(config.IMAGE_LANDSCAPE_SIZE),
      maxReplyTokens: config.LLM_MAX_TOKENS,
      temperature: config.LLM_TEMPERATURE,
      timeoutMs: config.LLM_TIMEOUT_MS,
    },
  );
  // What one message sets off: the reply, its speech (voice) and the picture it may carry.
  const turns = new TurnService(chat, conversation, voice, images, logError);
  // swipes, edits, deletes and rewinds; memory drawn from what changed is drawn again.
  const edits = new EditsService(chat, conversation, memory, storage, voice);
  // characters that write first (a check-in after a quiet period, never on a request).
  const checkins = new CheckinsService(
    new CheckinsRepo(kysely),
    chats,
    llm,
    async (userId, characterId) =>
      (await memory.listFacts(userId, characterId)).slice(0, 10).map((f) => f.fact),
    {
      quietHours: config.CHECKIN_QUIET_HOURS,
      maxReplyTokens: config.LLM_MAX_TOKENS,
      temperature: config.LLM_TEMPERATURE,
    },
    Date.now,
    logError,
  );

  // Scheduled jobs: each runs once per cluster per interval (and soon after its
  // schedule first starts), in whichever process runs workers. A new one is one line here.
  periodic(jobs, "auth.remove-expired-demo-users", 3_600_000, async () => {
    const removed = await auth.removeExpired();
    if (removed) log(`Removed ${removed} expired demo users`);
  });
  periodic(jobs, "payments.expire-ended-plans", 60_000, () => payments.expireEndedPlans());
  periodic(jobs, "account.expire-exports", EXPORT_CLEANUP_MS, () => account.exports.cleanup());
  // A reply left "pending" by an instance that died is settled (partial or failed) within seconds.
  periodic(jobs, "chat.settle-stalled-replies", STALLED_SWEEP_MS, async () => {
    await instanceLease.removeLapsed();
    const settled = await chat.settleStalledReplies();
    if (settled) log(`Settled ${settled} stalled replies`);
  });
  periodic(jobs, "checkins.send-due", CHECKIN_JOB_MS, async () => {
    const sent = await checkins.sendDue();
    if (sent) log(`Sent ${sent} check-ins`);
  });
  if (subscribe.checksComments) {
    const every = Math.min(config.FREE_SUBSCRIBE_POLL_SECONDS * 1000, 10_000);
    periodic(jobs, "subscribe.check-comments", every, () => subscribe.runDue());
  }

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
    /** The per-process caches of the chat path, dropped after write requests. */
    caches,
    redis,
    db,
    storage,
    llm,
    tts,
    mailer,
    jobs,
    plansRepo,
    auth,
    account,
    /** Self-hosted accounts: owner set-up, members, invitations, sign-up. */
    accounts,
    site,
    oauth,
    subscribe,
    payments,
    admin,
    users,
    characters,
    quota,
    memory,
    conversation,
    chat,
    groups,
    turns,
    edits,
    voice,
    images,
    imageWorker,
    checkins,
    /** The admin console's model connections. */
    models: models.service,

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
      await db.db.destroy();
      await redis?.close();
    },
  };
}
