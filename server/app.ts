// The whole server put together: database migrated and seeded, the container of services, the HTTP setup and every module's routes.
import type { FastifyInstance } from "fastify";
import { buildContainer, type Container, type Engines, openDependencies } from "./container";
import type { DbHandle } from "./db/index";
import type { CacheGroup } from "./db/short-cache";
import type { AppConfig } from "./env";
import { requireUser } from "./http/auth";
import { type RegisteredRoute, recordRoutes } from "./http/route-writes";
import { createServer, registerFileSending, registerPlugins, registerSpa } from "./http/setup";
import type { JobQueue } from "./jobs/queue";
import { accountRoutes } from "./modules/account/account.routes";
import type { AccountService } from "./modules/account/account.service";
import { adminRoutes } from "./modules/admin/admin.routes";
import { authRoutes } from "./modules/auth/auth.routes";
import type { AuthService } from "./modules/auth/auth.service";
import { backupRoutes } from "./modules/backups/backups.routes";
import { characterRoutes } from "./modules/characters/characters.routes";
import { chatRoutes } from "./modules/chat/chat.routes";
import { editsRoutes } from "./modules/chat/edits.routes";
import { groupsRoutes } from "./modules/chat/groups.routes";
import { historyRoutes } from "./modules/chat/history.routes";
import { importRoutes } from "./modules/chat/import.routes";
import { inspectionsRoutes } from "./modules/chat/inspections.routes";
import { checkinsRoutes } from "./modules/checkins/checkins.routes";
import type { CheckinsService } from "./modules/checkins/checkins.service";
import { answerMissingContent, contentRoutes } from "./modules/content/content.routes";
import { guardChatContent } from "./modules/content/content-access";
import type { ImageWorker } from "./modules/images/image-worker";
import { imagesRoutes } from "./modules/images/images.routes";
import { type MembersServices, membersRoutes } from "./modules/members/members.routes";
import { memoryRoutes } from "./modules/memory/memory.routes";
import { modelsRoutes } from "./modules/models/models.routes";
import { oauthRoutes } from "./modules/oauth/oauth.routes";
import { paymentsRoutes } from "./modules/payments/payments.routes";
import type { PaymentsService } from "./modules/payments/payments.service";
import { searchRoutes } from "./modules/search/search.routes";
import type { SiteSettingsService } from "./modules/site/settings.service";
import { siteRoutes } from "./modules/site/site.routes";
import { subscribeRoutes } from "./modules/subscribe/subscribe.routes";
import type { SubscribeService } from "./modules/subscribe/subscribe.service";
import { systemRoutes } from "./modules/system/system.routes";
import { usersRoutes } from "./modules/users/users.routes";
import { voiceRoutes } from "./modules/voice/voice.routes";
import { watchQueue } from "./observability/metrics";
import type { ManagedLlm } from "./providers/llm/index";
import type { LlmProvider } from "./providers/llm/llm";
import type { Mailer } from "./providers/mail/mail";

export interface App {
  app: FastifyInstance;
  /** Which engine holds each kind of shared state. */
  engines: Engines;
  db: DbHandle;
  llm: ManagedLlm;
  auth: AuthService;
  account: AccountService;
  /** Self-hosted accounts (owner set-up, members, invitations, sign-up); tests make set-up links. */
  accounts: MembersServices;
  /**
   * `/setup/<token>`: the owner's set-up link made at this start while no admin exists, which
   * server/main.ts prints once it listens; undefined once an admin exists.
   */
  setupPath: string | undefined;
  /** The site's switches (the guest demo), read by server/main.ts for its start-up lines. */
  siteSettings: SiteSettingsService;
  subscribe: SubscribeService;
  /** Plans and payments; tests call `expireEndedPlans`. */
  payments: PaymentsService;
  mailer: Mailer;
  /** Background jobs (memory, mail, scheduled clean-ups); tests await `jobs.idle()`. */
  jobs: JobQueue;
  /** Durable image jobs; tests await `images.idle()`. */
  images: ImageWorker;
  /** Characters that write first; tests run `checkins.sendDue(at)` with a shifted clock. */
  checkins: CheckinsService;
  /**
   * The chat path's per-process caches: a test that writes the database behind the
   * app's back calls `caches.forgetAll()` (the app sees such writes within 5 s otherwise).
   */
  caches: CacheGroup;
  /** Every route registered, with whether a GET declares that it writes (server/http/route-writes.ts). */
  routes: ReadonlyArray<RegisteredRoute>;
  /** Resolves when the language model has loaded (or failed to, with a logged line). */
  llmReady: Promise<void>;
  close(): Promise<void>;
}

