// Signing in (product.md §9): bearer tokens of one hour extended up to a maximum age, devices, demo accounts and the cached session check.
import { randomBytes, randomUUID } from "node:crypto";
import argon2 from "argon2";
import { TOKEN_LIFETIME_MS } from "../../../common/constants";
import type { Device, User } from "../../db/schema";
import type { ShortCache } from "../../db/short-cache";
import { AppError, forbidden, notFound, unauthorized } from "../../errors";
import { msg } from "../../i18n/messages";
import type { FileStorage } from "../../providers/storage/storage";
import { secretHash } from "../../security/secret-hash";
import { quotaPeriodKey } from "../quota/quota.service";
import type { AuthRepo } from "./auth.repo";

/** What a successful sign-in gives the SPA: the bearer token, its expiry and the landing page. */
export interface SignIn {
  token: string;
  expiresAt: number;
  user: User;
  /** product.md §4: users with no character go to preset selection, others to their list. */
  page: "/characters/selection" | "/characters/list";
}

/** a blocked account cannot sign in (its tokens are refused too, see AuthRepo). */
const blockedAccount = () => new AppError("account_blocked", msg("auth.accountBlockedContactUs"));

const hashToken = secretHash;

/** The refusal of a demo sign-in while the owner has the guest demo turned off. */
const demoOff = () => forbidden(msg("auth.guestDemoTurnedOffSite"), "demo_off");

/** A bearer session as the per-process cache keeps it. */
export interface CachedSession {
  user: User;
  /** Sign-in time, epoch ms (the absolute lifetime counts from it). */
  startedAt: number;
}

/**
 * What a service that writes users' rows drops after the write: the cached sessions, which hold
 * the row (the rule of server/db/short-cache.ts). AuthService is it.
 */
export type SessionDrops = Pick<AuthService, "userChanged" | "everyUserChanged">;

/**
 * Sign-in, token lifetime, devices and demo accounts. Tokens are 256-bit random
 * strings, stored as sha256 hashes, valid one hour (product.md §9), extended an hour at a time up to an
 * absolute lifetime counted from the sign-in (SESSION_MAX_AGE_DAYS, 30 days by
 * default), and revoked by logout, a password change or reset, and an admin block.
 */
export class AuthService {
  /** A real argon2id hash to verify against for unknown e-mails, so timing does not tell. */
  private dummyHash?: Promise<string>;

  constructor(
    private readonly repo: AuthRepo,
    private readonly storage: FileStorage,
    private readonly options: {
      demoLoginId: string;
      demoTtlMs: number;
      /** Whether the guest demo is open now (the site setting an admin changes; read at each demo sign-in). */
      demoOpen: () => Promise<boolean>;
      /** Absolute session lifetime from the sign-in, ms; `extend` never goes past it. */
      sessionMaxAgeMs: number;
      /**
       * Sessions resolved by `authenticate`, by token hash (one database read less per
       * request). The rule (server/db/short-cache.ts): an entry lives a few seconds at most and
       * never past the token's expiry; logout, a password change and a revoked device drop it at
       * once in this process; other instances see a revocation within the cache's ttl.
       */
      cache?: ShortCache<CachedSession>;
    },
    private readonly now: () => number = Date.now,
  ) {}

  /** Hashes a password with argon2id (library defaults: 64 MiB, 3 passes). */
  hashPassword(password: string): Promise<string> {
    return argon2.hash(password, { type: argon2.argon2id });
  }

  /**
   * Password sign-in.
   * @throws AppError "invalid_credentials" (answered success 0) for an unknown e-mail or a wrong password.
   */
  async login(email: string, password: string): Promise<SignIn> {
    const user = await this.repo.findUserByEmail(email.trim().toLowerCase());
    this.dummyHash ??= this.hashPassword(randomUUID());
    const hash = user?.password_hash ?? (await this.dummyHash);
    const valid = await argon2.verify(hash, password).catch(() => false);
    if (!user?.password_hash || !valid) {
      throw new AppError("invalid_credentials", msg("auth.invalidEmailPassword"));
    }
    return this.signInAs(user);
  }

  /**
   * Demo sign-in (product.md §2: /login/{id}). Each call creates a fresh demo user on the Free plan that
   * is removed with its data after the demo lifetime (24 h by default). The only way a guest
   * account is made, so the owner's switch (Admin → Site, DEMO_LOGIN) closes every way in.
   * @throws AppError 403 "demo_off" while the guest demo is turned off (whatever `id`, nothing is
   * created); 404 "demo_unknown" when `id` is not the configured demo id.
   */
  async demoLogin(id: string): Promise<SignIn> {
    if (!(await this.options.demoOpen())) throw demoOff();
    if (id !== this.options.demoLoginId) throw notFound(msg("auth.demoLinkNotValid"), "demo_unknown");
    const userId = randomUUID();
    const user = await this.insertUserOnPlan("Free", {
      id: userId,
      email: `demo-${userId}@demo.invalid`,
      password_hash: null,
      full_name: "Guest",
      user_name: `guest-${userId.slice(0, 6)}`,
      is_demo: 1,
      expires_at: this.now() + this.options.demoTtlMs,
    });
    return this.signInAs(user);
  }

