// The owner set-up on first run: one-time links that create the first admin account.
import { randomBytes } from "node:crypto";
import { AppError } from "../../errors";
import { msg } from "../../i18n/messages";
import { secretHash } from "../../security/secret-hash";
import type { SignIn } from "../auth/auth.service";
import type { MembersRepo } from "./members.repo";
import type { MembersService } from "./members.service";

/** How long a set-up link works, ms (24 h). */
export const SETUP_TOKEN_TTL_MS = 24 * 3_600_000;

/** The refusal of an unknown, used or expired set-up link (and of every link once an admin exists). */
const invalidSetupLink = () => new AppError("setup_token", msg("members.setUpLinkInvalidExpired"));

/**
 * product.md §2 "Owner set-up": while no admin account exists the server prints a link at start
 * (`Set up the owner account: <url>/setup/<token>`, one line per address it answers on, see
 * server/startup-lines.ts); the token is random, only its SHA-256 hash is stored (any instance on
 * the database accepts it), it lasts 24 h and works once. Once an admin exists no link is
 * printed and every set-up request is refused.
 */
export class SetupService {
  constructor(
    private readonly repo: MembersRepo,
    private readonly members: MembersService,
    private readonly publicUrl: string,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The path of the link to print at start (`/setup/<token>`, fresh) while no admin exists;
   * undefined otherwise (and then every stored set-up token is removed).
   */
  async startupPath(): Promise<string | undefined> {
    if (await this.repo.adminExists()) {
      await this.repo.deleteSetupTokens();
      return undefined;
    }
    return this.freshPath();
  }

  /** Makes and stores a new set-up token (expired ones are removed). @returns its path, `/setup/<token>`. */
  async freshPath(): Promise<string> {
    const now = this.now();
    await this.repo.deleteSetupTokens(now);
    const token = randomBytes(32).toString("base64url");
    await this.repo.insertSetupToken(secretHash(token), now + SETUP_TOKEN_TTL_MS, now);
    return `/setup/${token}`;
  }

  /** A fresh set-up link on PUBLIC_URL (else http://localhost:PORT), as `freshPath` makes it. */
  async freshLink(): Promise<string> {
    return `${this.publicUrl}${await this.freshPath()}`;
  }

  /** Whether `token` can still set up the owner (known, unexpired, and no admin yet). */
  async isValid(token: string): Promise<boolean> {
    if (!token || (await this.repo.adminExists())) return false;
    return this.repo.setupTokenExists(secretHash(token), this.now());
  }

  /**
   * Creates the owner account as admin with the token, which is used up, and signs it in.
   * Every other set-up token is removed.
   * @throws AppError 404 "setup_token" for an unknown, used or expired token or once an admin
   * exists; 409 "email_taken" when the e-mail has an account (the token is then kept).
   */
  async complete(token: string, input: { email: string; password: string; name: string }): Promise<SignIn> {
    if (!(await this.isValid(token))) throw invalidSetupLink();
    await this.members.assertEmailFree(input.email);
    if (!(await this.repo.consumeSetupToken(secretHash(token), this.now()))) throw invalidSetupLink();
    if (await this.repo.adminExists()) throw invalidSetupLink();
    const planName = (await this.repo.topPlanName()) ?? "Free";
    const user = await this.members.create({ ...input, admin: true, planName });
    await this.repo.deleteSetupTokens();
    return this.members.signIn(user);
  }
}
