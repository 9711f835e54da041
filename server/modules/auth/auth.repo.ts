// Database access of signing in: users, plans, bearer tokens, devices, and removing expired demo accounts.
import type { Insertable } from "kysely";
import type { Db } from "../../db/index";
import { firstRow, preparedQuery } from "../../db/prepared";
import type { AuthTokensTable, Device, DevicesTable, NewUser, User } from "../../db/schema";

/** The session of an unexpired token by its hash, with its user unless blocked (every request). */
const sessionQuery = (db: Db, p: { tokenHash: string; now: number }) =>
  db
    .selectFrom("auth_tokens")
    .innerJoin("users", "users.id", "auth_tokens.user_id")
    .selectAll("users")
    .select(["auth_tokens.created_at as session_started_at", "auth_tokens.expires_at as session_expires_at"])
    .where("auth_tokens.token_hash", "=", p.tokenHash)
    .where("auth_tokens.expires_at", ">", p.now)
    .where("users.blocked", "=", 0);
const sessionByHash = preparedQuery(sessionQuery);
const sessionByHashStartedAfter = preparedQuery(
  (db, p: { tokenHash: string; now: number; startedAfter: number }) =>
    sessionQuery(db, p).where("auth_tokens.created_at", ">", p.startedAfter),
);

/** Database access for users, plans and bearer tokens. */
export class AuthRepo {
  constructor(private readonly db: Db) {}

  findUserByEmail(email: string): Promise<User | undefined> {
    return this.db.selectFrom("users").selectAll().where("email", "=", email).executeTakeFirst();
  }

  findPlanByName(name: string) {
    return this.db.selectFrom("plans").selectAll().where("name", "=", name).executeTakeFirst();
  }

  async insertUser(user: NewUser): Promise<void> {
    await this.db.insertInto("users").values(user).execute();
  }

  async insertToken(row: Insertable<AuthTokensTable>) {
    await this.db.insertInto("auth_tokens").values(row).execute();
  }

  /**
   * The session of a token with this hash (`auth_tokens.token_hash`, what sign-in stores): its
   * user and when it started (epoch ms). None when the token is expired at `now` (epoch ms),
   * removed (logout, password change or reset, device revoked), belongs to a blocked user (issue
   * 9), or, when `startedAfter` is given, started at or before it (the absolute lifetime).
   * The one session lookup by token hash: the bearer check and the picture cookie both use it.
   * `expiresAt` is the token's expiry (epoch ms).
   */
  async findSession(
    tokenHash: string,
    now: number,
    startedAfter?: number,
  ): Promise<{ user: User; startedAt: number; expiresAt: number } | undefined> {
    const row = await firstRow(
      startedAfter === undefined
        ? sessionByHash(this.db, { tokenHash, now })
        : sessionByHashStartedAfter(this.db, { tokenHash, now, startedAfter }),
    );
    if (!row) return undefined;
    const { session_started_at, session_expires_at, ...user } = row;
    return { user, startedAt: Number(session_started_at), expiresAt: Number(session_expires_at) };
  }

  /** @returns true when an unexpired token started after `startedAfter` was extended. */
  async extendToken(
    tokenHash: string,
    now: number,
    expiresAt: number,
    startedAfter: number,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable("auth_tokens")
      .set({ expires_at: expiresAt })
      .where("token_hash", "=", tokenHash)
      .where("expires_at", ">", now)
      .where("created_at", ">", startedAfter)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async deleteToken(tokenHash: string): Promise<void> {
    await this.db.deleteFrom("auth_tokens").where("token_hash", "=", tokenHash).execute();
  }

  /** Deletes tokens that are expired or started at or before `startedBefore`. */
  async deleteExpiredTokens(now: number, startedBefore: number): Promise<void> {
    await this.db
      .deleteFrom("auth_tokens")
      .where((eb) => eb.or([eb("expires_at", "<=", now), eb("created_at", "<=", startedBefore)]))
      .execute();
  }

  /** Ids of demo users whose time is up. */
  async expiredDemoUserIds(now: number): Promise<string[]> {
    const rows = await this.db
      .selectFrom("users")
      .select("id")
      .where("is_demo", "=", 1)
      .where("expires_at", "<", now)
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * The content files of these users (product.md §3 image locations): `files` are keys (character photos
   * under characters/, user pictures under users/), `folders` the chats' own folders ({character or
   * group id}/: generated pictures and the user's photos).
   */
  async contentOf(userIds: string[]): Promise<{ files: string[]; folders: string[] }> {
    if (userIds.length === 0) return { files: [], folders: [] };
    const characters = await this.db
      .selectFrom("characters")
      .select(["id", "photo"])
      .where("user_id", "in", userIds)
      .execute();
    const groups = await this.db
      .selectFrom("chat_groups")
      .select("id")
      .where("user_id", "in", userIds)
      .execute();
    const users = await this.db.selectFrom("users").select("picture").where("id", "in", userIds).execute();
    return {
      files: [
        ...characters.filter((c) => c.photo).map((c) => `characters/${c.photo}`),
        ...users.filter((u) => u.picture).map((u) => `users/${u.picture}`),
      ],
      folders: [...characters.map((c) => c.id), ...groups.map((g) => g.id)],
    };
  }

  /** Deletes users and, through the foreign keys' cascades, all their data. */
  async deleteUsers(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db.deleteFrom("users").where("id", "in", ids).execute();
  }

  async updatePassword(userId: string, passwordHash: string): Promise<void> {
    await this.db
      .updateTable("users")
      .set({ password_hash: passwordHash })
      .where("id", "=", userId)
      .execute();
  }

  /**
   * Deletes every device of the user and every token but the one with hash `keepHash` when given,
   * in one transaction (a password change or reset ends them all).
   */
  async revokeAccessOfUser(userId: string, keepHash = ""): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom("devices").where("user_id", "=", userId).execute();
      await trx
        .deleteFrom("auth_tokens")
        .where("user_id", "=", userId)
        .where("token_hash", "<>", keepHash)
        .execute();
    });
  }

  async insertDevice(row: Insertable<DevicesTable>): Promise<void> {
    await this.db.insertInto("devices").values(row).execute();
  }

  /** The user's devices, newest first. */
  devicesOfUser(userId: string): Promise<Device[]> {
    return this.db
      .selectFrom("devices")
      .selectAll()
      .where("user_id", "=", userId)
      .orderBy("created_at", "desc")
      .orderBy("id")
      .execute();
  }

  /**
   * Deletes the user's device `id` and the sessions its device login started.
   * @returns false when the user has no such device (someone else's, or none).
   */
  async deleteDeviceOfUser(userId: string, id: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      const result = await trx
        .deleteFrom("devices")
        .where("id", "=", id)
        .where("user_id", "=", userId)
        .executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) return false;
      await trx.deleteFrom("auth_tokens").where("device_id", "=", id).execute();
      return true;
    });
  }

  /** The device with this secret and its owner; marks the device used at `now`. */
  async findDeviceBySecretHash(
    secretHash: string,
    now: number,
  ): Promise<{ deviceId: string; user: User } | undefined> {
    const device = await this.db
      .selectFrom("devices")
      .select(["id", "user_id"])
      .where("secret_hash", "=", secretHash)
      .executeTakeFirst();
    if (!device) return undefined;
    await this.db.updateTable("devices").set({ last_used_at: now }).where("id", "=", device.id).execute();
    const user = await this.db
      .selectFrom("users")
      .selectAll()
      .where("id", "=", device.user_id)
      .executeTakeFirst();
    return user && { deviceId: device.id, user };
  }

  async countCharacters(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom("characters")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