  /**
   * Creates a member account on a plan (free subscription, OAuth sign-up).
   * @param input.email normalised address, unique; input.password optional (OAuth accounts have none).
   * @throws Error when the plan does not exist (the database was not seeded).
   */
  async createAccount(input: {
    email: string;
    password?: string;
    fullName: string;
    planName: string;
  }): Promise<User> {
    const id = randomUUID();
    return this.insertUserOnPlan(input.planName, {
      id,
      email: input.email,
      password_hash: input.password ? await this.hashPassword(input.password) : null,
      full_name: input.fullName,
      user_name: input.email.split("@")[0]!.slice(0, 40) || `user-${id.slice(0, 6)}`,
      is_demo: 0,
      expires_at: null,
    });
  }

  /** Inserts a user with the plan's flags and limits (product.md §3: cl, vl, pl, il, chat limit). */
  private async insertUserOnPlan(
    planName: string,
    fields: Pick<
      User,
      "id" | "email" | "password_hash" | "full_name" | "user_name" | "is_demo" | "expires_at"
    >,
  ): Promise<User> {
    const plan = await this.repo.findPlanByName(planName);
    if (!plan) throw new Error(`Plan ${planName} is missing: the database was not seeded.`);
    const now = this.now();
    const user: User = {
      role: "user",
      blocked: 0,
      stripe_customer_id: "",
      stripe_subscription_id: "",
      ui_language: "",
      plan_ends_at: null,
      ...fields,
      picture: "",
      plan_id: plan.id,
      character_limit: plan.character_limit,
      voice_limit: plan.voice_limit,
      photo_upload: plan.photo_upload,
      image_generation: plan.image_generation,
      chat_limit: plan.message_limit,
      chat_count: 0,
      quota_period: plan.quota_period,
      chat_period: quotaPeriodKey(plan.quota_period, now),
      extra_messages: 0,
      uncensored: plan.uncensored,
      adult_confirmed_at: null,
      created_at: now,
    };
    await this.repo.insertUser(user);
    return user;
  }

  /**
   * Sets a new password (argon2id) and revokes every device and every session of the user but
   * `keepToken`'s (the session that made the change, when signed in). A device or a
   * session opened with the old password must not outlive it.
   */
  async setPasswordAndRevokeSessions(userId: string, password: string, keepToken = ""): Promise<void> {
    await this.repo.updatePassword(userId, await this.hashPassword(password));
    await this.repo.revokeAccessOfUser(userId, keepToken ? hashToken(keepToken) : "");
    this.options.cache?.forgetUser(userId);
  }

  /**
   * Registers a device of the signed-in user for device login. The secret is shown once; only its
   * hash is stored. The device's app puts `CompanionDevice/<secret>` in its user agent.
   * @throws AppError 403 "demo_device" for a guest (demo user): a guest's account lasts a day and
   * has no password to fall back on, so it gets no long-lived device.
   */
  async registerDevice(user: User, name: string): Promise<{ id: string; secret: string }> {
    if (user.is_demo) throw forbidden(msg("auth.guestAccountsCannotRegisterDevices"), "demo_device");
    const secret = randomBytes(32).toString("base64url");
    const id = randomUUID();
    await this.repo.insertDevice({
      id,
      user_id: user.id,
      secret_hash: hashToken(secret),
      name,
      created_at: this.now(),
      last_used_at: null,
    });
    return { id, secret };
  }

  /**
   * Device login (product.md §2 Login: a device identifier marker in the user agent).
   * @throws AppError "invalid_device" (answered success 0) for an unknown or removed device.
   */
  async deviceLogin(secret: string): Promise<SignIn> {
    const device = await this.repo.findDeviceBySecretHash(hashToken(secret), this.now());
    if (!device) throw new AppError("invalid_device", msg("auth.deviceNotRegisteredSignE"));
    return this.signInAs(device.user, { deviceId: device.deviceId });
  }

  /** The signed-in user's devices, newest first (listed on the profile). */
  listDevices(user: User): Promise<Device[]> {
    return this.repo.devicesOfUser(user.id);
  }

  /**
   * Revokes one of the signed-in user's devices and ends the sessions its device login started.
   * @throws AppError 404 when `id` is not a device of this user (someone else's ids are not told apart).
   */
  async revokeDevice(user: User, id: string): Promise<void> {
    const deleted = await this.repo.deleteDeviceOfUser(user.id, id);
    this.options.cache?.forgetUser(user.id);
    if (!deleted) throw notFound(msg("auth.deviceNotFound"), "device_unknown");
  }

