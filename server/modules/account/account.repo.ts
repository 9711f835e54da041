// Database access of password reset codes and of erasing an account (what it leaves to remove from content storage).
import { sql } from "kysely";
import type { Db } from "../../db/index";
import type { User } from "../../db/schema";
import { findMemberByEmail } from "../../db/user-queries";

/** Database access for password reset codes and the erasure of an account. */
export class AccountRepo {
  constructor(private readonly db: Db) {}

  /** A member account (not a demo user) by normalised e-mail. */
  findMemberByEmail(email: string): Promise<User | undefined> {
    return findMemberByEmail(this.db, email);
  }

  async insertReset(row: {
    id: string;
    user_id: string;
    code_hash: string;
    expires_at: number;
    created_at: number;
  }) {
    await this.db
      .insertInto("password_resets")
      .values({ ...row, used_at: null })
      .execute();
  }

  /**
   * Uses a reset code: marks it used if it exists, is unused and unexpired, in one statement so a
   * code works once even under concurrent requests. @returns the account's id, or undefined.
   */
  async consumeReset(codeHash: string, now: number): Promise<string | undefined> {
    const row = await this.db
      .updateTable("password_resets")
      .set({ used_at: now })
      .where("code_hash", "=", codeHash)
      .where("used_at", "is", null)
      .where("expires_at", ">", now)
      .returning("user_id")
      .executeTakeFirst();
    return row?.user_id;
  }

  /** Voids the user's other unused codes (only the newest link works). */
  async voidResets(userId: string, now: number): Promise<void> {
    await this.db
      .updateTable("password_resets")
      .set({ used_at: now })
      .where("user_id", "=", userId)
      .where("used_at", "is", null)
      .execute();
  }

  /** Deletes every row of the user and writes the audit line; see `eraseUserRows`. */
  eraseUser(user: Pick<User, "id" | "email" | "picture">, audit: { id: string; createdAt: number }) {
    return eraseUserRows(this.db, user, audit);
  }

  /** The sign-in time (epoch ms) of the session whose token hash is `tokenHash`, or undefined. */
  sessionStartedAt(tokenHash: string): Promise<number | undefined> {
    return sessionStartedAt(this.db, tokenHash);
  }
}

/** What an erased account leaves to remove from the content storage (keys as `FileStorage` takes them). */
export interface ErasedContent {
  /** Single files: the user's picture and their characters' photos no other character uses. */
  files: string[];
  /** Folders: each of the user's characters' and groups' chat pictures and chat photos ({id}/...). */
  folders: string[];
  /** Voice cache files (voice/<hash>.mp3) of the user's replies that no other user's reply uses. */
  voice: string[];
}

/** The storage key of a `/content/...` URL, or "" when it is not one. */
const contentKey = (url: string) => (url.startsWith("/content/") ? url.slice("/content/".length) : "");

/**
 * Deletes every row of the user `userId` in one transaction ("Erase my account") and
 * writes the admin audit line. The tables naming a user (server/db/schema.ts): users, auth_tokens,
 * devices, password_resets, oauth_identities, characters, chat_groups, chat_group_members,
 * chat_sessions, chat_history, memories, image_jobs, free_subscriptions (user_id or e-mail),
 * payment_events (user_id), contact_messages (e-mail), invitations (made by the user, or for or
 * used by its e-mail), signup_codes (e-mail), admin_audit (the admin's e-mail and the
 * e-mail some actions carry in `details` are blanked; the rows stay, naming ids only). Rows are
 * deleted explicitly, children first, not only by the foreign keys' cascades, so a table without
 * a cascade (free_subscriptions, payment_events) is covered too.
 * @param audit the `admin_audit` row recording the erasure (ids and time only).
 * @returns the files to remove once the rows are gone (see `ErasedContent`).
 */
