import fs from "node:fs";
import path from "node:path";
import formbody from "@fastify/formbody";
import multipart from "@fastify/multipart";
import rateLimit from "@fastify/rate-limit";
import fastifyStatic from "@fastify/static";
import Fastify, { type FastifyError, type FastifyInstance } from "fastify";
import { type DbHandle, openDatabase } from "./db/index";
import { migrateToLatest } from "./db/migrations";
import { seed } from "./db/seed";
import type { AppConfig } from "./env";
import { requireUser } from "./http/auth";
import { fail, failBody, failStatus } from "./http/envelope";
import { AppError } from "./http/errors";
import { rateLimitError } from "./http/rate-limit";
import {
  registerSecurity,
  transportOptions,
  UPLOAD_FILE_LIMIT_BYTES,
  UPLOAD_MAX_FIELDS,
  UPLOAD_MAX_FILES,
} from "./http/security";
import { BackgroundQueue } from "./jobs/queue";
import { AccountRepo } from "./modules/account/account.repo";
import { accountRoutes } from "./modules/account/account.routes";
import { AccountService } from "./modules/account/account.service";
import { AdminRepo } from "./modules/admin/admin.repo";
import { adminRoutes } from "./modules/admin/admin.routes";
import { AdminService } from "./modules/admin/admin.service";
import { AuthRepo } from "./modules/auth/auth.repo";
import { authRoutes } from "./modules/auth/auth.routes";
import { AuthService } from "./modules/auth/auth.service";
import { CharactersRepo } from "./modules/characters/characters.repo";
import { characterRoutes } from "./modules/characters/characters.routes";
import { CharactersService } from "./modules/characters/characters.service";
import { ChatRepo } from "./modules/chat/chat.repo";
import { chatRoutes } from "./modules/chat/chat.routes";
import { ChatService } from "./modules/chat/chat.service";
import { answerMissingContent, contentRoutes } from "./modules/images/content.routes";
import { contentSecret, guardChatContent } from "./modules/images/content-access";
import { ImageWorker } from "./modules/images/image-worker";
import { ImagesRepo } from "./modules/images/images.repo";
import { imagesRoutes } from "./modules/images/images.routes";
import { ImagesService } from "./modules/images/images.service";
import { memoryRoutes } from "./modules/memory/memory.routes";
import { MemoryService } from "./modules/memory/memory.service";
import { oauthRoutes } from "./modules/oauth/oauth.routes";
import { OAuthService } from "./modules/oauth/oauth.service";
import { paymentsRoutes } from "./modules/payments/payments.routes";
import { PaymentsService } from "./modules/payments/payments.service";
import { PlansRepo } from "./modules/plans/plans.repo";
import { QuotaRepo } from "./modules/quota/quota.repo";
import { QuotaService } from "./modules/quota/quota.service";
import { siteRoutes } from "./modules/site/site.routes";
import { SiteService } from "./modules/site/site.service";
import { subscribeRoutes } from "./modules/subscribe/subscribe.routes";
import { SubscribeService } from "./modules/subscribe/subscribe.service";
import { systemRoutes } from "./modules/system/system.routes";
import { usersRoutes } from "./modules/users/users.routes";
import { UsersService } from "./modules/users/users.service";
import { voiceRoutes } from "./modules/voice/voice.routes";
import { VoiceService } from "./modules/voice/voice.service";
import { createImageProvider, parseSize } from "./providers/image/index";
import { createLlm, type ManagedLlm, wrap } from "./providers/llm/index";
import type { LlmProvider } from "./providers/llm/llm";
import type { Mailer } from "./providers/mail/mail";
import { OutboxMailer, SmtpMailer } from "./providers/mail/nodemailer";
import { OAuthClient } from "./providers/oauth/oauth";
import { createPayments } from "./providers/payments/index";
import { LocalStorage } from "./providers/storage/local";
import { createStt } from "./providers/stt/index";
import { createTts } from "./providers/tts/index";
import { YouTubeComments } from "./providers/video/youtube";
import { createVision } from "./providers/vision/index";

declare module "fastify" {
  interface FastifyRequest {
    startedAt?: number;
  }
}

export interface App {
  app: FastifyInstance;
  db: DbHandle;
  llm: ManagedLlm;
  auth: AuthService;
  account: AccountService;
  subscribe: SubscribeService;
  /** Plans and payments (issue 9); tests call `expireEndedPlans`. */
  payments: PaymentsService;
  mailer: Mailer;
  /** Background jobs (memory); tests await `jobs.idle()`. */
  jobs: BackgroundQueue;
  /** Durable image jobs (issue 8); tests await `images.idle()`. */
  images: ImageWorker;
  /** Resolves when the language model has loaded (or failed to, with a logged line). */
  llmReady: Promise<void>;
  close(): Promise<void>;
}

