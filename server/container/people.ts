// The composition root's builders of sign-in, accounts, plans, payments and the site's mail.
import type { Db } from "../db/index";
import { CACHE_TTL_MS, type CacheGroup, ShortCache } from "../db/short-cache";
import type { AppConfig } from "../env";
import type { JobQueue } from "../jobs/index";
import { AccountRepo } from "../modules/account/account.repo";
import { AccountService } from "../modules/account/account.service";
import { ExportRepo } from "../modules/account/export.repo";
import { type CardExporter, ExportService } from "../modules/account/export.service";
import { AdminRepo } from "../modules/admin/admin.repo";
import { AdminService } from "../modules/admin/admin.service";
import { AuthRepo } from "../modules/auth/auth.repo";
import { AuthService } from "../modules/auth/auth.service";
import { contentSecret } from "../modules/content/content-access";
import { InvitationsService } from "../modules/members/invitations";
import { MembersRepo } from "../modules/members/members.repo";
import { MembersService } from "../modules/members/members.service";
import { SetupService } from "../modules/members/setup.service";
import { SignupService } from "../modules/members/signup.service";
import { OAuthRepo } from "../modules/oauth/oauth.repo";
import { OAuthService } from "../modules/oauth/oauth.service";
import { PaymentsRepo } from "../modules/payments/payments.repo";
import { PaymentsService } from "../modules/payments/payments.service";
import { PlansRepo } from "../modules/plans/plans.repo";
import { SiteSettingsRepo } from "../modules/site/settings.repo";
import { SiteSettingsService } from "../modules/site/settings.service";
import { SiteRepo } from "../modules/site/site.repo";
import { SiteService } from "../modules/site/site.service";
import { SubscribeRepo } from "../modules/subscribe/subscribe.repo";
import { SubscribeService } from "../modules/subscribe/subscribe.service";
import { UsersRepo } from "../modules/users/users.repo";
import { UsersService } from "../modules/users/users.service";
import { createMailer } from "../providers/mail/index";
import type { Mailer } from "../providers/mail/mail";
import { OAuthClient } from "../providers/oauth/oauth";
import { createPayments } from "../providers/payments/index";
import type { FileStorage } from "../providers/storage/storage";
import { YouTubeComments } from "../providers/video/youtube";
import type { ContainerDeps } from "./deps";

/** The per-process cache of sign-in sessions (AuthService's). */
type AuthCache = NonNullable<ConstructorParameters<typeof AuthService>[2]["cache"]>;

/** Most entries of the per-process cache of sign-in sessions (server/db/short-cache.ts). */
const HOT_CACHE_ENTRIES = 10_000;

/**
 * Sign-in on a database (the server, and `npm run users`, where `demoOpen` is never true).
 * @param cache the per-process cache of sessions (none: every check reads the database).
 */
export function buildAuth(
  config: AppConfig,
  db: Db,
  storage: FileStorage,
  demoOpen: () => Promise<boolean>,
  cache?: AuthCache,
): AuthService {
  return new AuthService(new AuthRepo(db), storage, {
    demoLoginId: config.DEMO_LOGIN_ID,
    demoTtlMs: config.DEMO_USER_TTL_HOURS * 3_600_000,
    demoOpen,
    sessionMaxAgeMs: config.SESSION_MAX_AGE_DAYS * 86_400_000,
    cache,
  });
}

/**
 * The members of a self-hosted site, its first-admin setup and its invitations (the server, and
 * `npm run users`, which sends invitations without a job queue).
 */
export function buildMembers(
  config: AppConfig,
  db: Db,
  auth: AuthService,
  delivery: { mailer: Mailer; jobs?: JobQueue; logError: (error: unknown) => void },
) {
  const repo = new MembersRepo(db);
  const members = new MembersService(repo, auth);
  const invitations = new InvitationsService(
    repo,
    {
      secret: contentSecret(config.CONTENT_SECRET, config.dataDir),
      publicUrl: config.PUBLIC_URL ? config.publicUrl : "",
      defaultOrigin: config.publicUrl,
    },
    delivery,
  );
  return { repo, members, invitations, setup: new SetupService(repo, members, config.publicUrl) };
}

/** The services of self-hosted accounts (server/modules/members). */
function buildAccounts(
  config: AppConfig,
  deps: ContainerDeps,
  auth: AuthService,
  mailer: Mailer,
  jobs: JobQueue,
) {
  const { repo, members, invitations, setup } = buildMembers(config, deps.db.db, auth, {
    mailer,
    jobs,
    logError: deps.logError,
  });
  const signup = new SignupService(repo, members, invitations, mailer, jobs, {
    mode: config.REGISTRATION,
    publicUrl: config.publicUrl,
  });
  return { setup, members, invitations, signup };
}