/**
 * Builds the whole server: database (migrated and seeded), the container of providers and
 * services (server/container.ts), the HTTP setup (server/http/setup.ts) and the routes.
 * @param options.llm a provider to use instead of the configured one (tests and benchmarks).
 * @throws Error when the configuration is contradictory or the database cannot be migrated.
 */
export async function buildApp(config: AppConfig, options: { llm?: LlmProvider } = {}): Promise<App> {
  const app = createServer(config);
  const routes = recordRoutes(app);
  const log = (line: string) => {
    if (config.LOG_LEVEL !== "silent") console.log(line);
  };

  const logError = (error: unknown) => app.log.error(error);
  const { llmReady, ...deps } = await openDependencies(config, { llm: options.llm, log, logError });
  const { db, llm, redis } = deps;
  const c = buildContainer(config, deps);
  await registerPlugins(app, config, redis);
  await registerRoutes(app, config, c);
  await c.startWorkers();
  // The guest demo's first value, from the environment, on the first start only.
  await c.siteSettings.seed();
  // product.md §2 "Owner set-up": a one-time link while no admin account exists.
  const setupPath = await c.accounts.setup.startupPath();

  return {
    app,
    engines: c.engines,
    db,
    llm,
    auth: c.auth,
    llmReady,
    account: c.account,
    accounts: c.accounts,
    setupPath,
    siteSettings: c.siteSettings,
    subscribe: c.subscribe,
    payments: c.payments,
    mailer: c.mailer,
    jobs: c.jobs,
    images: c.imageWorker,
    checkins: c.checkins,
    caches: c.caches,
    routes,
    async close() {
      await c.stopWorkers();
      await app.close();
      await c.close();
    },
  };
}

/** Every route of the API, then the content files and the SPA (product.md §7; the order matters only for the last two). */
async function registerRoutes(app: FastifyInstance, config: AppConfig, c: Container): Promise<void> {
  const auth = requireUser((token) => c.auth.authenticate(token));
  // the chat routes (every message) take the session from the per-process cache; the
  // rest read it afresh. How stale it may be, and who drops it: server/db/short-cache.ts.
  const chatAuth = requireUser((token) => c.auth.authenticate(token, { cached: true }));
  // Before every route: its onSend hook must reach the routes of the plugin scopes too.
  const contentAccess = guardChatContent(app, c.contentAccess);
  await authRoutes(app, c.auth, auth);
  accountRoutes(app, c.account);
  await siteRoutes(app, { site: c.site, settings: c.siteSettings }, auth);
  await paymentsRoutes(app, c.payments, auth, (token) => c.auth.authenticate(token));
  await adminRoutes(app, c.admin, auth);
  await backupRoutes(app, c.backups, auth, (admin, action, target, details) =>
    c.admin.audit(admin, action, target, details),
  );
  await modelsRoutes(app, c.models, auth);
  await membersRoutes(app, c.accounts, auth);
  oauthRoutes(app, c.oauth);
  subscribeRoutes(app, c.subscribe);
  await usersRoutes(app, c.users, auth);
  await characterRoutes(app, c.characters, auth);
  // before the history routes (opening a chat clears its unread check-ins by a hook).
  await checkinsRoutes(app, c.checkins, auth, (error) => app.log.error(error));
  await historyRoutes(app, c.conversation, auth);
  await chatRoutes(app, { chat: c.chat, turns: c.turns }, chatAuth);
  await editsRoutes(app, { edits: c.edits, live: c.chat.live }, auth);
  await importRoutes(app, c.chatImport, auth);
  await inspectionsRoutes(app, { inspections: c.inspections, conversation: c.conversation }, auth);
  await groupsRoutes(app, { groups: c.groups, turns: c.turns, chat: c.chat }, auth);
  await imagesRoutes(app, c.images, c.conversation, auth, c.voice);
  await voiceRoutes(app, c.voice, auth);
  await memoryRoutes(app, c.memory, c.conversation, auth);
  await searchRoutes(app, c.search, auth);
  await systemRoutes(
    app,
    {
      llm: c.llm,
      tts: c.tts,
      dialect: c.db.dialect,
      transcribes: c.voice.transcribes,
      images: (user) => c.images.capabilities(user),
      // /api/ready asks the database and the content storage (local disk or S3).
      db: c.db.db,
      storage: c.storage,
      checks: c.redis ? [{ name: "redis", run: () => c.redis!.ping() }] : [],
      metrics: { enabled: config.METRICS_ENABLED !== "0", token: config.METRICS_TOKEN },
    },
    auth,
  );

  watchQueue("background", () => c.jobs.depth());

  // reply.sendFile is the SPA's (index.html); content goes through storage (local disk or S3).
  await registerFileSending(app, config.contentDir);
  contentRoutes(app, c.storage, contentAccess);
  await registerSpa(app, config.WEB_DIST_DIR, (request, reply) =>
    answerMissingContent(request, reply, c.storage),
  );
}
