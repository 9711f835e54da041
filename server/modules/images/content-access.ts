import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/index";
import { secretHash } from "../../http/auth";
import { AuthRepo } from "../auth/auth.repo";
import { ContentAccessRepo } from "./content-access.repo";

/** The cookie that lets a browser's <img> tags load its own chat pictures. */
export const CONTENT_COOKIE = "chat_content";
/** How long one cookie is valid, milliseconds; renewed on API calls once older than an hour. */
const COOKIE_TTL_MS = 24 * 3_600_000;
const RENEW_AFTER_MS = 3_600_000;

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

/**
 * The session a bearer token names, as stored in `auth_tokens.token_hash` (`secretHash`, the
 * hash AuthService stores at sign-in).
 */
export const sessionHash = secretHash;

const sign = (secret: string, payload: string) =>
  createHmac("sha256", secret).update(payload).digest("base64url");

/** The session lookup the cookie check needs (AuthRepo's: the one lookup by token hash). */
export type SessionLookup = Pick<AuthRepo, "findSession">;

/** What a valid picture cookie says. */
export interface ContentCookie {
  userId: string;
  /** Epoch milliseconds. */
  expiresAt: number;
  /** `sessionHash` of the bearer of the session the cookie was issued to. */
  session: string;
}

/**
 * The cookie's value, `{userId}.{expiresAt}.{session}.{hmac}`: HMAC-SHA256 with `secret` over
 * the first three parts, so neither the user, the expiry nor the session can be changed.
 */
export function contentCookieValue(secret: string, cookie: ContentCookie): string {
  const payload = `${cookie.userId}.${cookie.expiresAt}.${cookie.session}`;
  return `${payload}.${sign(secret, payload)}`;
}

/**
 * Reads the picture cookie from a Cookie header.
 * @returns its parts when it is well formed, correctly signed and unexpired at `now` (epoch ms);
 * undefined otherwise. Whether its session is still open is the database's to say (ContentAccess).
 */
export function readContentCookie(
  secret: string,
  header: string | undefined,
  now: number,
): ContentCookie | undefined {
  const raw = (header ?? "")
    .split(";")
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${CONTENT_COOKIE}=`))
    ?.slice(CONTENT_COOKIE.length + 1);
  if (!raw) return undefined;
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    return undefined;
  }
  const parts = value.split(".");
  if (parts.length !== 4) return undefined;
  const [userId, expires, session, mac] = parts as [string, string, string, string];
  if (!userId || !session) return undefined;
  const expected = Buffer.from(sign(secret, `${userId}.${expires}.${session}`));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return undefined;
  const expiresAt = Number(expires);
  if (!(expiresAt > now)) return undefined;
  return { userId, expiresAt, session };
}

/**
 * Decides who may read a chat's private files (issue 8: another user's photo URL gives nothing;
 * issue 13: the cookie dies with its session).
 */
export class ContentAccess {
  constructor(
    private readonly repo: ContentAccessRepo,
    private readonly sessions: SessionLookup,
    private readonly secret: string,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Whether the browser sending `cookieHeader` may read the files of chat `chatKey`: its picture
   * cookie is validly signed and unexpired, the session it was issued to is still open (not
   * logged out, not revoked by a password change or reset, not expired), its user is not blocked
   * and owns the character or group `chatKey`.
   */
  async mayRead(cookieHeader: string | undefined, chatKey: string): Promise<boolean> {
    const cookie = readContentCookie(this.secret, cookieHeader, this.now());
    if (!cookie) return false;
    // Expired, logged out, revoked (password change or reset) or blocked: no session (issue 9, 13).
    const session = await this.sessions.findSession(cookie.session, this.now());
    if (session?.user.id !== cookie.userId) return false;
    return this.repo.ownsChat(cookie.userId, chatKey);
  }

  /**
   * The cookie to set on an API answer to `userId` signed in with `bearer`, or undefined when the
   * browser's current cookie already names this user and session and is younger than an hour.
   * @returns the whole Set-Cookie value.
   */
  cookieFor(userId: string, bearer: string, cookieHeader: string | undefined, secure: boolean) {
    const now = this.now();
    const session = sessionHash(bearer);
    const current = readContentCookie(this.secret, cookieHeader, now);
    if (
      current?.userId === userId &&
      current.session === session &&
      current.expiresAt - now > COOKIE_TTL_MS - RENEW_AFTER_MS
    )
      return undefined;
    const value = encodeURIComponent(
      contentCookieValue(this.secret, { userId, expiresAt: now + COOKIE_TTL_MS, session }),
    );
    return `${CONTENT_COOKIE}=${value}; Path=/content/; HttpOnly; SameSite=Lax; Max-Age=${COOKIE_TTL_MS / 1000}${secure ? "; Secure" : ""}`;
  }
}

/**
 * Issues the picture cookie. Images load through <img> tags, which carry no bearer token, so
 * every API answer to a signed-in user sets an HttpOnly, SameSite=Lax cookie for /content/ naming
 * the user and the session (signed, 24 hours, renewed hourly); logout clears it. The files
 * themselves are served by `contentRoutes`, which asks the returned ContentAccess.
 * @returns the access check for /content/{chat key}/ files.
 */
export function guardChatContent(
  app: FastifyInstance,
  db: Db,
  secret: string,
  now: () => number = Date.now,
): ContentAccess {
  const access = new ContentAccess(new ContentAccessRepo(db), new AuthRepo(db), secret, now);
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
    if (!user || !request.bearer || !request.url.startsWith("/api/")) return payload;
    const cookie = access.cookieFor(user.id, request.bearer, request.headers.cookie, secure !== "");
    if (cookie) reply.header("set-cookie", cookie);
    return payload;
  });
  return access;
}
