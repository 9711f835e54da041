import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/index";
import { fail } from "../../http/envelope";

/** The cookie that lets a browser's <img> tags load its own chat pictures. */
export const CONTENT_COOKIE = "chat_content";
/** How long one cookie is valid, milliseconds; renewed on API calls once older than an hour. */
const COOKIE_TTL_MS = 24 * 3_600_000;
const RENEW_AFTER_MS = 3_600_000;
/** /content/{uuid}/…: a chat's pictures (the chat key is a character or group id). */
const CHAT_CONTENT = /^\/content\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\//i;

/**
 * The key that signs the cookie: CONTENT_SECRET when set, else a random key kept in
 * DATA_DIR/content-secret (made on first start), so cookies outlive restarts.
 */
export function contentSecret(configured: string, dataDir: string): string {
  if (configured) return configured;
  const file = path.join(dataDir, "content-secret");
  try {
    return fs.readFileSync(file, "utf8").trim();
  } catch {
    const secret = randomBytes(32).toString("hex");
    fs.mkdirSync(dataDir, { recursive: true });
    fs.writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}

const sign = (secret: string, payload: string) =>
  createHmac("sha256", secret).update(payload).digest("base64url");

/** `{userId}.{expiresAt}.{hmac}` */
export function contentCookieValue(secret: string, userId: string, expiresAt: number): string {
  const payload = `${userId}.${expiresAt}`;
  return `${payload}.${sign(secret, payload)}`;
}

/** The user a valid, unexpired cookie names, with its expiry; undefined otherwise. */
export function readContentCookie(
  secret: string,
  header: string | undefined,
  now: number,
): { userId: string; expiresAt: number } | undefined {
  const raw = (header ?? "")
    .split(";")
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${CONTENT_COOKIE}=`))
    ?.slice(CONTENT_COOKIE.length + 1);
  if (!raw) return undefined;
  const [userId, expires, mac] = decodeURIComponent(raw).split(".");
  if (!userId || !expires || !mac) return undefined;
  const expected = Buffer.from(sign(secret, `${userId}.${expires}`));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  const expiresAt = Number(expires);
  if (!(expiresAt > now)) return undefined;
  return { userId, expiresAt };
}

/**
 * Chat pictures only for their owner (issue 8: another user's photo URL gives nothing). Images
 * load through <img> tags, which carry no bearer token, so every API answer to a signed-in
 * user sets an HttpOnly, SameSite=Lax cookie naming the user (signed, 24 hours); logout clears it.
 * A request under /content/{character or group id}/ is served only when that cookie's user owns
 * the character or the group; anything else is a 404 with nothing of the file.
 */
export function guardChatContent(
  app: FastifyInstance,
  db: Db,
  secret: string,
  now: () => number = Date.now,
): void {
  app.addHook("onRequest", async (request, reply) => {
    const match = CHAT_CONTENT.exec(request.url);
    if (!match) return;
    const chatKey = match[1]!.toLowerCase();
    const holder = readContentCookie(secret, request.headers.cookie, now());
    const owned =
      holder &&
      ((await db
        .selectFrom("characters")
        .select("id")
        .where("id", "=", chatKey)
        .where("user_id", "=", holder.userId)
        .executeTakeFirst()) ??
        (await db
          .selectFrom("chat_groups")
          .select("id")
          .where("id", "=", chatKey)
          .where("user_id", "=", holder.userId)
          .executeTakeFirst()));
    if (!owned) {
      reply.header("cache-control", "no-store");
      return reply.status(404).send(fail("Not found."));
    }
    // Private to this user: never kept by shared caches.
    reply.header("cache-control", "private, max-age=3600");
  });

  app.addHook("onSend", async (request, reply, payload) => {
    const secure = request.protocol === "https" ? "; Secure" : "";
    if (request.url.startsWith("/api/auth/logout")) {
      reply.header(
        "set-cookie",
        `${CONTENT_COOKIE}=; Path=/content/; HttpOnly; SameSite=Lax; Max-Age=0${secure}`,
      );
      return payload;
    }
    const user = request.user;
    if (!user || !request.url.startsWith("/api/")) return payload;
    const current = readContentCookie(secret, request.headers.cookie, now());
    if (current?.userId === user.id && current.expiresAt - now() > COOKIE_TTL_MS - RENEW_AFTER_MS)
      return payload;
    const expiresAt = now() + COOKIE_TTL_MS;
    const value = encodeURIComponent(contentCookieValue(secret, user.id, expiresAt));
    reply.header(
      "set-cookie",
      `${CONTENT_COOKIE}=${value}; Path=/content/; HttpOnly; SameSite=Lax; Max-Age=${COOKIE_TTL_MS / 1000}${secure}`,
    );
    return payload;
  });
}
