// Member accounts made by the owner: add, list, admin role and new passwords (console and CLI).
import { randomBytes } from "node:crypto";
import type { User } from "../../db/schema";
import { AppError, notFound } from "../../errors";
import { msg } from "../../i18n/messages";
import type { AuthService, SignIn } from "../auth/auth.service";
import type { AccountSummary, MembersRepo } from "./members.repo";

/** The plan of accounts made by an admin, an invitation or the sign-up page. */
export const MEMBER_PLAN = "Free";

/** A random password of 16 URL-safe characters (96 bits), shown once. */
export function randomPassword(): string {
  return randomBytes(12).toString("base64url");
}

/** The refusal of an e-mail that already has an account. */
export const emailTaken = () => new AppError("email_taken", msg("members.accountEMailAlreadyExists"));

/**
 * Accounts the owner makes and manages outside the sign-in flows: the admin console's
 * "Add user" and the `npm run users` commands. Passwords are hashed by AuthService (argon2id).
 */
export class MembersService {
  constructor(
    private readonly repo: MembersRepo,
    private readonly auth: AuthService,
  ) {}

  /** @throws AppError 409 "email_taken" when the e-mail (normalised) has an account. */
  async assertEmailFree(email: string): Promise<void> {
    if (await this.repo.emailTaken(email)) throw emailTaken();
  }

  /**
   * Creates a member account with a password on `planName` (default Free), an admin with `admin`.
   * The full name defaults to the e-mail's local part.
   */
  async create(input: {
    email: string;
    password: string;
    name?: string;
    admin?: boolean;
    planName?: string;
  }): Promise<User> {
    const user = await this.auth.createAccount({
      email: input.email,
      password: input.password,
      fullName: input.name?.trim() || input.email.split("@")[0]!.slice(0, 100),
      planName: input.planName ?? MEMBER_PLAN,
    });
    if (!input.admin) return user;
    await this.repo.setRole(user.id, "admin");
    return { ...user, role: "admin" };
  }

  /**
   * "Add user": a new account with the given password or a generated one. With `by` (an admin
   * in the console) the action goes to the audit log ("user.create", no password).
   * @returns the user and the generated password (undefined when one was given).
   * @throws AppError 409 "email_taken" when the e-mail has an account.
   */
  async add(
    input: { email: string; name?: string; password?: string; admin?: boolean },
    by?: User,
  ): Promise<{ user: User; generatedPassword?: string }> {
    await this.assertEmailFree(input.email);
    const generatedPassword = input.password ? undefined : randomPassword();
    const user = await this.create({ ...input, password: input.password ?? generatedPassword! });
    if (by)
      await this.repo.audit(by, "user.create", user.id, { email: user.email, admin: Boolean(input.admin) });
    return { user, generatedPassword };
  }

  /** Every member account, oldest first. */
  list(): Promise<AccountSummary[]> {
    return this.repo.listMembers();
  }

  /**
   * Gives or takes the admin role. @throws AppError 404 when no member has the e-mail.
   */
  async setAdmin(email: string, admin: boolean): Promise<void> {
    const user = await this.repo.findMember(email);
    if (!user) throw notFound(msg("members.noAccountEMail", { email }));
    await this.repo.setRole(user.id, admin ? "admin" : "user");
    // The role is in the cached sessions' user row (server/db/short-cache.ts).
    this.auth.userChanged(user.id);
  }

  /**
   * Sets a new random password and ends every session and device of the account.
   * @returns the new password (shown once). @throws AppError 404 when no member has the e-mail.
   */
  async newPassword(email: string): Promise<string> {
    const user = await this.repo.findMember(email);
    if (!user) throw notFound(msg("members.noAccountEMail", { email }));
    const password = randomPassword();
    await this.auth.setPasswordAndRevokeSessions(user.id, password);
    return password;
  }

  /** Signs an account in (a fresh session), as a password sign-in does. */
  signIn(user: User): Promise<SignIn> {
    return this.auth.signInAs(user);
  }
}
