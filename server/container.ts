import path from "node:path";
import type { DbHandle } from "./db/index";
import type { AppConfig } from "./env";
import { BackgroundQueue } from "./jobs/queue";
import { AccountRepo } from "./modules/account/account.repo";
import { AccountService } from "./modules/account/account.service";
import { AdminRepo } from "./modules/admin/admin.repo";
import { AdminService } from "./modules/admin/admin.service";
import { AuthRepo } from "./modules/auth/auth.repo";
import { AuthService } from "./modules/auth/auth.service";
import { CharactersRepo } from "./modules/characters/characters.repo";
import { CharactersService } from "./modules/characters/characters.service";
import { ChatRepo } from "./modules/chat/chat.repo";
import { ChatService } from "./modules/chat/chat.service";
import { GroupsService } from "./modules/chat/groups.service";
import { TurnService } from "./modules/chat/turn.service";
import { ConversationRepo } from "./modules/conversation/conversation.repo";
import { ConversationService } from "./modules/conversation/conversation.service";
import { ImageWorker } from "./modules/images/image-worker";
import { ImagesRepo } from "./modules/images/images.repo";
import { ImagesService } from "./modules/images/images.service";
import { MemoryRepo } from "./modules/memory/memory.repo";
import { MemoryService } from "./modules/memory/memory.service";
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
import type { ManagedLlm } from "./providers/llm/index";
import type { Mailer } from "./providers/mail/mail";
import { OutboxMailer, SmtpMailer } from "./providers/mail/nodemailer";
import { OAuthClient } from "./providers/oauth/oauth";
import { createPayments } from "./providers/payments/index";
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
  /** Where background failures go (the server's logger). */
  logError: (error: unknown) => void;
}

/** Every repository, provider and service of the server, each built once. */
export type Container = ReturnType<typeof buildContainer>;

/**
 * The composition root (issue 14): builds each repository, provider and service exactly once and
 * passes them to one another, so no module builds or imports another's service. Providers are
 * chosen from the configuration by their factories. Nothing here touches HTTP; starting and
 * stopping the background workers is `startWorkers` / `stopWorkers`.
 */
export function buildContainer(config: AppConfig, deps: ContainerDeps) {
  const { db, storage, llm, log, logError } = deps;
  const kysely = db.db;

  // Sign-in, accounts and plans.
  const plansRepo = new PlansRepo(kysely);
  const auth = new AuthService(new AuthRepo(kysely), storage, {
    demoLoginId: config.DEMO_LOGIN_ID,
    demoTtlMs: config.DEMO_USER_TTL_HOURS * 3_600_000,
    sessionMaxAgeMs: config.SESSION_MAX_AGE_DAYS * 86_400_000,
  });
  const mailer: Mailer = config.SMTP_URL
    ? new SmtpMailer(config.SMTP_URL, config.MAIL_FROM)
    : new OutboxMailer(path.join(config.dataDir, "outbox"), config.MAIL_FROM, log);
  const account = new AccountService(
    new AccountRepo(kysely),
    auth,
    mailer,
    { publicUrl: config.publicUrl, resetTtlMs: config.PASSWORD_RESET_TTL_MINUTES * 60_000 },
    logError,
  );
  const site = new SiteService(new SiteRepo(kysely), mailer, config.ADMIN_EMAIL, logError);
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
  );
  const payments = new PaymentsService(
    new PaymentsRepo(kysely),
    plansRepo,
    createPayments(config),
    { publicUrl: config.publicUrl },
    logError,
  );
  const admin = new AdminService(new AdminRepo(kysely), plansRepo, storage, subscribe);
  const users = new UsersService(new UsersRepo(kysely), storage, auth);

  // Characters, chat, voice, memory and pictures.
  const charactersRepo = new CharactersRepo(kysely);
  const tts = createTts(config);
  const characters = new CharactersService(charactersRepo, storage, llm, {
    preview: (voiceName) => voice.preview(voiceName),
  });
  const jobs = new BackgroundQueue(logError);
  const memory = new MemoryService(new MemoryRepo(kysely), llm, jobs);
  const quota = new QuotaService(new QuotaRepo(kysely));
  // The one home of a conversation: chats, sessions, the user's entries and their rules.
  const conversation = new ConversationService(new ConversationRepo(kysely), quota);
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

  // issue 8: pictures on request (durable jobs) and photos from the user.
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

  const stops: Array<() => void> = [];
  return {
    db,
    storage,
    llm,
    tts,
    mailer,
    jobs,
    plansRepo,
    auth,
    account,
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
    voice,
    images,
    imageWorker,

    /**
     * Starts the background work: removes expired demo users now and hourly, resumes image jobs
     * left by a previous process (issue 8), polls free subscriptions and expires ended plans.
     */
    async startWorkers(): Promise<void> {
      const cleanup = async () => {
        try {
          const removed = await auth.removeExpired();
          if (removed) log(`Removed ${removed} expired demo users`);
        } catch (error) {
          logError(error);
        }
      };
      await cleanup();
      imageWorker.start();
      const timer = setInterval(() => void cleanup(), 3_600_000);
      timer.unref();
      stops.push(() => clearInterval(timer));
      stops.push(subscribe.startWorker(Math.min(config.FREE_SUBSCRIBE_POLL_SECONDS * 1000, 10_000)));
      stops.push(payments.startExpiryWorker(60_000));
    },

    /** Stops the background work and waits for running jobs (before the HTTP server closes). */
    async stopWorkers(): Promise<void> {
      await imageWorker.stop();
      for (const stop of stops.splice(0)) stop();
      await jobs.stop();
    },

    /** Frees the engines and the database (after the HTTP server has closed). */
    async close(): Promise<void> {
      await llm.close();
      await tts.close();
      await db.db.destroy();
    },
  };
}