  /**
   * The user of an unexpired, unrevoked token whose session is within its absolute lifetime.
   * With `options.cached` (the chat routes) it may come from the session cache (see
   * the constructor's `options.cache` for how stale it may be), and what is read is cached until
   * the token's expiry or the cache's ttl, whichever is sooner; otherwise it is read afresh and
   * not stored (only the chat routes fill the cache they read).
   */
  async authenticate(token: string, options: { cached?: boolean } = {}): Promise<User | undefined> {
    const now = this.now();
    const startedAfter = now - this.options.sessionMaxAgeMs;
    const tokenHash = hashToken(token);
    const cache = this.options.cache;
    const cached = options.cached ? cache?.get(tokenHash, now) : undefined;
    if (cached && cached.startedAt > startedAfter) return cached.user;
    const epoch = cache?.epoch() ?? 0;
    const session = await this.repo.findSession(tokenHash, now, startedAfter);
    if (session && options.cached) {
      const { user, startedAt } = session;
      cache?.set(tokenHash, user.id, { user, startedAt }, now, epoch, session.expiresAt);
    }
    return session?.user;
  }

  /**
   * Moves the token's expiry one hour ahead (product.md §4: token check), but never past the session's
   * absolute lifetime, and reads the user afresh, so the SPA's stored flags follow a
   * plan change without signing out.
   * @returns the new expiry in epoch ms and the user.
   * @throws AppError 401 when the token is no longer valid, the session is older than its
   * absolute lifetime, or the account is blocked.
   */
  async extend(token: string): Promise<{ expiresAt: number; user: User }> {
    const now = this.now();
    const startedAfter = now - this.options.sessionMaxAgeMs;
    const tokenHash = hashToken(token);
    const session = await this.repo.findSession(tokenHash, now, startedAfter);
    if (!session) throw unauthorized();
    const expiresAt = Math.min(now + TOKEN_LIFETIME_MS, session.startedAt + this.options.sessionMaxAgeMs);
    if (!(await this.repo.extendToken(tokenHash, now, expiresAt, startedAfter))) throw unauthorized();
    // The user as read now (a plan change shows at once).
    this.options.cache?.forgetUser(session.user.id);
    return { expiresAt, user: session.user };
  }

  /**
   * Drops the cached sessions of a user whose row was just written (profile, language, plan,
   * limits, block, role, erasure), so this process's next request of theirs reads the row as it is
   * now (the rule of server/db/short-cache.ts). Called by the service that wrote the row, after
   * the write; other instances see it within the cache's ttl.
   */
  userChanged(userId: string): void {
    this.options.cache?.forgetUser(userId);
  }

  /**
   * Drops every cached session: after a write that changed the rows of many users at once (an
   * admin's edit of a plan rewrites the grants of everyone on it).
   */
  everyUserChanged(): void {
    this.options.cache?.forgetAll();
  }

  /** Revokes the token (product.md §4: logout). Unknown tokens are ignored. */
  async logout(token: string): Promise<void> {
    const tokenHash = hashToken(token);
    await this.repo.deleteToken(tokenHash);
    this.options.cache?.delete(tokenHash);
  }

  /**
   * Removes demo users past their lifetime with all their data and files, and expired tokens.
   * @returns how many demo users were removed.
   */
  async removeExpired(): Promise<number> {
    const now = this.now();
    await this.repo.deleteExpiredTokens(now, now - this.options.sessionMaxAgeMs);
    const ids = await this.repo.expiredDemoUserIds(now);
    const content = await this.repo.contentOf(ids);
    await this.repo.deleteUsers(ids);
    for (const id of ids) this.options.cache?.forgetUser(id);
    await Promise.all([
      ...content.files.map((key) => this.storage.remove(key)),
      ...content.folders.map((folder) => this.storage.removeFolder(folder)),
    ]);
    return ids.length;
  }

  /**
   * Issues a new session token for a user who has proven who they are (password, device secret,
   * demo link, OAuth). `options.deviceId` names the device of a device login, so revoking the
   * device ends the session. @returns the token, its expiry and the page to land on (product.md §4).
   * @throws AppError 403 "account_blocked" for a blocked user.
   */
  async signInAs(user: User, options: { deviceId?: string } = {}): Promise<SignIn> {
    if (user.blocked) throw blockedAccount();
    const token = randomBytes(32).toString("base64url");
    const now = this.now();
    const expiresAt = now + TOKEN_LIFETIME_MS;
    await this.repo.insertToken({
      id: randomUUID(),
      user_id: user.id,
      token_hash: hashToken(token),
      expires_at: expiresAt,
      created_at: now,
      device_id: options.deviceId ?? null,
    });
    const characters = await this.repo.countCharacters(user.id);
    return { token, expiresAt, user, page: characters === 0 ? "/characters/selection" : "/characters/list" };
  }
}
