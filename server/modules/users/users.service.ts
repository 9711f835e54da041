import { randomUUID } from "node:crypto";
import argon2 from "argon2";
import type { Db } from "../../db/index";
import type { User } from "../../db/schema";
import { badRequest, notFound } from "../../http/errors";
import { normalisePicture } from "../../http/uploads";
import type { FileStorage } from "../../providers/storage/storage";
import type { AuthService } from "../auth/auth.service";

/** The signed-in user's profile and password (spec 2 Profile, Change password; spec 7). */
export class UsersService {
  constructor(
    private readonly db: Db,
    private readonly storage: FileStorage,
    private readonly auth: AuthService,
  ) {}

  /** The profile with the plan's name. */
  async profile(user: User) {
    const plan = await this.db
      .selectFrom("plans")
      .select("name")
      .where("id", "=", user.plan_id)
      .executeTakeFirst();
    return { user, planName: plan?.name ?? "" };
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
    await this.db
      .updateTable("users")
      .set({ full_name: input.fullName, user_name: input.userName, picture })
      .where("id", "=", user.id)
      .execute();
    if (picture !== user.picture && user.picture) await this.storage.remove(`users/${user.picture}`);
    const updated = await this.db
      .selectFrom("users")
      .selectAll()
      .where("id", "=", user.id)
      .executeTakeFirst();
    if (!updated) throw notFound("User not found.");
    return updated;
  }

  /**
   * Changes the password after checking the current one; every other session of the user ends,
   * the current one stays (spec 2 Change password; texts of spec 8).
   * @throws AppError 400 for a mismatch or a wrong current password.
   */
  async changePassword(user: User, current: string, password: string, retyped: string, keepToken: string) {
    if (password !== retyped) throw badRequest("New and ReTyped password do not match.");
    const valid = user.password_hash
      ? await argon2.verify(user.password_hash, current).catch(() => false)
      : false;
    if (!valid) throw badRequest("The current password is not correct.", "wrong_password");
    await this.auth.setPasswordAndRevokeSessions(user.id, password, keepToken);
  }
}