async function eraseUserRows(
  db: Db,
  user: Pick<User, "id" | "email" | "picture">,
  audit: { id: string; createdAt: number },
): Promise<ErasedContent> {
  return db.transaction().execute(async (trx) => {
    const userId = user.id;
    const email = user.email.toLowerCase();
    const characters = await trx
      .selectFrom("characters")
      .select(["id", "photo"])
      .where("user_id", "=", userId)
      .execute();
    const groups = await trx.selectFrom("chat_groups").select("id").where("user_id", "=", userId).execute();
    const sessionIds = trx.selectFrom("chat_sessions").select("id").where("user_id", "=", userId);
    const audio = await trx
      .selectFrom("chat_history")
      .select("reply_audio_url")
      .distinct()
      .where("session_id", "in", sessionIds)
      .where("reply_audio_url", "<>", "")
      .execute();
    const characterIds = trx.selectFrom("characters").select("id").where("user_id", "=", userId);
    const groupIds = trx.selectFrom("chat_groups").select("id").where("user_id", "=", userId);

    await trx.deleteFrom("image_jobs").where("user_id", "=", userId).execute();
    await trx.deleteFrom("memories").where("user_id", "=", userId).execute();
    await trx.deleteFrom("chat_history").where("session_id", "in", sessionIds).execute();
    await trx.deleteFrom("chat_sessions").where("user_id", "=", userId).execute();
    await trx
      .deleteFrom("chat_group_members")
      .where((eb) => eb.or([eb("group_id", "in", groupIds), eb("character_id", "in", characterIds)]))
      .execute();
    await trx.deleteFrom("chat_groups").where("user_id", "=", userId).execute();
    await trx.deleteFrom("characters").where("user_id", "=", userId).execute();
    await trx.deleteFrom("auth_tokens").where("user_id", "=", userId).execute();
    await trx.deleteFrom("devices").where("user_id", "=", userId).execute();
    await trx.deleteFrom("password_resets").where("user_id", "=", userId).execute();
    await trx.deleteFrom("oauth_identities").where("user_id", "=", userId).execute();
    await trx
      .deleteFrom("free_subscriptions")
      .where((eb) => eb.or([eb("user_id", "=", userId), eb(eb.fn("lower", ["email"]), "=", email)]))
      .execute();
    await trx.deleteFrom("payment_events").where("user_id", "=", userId).execute();
    // Invitations this account made (an admin's), or for or used by its e-mail; a pending sign-up code.
    await trx
      .deleteFrom("invitations")
      .where((eb) =>
        eb.or([eb("created_by", "=", userId), eb("email", "=", email), eb("used_by", "=", email)]),
      )
      .execute();
    await trx.deleteFrom("signup_codes").where("email", "=", email).execute();
    await trx
      .deleteFrom("contact_messages")
      .where((eb) => eb(eb.fn("lower", ["email"]), "=", email))
      .execute();
    await trx.updateTable("admin_audit").set({ admin_email: "" }).where("admin_id", "=", userId).execute();
    await trx
      .updateTable("admin_audit")
      .set({ details: "{}" })
      // Contains the e-mail (no LIKE: an e-mail's "_" would be a wildcard); SQLite and PostgreSQL alike.
      .where(sql<boolean>`replace(${sql.ref("details")}, ${email}, '') <> ${sql.ref("details")}`)
      .execute();
    await trx.deleteFrom("users").where("id", "=", userId).execute();
    await trx
      .insertInto("admin_audit")
      .values({
        id: audit.id,
        admin_id: "system",
        admin_email: "",
        action: "account.erase",
        target: userId,
        details: "{}",
        created_at: audit.createdAt,
      })
      .execute();

    // Files another account still names stay (a shared voice cache file, a copied photo name).
    const photos = characters.map((c) => c.photo).filter(Boolean);
    const photosInUse = photos.length
      ? await trx.selectFrom("characters").select("photo").where("photo", "in", photos).execute()
      : [];
    const urls = audio.map((a) => a.reply_audio_url);
    const audioInUse = urls.length
      ? await trx
          .selectFrom("chat_history")
          .select("reply_audio_url")
          .where("reply_audio_url", "in", urls)
          .execute()
      : [];
    const keptPhotos = new Set(photosInUse.map((p) => p.photo));
    const keptAudio = new Set(audioInUse.map((a) => a.reply_audio_url));
    return {
      files: [
        ...(user.picture ? [`users/${user.picture}`] : []),
        ...photos.filter((p) => !keptPhotos.has(p)).map((p) => `characters/${p}`),
      ],
      folders: [...characters.map((c) => c.id), ...groups.map((g) => g.id)],
      voice: urls
        .filter((u) => !keptAudio.has(u))
        .map(contentKey)
        .filter((k) => k.startsWith("voice/")),
    };
  });
}

async function sessionStartedAt(db: Db, tokenHash: string): Promise<number | undefined> {
  const row = await db
    .selectFrom("auth_tokens")
    .select("created_at")
    .where("token_hash", "=", tokenHash)
    .executeTakeFirst();
  return row ? Number(row.created_at) : undefined;
}