/** Sign-in with YouTube (server/modules/oauth): its OAuth client from the OAUTH_YOUTUBE_* settings. */
function buildOAuth(config: AppConfig, deps: ContainerDeps, auth: AuthService) {
  return new OAuthService(
    new OAuthRepo(deps.db.db),
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
    deps.logError,
  );
}

/** The free plan for a YouTube comment (server/modules/subscribe), from the FREE_SUBSCRIBE_* settings. */
function buildSubscribe(
  config: AppConfig,
  deps: ContainerDeps,
  auth: AuthService,
  mailer: Mailer,
  jobs: JobQueue,
) {
  return new SubscribeService(
    new SubscribeRepo(deps.db.db),
    auth,
    mailer,
    new YouTubeComments(config.YOUTUBE_API_BASE_URL, config.YOUTUBE_API_KEY),
    {
      videoId: config.FREE_SUBSCRIBE_VIDEO_ID,
      ttlMs: config.FREE_SUBSCRIBE_TTL_HOURS * 3_600_000,
      pollMs: config.FREE_SUBSCRIBE_POLL_SECONDS * 1000,
      publicUrl: config.publicUrl,
    },
    deps.logError,
    jobs,
  );
}

/**
 * Sign-in, accounts and plans: the session service, the mailer, payments, the user's account
 * (reset, erasure, "Take my data"), self-hosted accounts, the site's contact mail, OAuth, the
 * free subscription, the admin console and the users.
 * @param caches the per-process caches the session cache joins (server/db/short-cache.ts).
 * @param cards the characters' card export "Take my data" uses (built later, so called late).
 */
export function buildPeople(
  config: AppConfig,
  deps: ContainerDeps,
  jobs: JobQueue,
  caches: CacheGroup,
  cards: CardExporter,
) {
  const { db, storage, log, logError } = deps;
  const kysely = db.db;
  const plansRepo = new PlansRepo(kysely);
  // The site's switches: the guest demo is open only while the owner says so.
  const siteSettings = new SiteSettingsService(new SiteSettingsRepo(kysely), {
    demoAtFirstStart: config.demoLogin,
    registration: config.REGISTRATION,
    demoLoginId: config.DEMO_LOGIN_ID,
    publicUrl: config.PUBLIC_URL ? config.publicUrl : "",
  });
  const auth = buildAuth(
    config,
    kysely,
    storage,
    () => siteSettings.demoOpen(),
    new ShortCache({ ttlMs: CACHE_TTL_MS, max: HOT_CACHE_ENTRIES }, caches),
  );
  const mailer = createMailer(config, log);
  // A plan or add-on it writes drops the user's cached sessions (`auth`).
  const payments = new PaymentsService(
    new PaymentsRepo(kysely),
    plansRepo,
    createPayments(config),
    { publicUrl: config.publicUrl },
    auth,
  );
  const account = new AccountService(
    new AccountRepo(kysely),
    auth,
    mailer,
    { publicUrl: config.publicUrl, resetTtlMs: config.PASSWORD_RESET_TTL_MINUTES * 60_000 },
    jobs,
    // "Erase my account" removes the user's files and asks whether payments are on.
    { storage, payments },
    // "Take my data": the cards come from the characters module.
    new ExportService(new ExportRepo(kysely), {
      storage,
      mailer,
      jobs,
      cards,
      logError,
      publicUrl: config.publicUrl,
    }),
  );
  // built in this order, as each may define its background jobs on the queue.
  const accounts = buildAccounts(config, deps, auth, mailer, jobs);
  const site = new SiteService(new SiteRepo(kysely), mailer, config.ADMIN_EMAIL, jobs);
  const oauth = buildOAuth(config, deps, auth);
  const subscribe = buildSubscribe(config, deps, auth, mailer, jobs);
  return {
    plansRepo,
    auth,
    mailer,
    payments,
    account,
    /** Self-hosted accounts: owner set-up, members, invitations, sign-up. */
    accounts,
    site,
    /** The site's switches (the guest demo), changed in the admin console. */
    siteSettings,
    oauth,
    subscribe,
    // A user's row it writes drops their cached sessions (`auth`).
    admin: new AdminService(new AdminRepo(kysely), plansRepo, storage, subscribe, auth),
    users: new UsersService(new UsersRepo(kysely), storage, auth),
  };
}