/**
 * Builds the whole server: database (migrated and seeded), providers, services and routes.
 * @param options.llm a provider to use instead of the configured one (tests and benchmarks).
 * @throws Error when the configuration is contradictory or the database cannot be migrated.
 */
export async function buildApp(config: AppConfig, options: { llm?: LlmProvider } = {}): Promise<App> {
  const app = Fastify({
    logger: config.LOG_LEVEL === "silent" ? false : { level: config.LOG_LEVEL },
    routerOptions: { ignoreTrailingSlash: true },
    ...transportOptions(config),
  });
  const log = (line: string) => {
    if (config.LOG_LEVEL !== "silent") console.log(line);
  };

  const db = openDatabase(config.DATABASE_URL, config.dataDir);
  await migrateToLatest(db.db as never);
  const storage = new LocalStorage(config.contentDir);
  await seed(db.db, storage);

  const configured = options.llm ? undefined : createLlm(config, log);
  const llm = configured?.llm ?? wrap(options.llm!);
  const llmReady = configured?.ready ?? Promise.resolve();

  const authService = new AuthService(new AuthRepo(db.db), storage, {
    demoLoginId: config.DEMO_LOGIN_ID,
    demoTtlMs: config.DEMO_USER_TTL_HOURS * 3_600_000,
    sessionMaxAgeMs: config.SESSION_MAX_AGE_DAYS * 86_400_000,
  });
  const charactersRepo = new CharactersRepo(db.db);
  const tts = createTts(config);
  const characters = new CharactersService(charactersRepo, storage, llm, {
    preview: (voiceName) => voice.preview(voiceName),
  });
  const jobs = new BackgroundQueue((error) => app.log.error(error));
  const memory = new MemoryService(db.db, llm);
  const quota = new QuotaService(new QuotaRepo(db.db));
  const chat = new ChatService(
    new ChatRepo(db.db),
    quota,
    charactersRepo,
    llm,
    {
      maxReplyTokens: config.LLM_MAX_TOKENS,
      temperature: config.LLM_TEMPERATURE,
      timeoutMs: config.LLM_TIMEOUT_MS,
    },
    memory,
    jobs,
    storage,
  );
  const voice = new VoiceService(
    tts,
    createStt(config),
    storage,
    charactersRepo,
    new ChatRepo(db.db),
    chat,
    { maxRecordingBytes: config.STT_MAX_BYTES },
    (error) => app.log.error(error),
  );

  // issue 8: pictures on request (durable jobs) and photos from the user.
  const imagesRepo = new ImagesRepo(db.db);
  const chatRepoForImages = new ChatRepo(db.db);
  const imageProvider = createImageProvider(config);
  const imageWorker = new ImageWorker(imagesRepo, quota, imageProvider, storage, {
    concurrency: config.IMAGE_CONCURRENCY,
    timeoutMs: config.IMAGE_TIMEOUT_MS,
    log: (error) => app.log.error(error),
  });
  const images = new ImagesService(
    imagesRepo,
    chatRepoForImages,
    quota,
    chat,
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

  // Routes name their own limits; tests turn limiting off (RATE_LIMIT_ENABLED=0) except in the
  // tests of the limits themselves.
  if (config.RATE_LIMIT_ENABLED === "1") {
    await app.register(rateLimit, { global: false, errorResponseBuilder: rateLimitError });
  }
  await registerSecurity(app);
  await app.register(formbody);
  await app.register(multipart, {
    attachFieldsToBody: "keyValues",
    limits: {
      fileSize: UPLOAD_FILE_LIMIT_BYTES,
      files: UPLOAD_MAX_FILES,
      fields: UPLOAD_MAX_FIELDS,
      parts: UPLOAD_MAX_FILES + UPLOAD_MAX_FIELDS,
      fieldSize: 64 * 1024,
      headerPairs: 100,
    },
  });

  app.addHook("onRequest", async (request) => {
    request.startedAt = performance.now();
  });
  // Server-Timing lets the benchmark (and a browser's devtools) split server time from model time.
  app.addHook("onSend", async (request, reply, payload) => {
    if (request.modelMs !== undefined && request.startedAt !== undefined) {
      const total = performance.now() - request.startedAt;
      reply.header(
        "Server-Timing",
        `total;dur=${total.toFixed(3)}, model;dur=${request.modelMs.toFixed(3)}, app;dur=${(total - request.modelMs).toFixed(3)}`,
      );
    }
    return payload;
  });

  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    // Errors of ours that are not the client's (no AppError) are logged; the wire gets a plain line.
    if (!(error instanceof AppError) && failStatus(error) >= 500) request.log.error(error);
    return reply.status(failStatus(error)).send(failBody(error));
  });

  const logError = (error: unknown) => app.log.error(error);
  const mailer: Mailer = config.SMTP_URL
    ? new SmtpMailer(config.SMTP_URL, config.MAIL_FROM)
    : new OutboxMailer(path.join(config.dataDir, "outbox"), config.MAIL_FROM, log);
  const account = new AccountService(
    new AccountRepo(db.db),
    authService,
    mailer,
    { publicUrl: config.publicUrl, resetTtlMs: config.PASSWORD_RESET_TTL_MINUTES * 60_000 },
    logError,
  );
  const site = new SiteService(db.db, mailer, config.ADMIN_EMAIL, logError);
  const oauth = new OAuthService(
    db.db,
    authService,
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
    db.db,
    authService,
    mailer,
    new YouTubeComments(config.YOUTUBE_API_BASE_URL, config.YOUTUBE_API_KEY),
    {
      videoId: config.FREE_SUBSCRIBE_VIDEO_ID,
      ttlMs: config.FREE_SUBSCRIBE_TTL_HOURS * 3_600_000,
      pollMs: config.FREE_SUBSCRIBE_POLL_SECONDS * 1000,
      publicUrl: config.publicUrl,
    },
    logError,
  );
  const stopSubscribeWorker = subscribe.startWorker(
    Math.min(config.FREE_SUBSCRIBE_POLL_SECONDS * 1000, 10_000),
  );

  const auth = requireUser((token) => authService.authenticate(token));
  authRoutes(app, authService, auth);
  accountRoutes(app, account);
  siteRoutes(app, site);
  const plansRepo = new PlansRepo(db.db);
  const payments = new PaymentsService(
    db.db,
    plansRepo,
    createPayments(config),
    { publicUrl: config.publicUrl },
    logError,
  );
  const stopPaymentsWorker = payments.startExpiryWorker(60_000);
  await paymentsRoutes(app, payments, auth, (token) => authService.authenticate(token));
  await adminRoutes(app, new AdminService(new AdminRepo(db.db), plansRepo, storage, subscribe), auth);
  oauthRoutes(app, oauth);
  subscribeRoutes(app, subscribe);
  usersRoutes(app, new UsersService(db.db, storage, authService), auth);
  characterRoutes(app, characters, auth);
  chatRoutes(app, chat, auth, voice, images);
  imagesRoutes(app, images, auth);
  const contentAccess = guardChatContent(app, db.db, contentSecret(config.CONTENT_SECRET, config.dataDir));
  voiceRoutes(app, voice, auth);
  memoryRoutes(app, memory, chat, auth);

  systemRoutes(
    app,
    {
      llm,
      tts,
      dialect: db.dialect,
      transcribes: voice.transcribes,
      images: (user) => images.capabilities(user),
    },
    auth,
  );

  fs.mkdirSync(config.contentDir, { recursive: true });
  // Only `reply.sendFile` (used by contentRoutes and the SPA fallback): /content/ is served by
  // contentRoutes, which authorises the same normalised path it sends (issue 13).
  await app.register(fastifyStatic, { root: config.contentDir, serve: false, decorateReply: true });
  contentRoutes(app, config.contentDir, contentAccess);
  const webRoot = path.resolve(config.WEB_DIST_DIR);
  const hasWeb = fs.existsSync(path.join(webRoot, "index.html"));
  if (hasWeb) {
    await app.register(fastifyStatic, { root: webRoot, prefix: "/", decorateReply: false, wildcard: false });
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split("?")[0] ?? "";
    if (url.startsWith("/api/") || url === "/api") {
      return reply.status(404).send(fail(`Unknown API path: ${request.method} ${url}`, "not_found"));
    }
    // spec 3: a missing public picture is user.jpg; a chat's missing file is a 404 like a refusal.
    if (url.startsWith("/content/")) return answerMissingContent(request, reply, config.contentDir);
    if (request.method === "GET" && hasWeb && !path.extname(url)) {
      return reply.sendFile("index.html", webRoot);
    }
    return reply.status(404).send(fail("Not found.", "not_found"));
  });

  const cleanup = async () => {
    try {
      const removed = await authService.removeExpired();
      if (removed) app.log.info(`Removed ${removed} expired demo users`);
    } catch (error) {
      app.log.error(error);
    }
  };
  await cleanup();
  // issue 8: jobs queued or left running by a previous process are resumed now.
  imageWorker.start();
  const timer = setInterval(() => void cleanup(), 3_600_000);
  timer.unref();

  return {
    app,
    db,
    llm,
    auth: authService,
    llmReady,
    account,
    subscribe,
    payments,
    mailer,
    jobs,
    images: imageWorker,
    async close() {
      await imageWorker.stop();
      clearInterval(timer);
      await jobs.stop();
      stopSubscribeWorker();
      stopPaymentsWorker();
      await app.close();
      await llm.close();
      await tts.close();
      await db.db.destroy();
    },
  };
}
