// The signed-in user's profile and password (product.md §2 Profile, Change password), their UI language and 18+ confirmation.

import { randomUUID } from "node:crypto";
import argon2 from "argon2";
import { RETYPED_PASSWORD_MISMATCH } from "../../../common/validation";
import type { User } from "../../db/schema";
import { badRequest, notFound } from "../../errors";
import { msg } from "../../i18n/messages";
import { normalisePicture } from "../../media/picture";
import type { FileStorage } from "../../providers/storage/storage";
import type { AuthService } from "../auth/auth.service";
import { quotaPeriodKey } from "../quota/quota.service";
import type { UsersRepo } from "./users.repo";

/**
 * The signed-in user's profile and password (product.md §2 Profile, Change password; product.md §7).
 * Each write of the user's row drops their cached sessions (`auth.userChanged`, the rule of
 * server/db/short-cache.ts), so the chat routes use the new name, language or confirmation at once.
 */
export class UsersService {
  constructor(
    private readonly repo: UsersRepo,
    private readonly storage: FileStorage,
    private readonly auth: AuthService,
  ) {}

  /**
   * The profile with the plan's name (product.md §3 "User profile"). The chat count is that of the
   * current quota period: a count left from an earlier day or month reads 0.
   */
  async profile(user: User, now: number = Date.now()) {
    const planName = await this.repo.planName(user.plan_id);
    const chatCount = user.chat_period === quotaPeriodKey(user.quota_period, now) ? user.chat_count : 0;
    return { user, planName: planName ?? "", chatCount };
  }

  /**
   * Updates full name, user name and optionally the picture (re-encoded, stored under users/ with
   * a server-chosen name; the previous file removed).
   * @throws AppError 400 for a bad picture.
   */
  async update(user: User, input: { fullName: string; userName: string; photo?: Buffer }): Promise<User> {
    let picture = user.picture;
    if (input.photo) {
      const jpeg = await normalisePicture(input.photo);
      picture = `${randomUUID()}.jpg`;
      await this.storage.put(`users/${picture}`, jpeg);
    }
    const updated = await this.repo.updateProfile(user.id, {
      full_name: input.fullName,
      user_name: input.userName,
      picture,
    });
    this.auth.userChanged(user.id);
    if (picture !== user.picture && user.picture) await this.storage.remove(`users/${user.picture}`);
    if (!updated) throw notFound(msg("admin.userNotFound"));
    return updated;
  }

  /**
   * Stores that the person confirmed being 18 or older, once: a later call keeps the
   * first time.
   * @returns the updated user.
   */
  async confirmAdult(user: User, now = Date.now()): Promise<User> {
    if (user.adult_confirmed_at) return user;
    await this.repo.confirmAdult(user.id, now);
    this.auth.userChanged(user.id);
    return { ...user, adult_confirmed_at: now };
  }

  /**
   * Keeps the UI language (one of the six codes, checked by the route) with the account.
   * @returns the updated user.
   */
  async setUiLanguage(user: User, language: string): Promise<User> {
    await this.repo.setUiLanguage(user.id, language);
    this.auth.userChanged(user.id);
    return { ...user, ui_language: language };
  }

  /**
   * Changes the password after checking the current one; every other session of the user ends,
   * the current one stays (product.md §2 Change password; texts of product.md §8).
   * @throws AppError 400 for a mismatch or a wrong current password.
   */
  async changePassword(user: User, current: string, password: string, retyped: string, keepToken: string) {
    if (password !== retyped) throw badRequest(RETYPED_PASSWORD_MISMATCH);
    const valid = user.password_hash
      ? await argon2.verify(user.password_hash, current).catch(() => false)
      : false;
    if (!valid) throw badRequest(msg("users.currentPasswordNotCorrect"), "wrong_password");
    await this.auth.setPasswordAndRevokeSessions(user.id, password, keepToken);
  }
}
