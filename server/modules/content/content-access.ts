// Who may read a chat's private pictures: the signed, HttpOnly picture cookie tied to the session, issued and checked.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/index";
import { bearerToken } from "../../http/auth";
import { secretHash } from "../../security/secret-hash";
import { AuthRepo } from "../auth/auth.repo";
import { ContentAccessRepo } from "./content-access.repo";

/** The cookie that lets a browser's <img> tags load its own chat pictures. */
export const CONTENT_COOKIE = "chat_content";
/**
 * Sessions one browser's cookie holds at most (two accounts in two tabs each keep their
 * pictures); the newest win. Bounds the cookie's size and the checks per picture.
 */
const MAX_GRANTS = 4;
/** Separates the grants of several sessions in the cookie's value (unreserved in a URL). */
const GRANT_SEPARATOR = "~";
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
 * Reads the picture cookies of a Cookie header: every `chat_content` pair (a browser may still hold
 * the older one scoped to /content/ beside the current one), each a `~`-separated list of grants.
 * @returns the grants that are well formed, correctly signed and unexpired at `now` (epoch ms), at
 * most MAX_GRANTS, one per session, in header order; whether their sessions are still open is the
 * database's to say (ContentAccess).
 */
export function readContentCookies(secret: string, header: string | undefined, now: number): ContentCookie[] {
  const grants: ContentCookie[] = [];
  for (const part of (header ?? "").split(";")) {
    const pair = part.trim();
    if (!pair.startsWith(`${CONTENT_COOKIE}=`)) continue;
    let value: string;
    try {
      value = decodeURIComponent(pair.slice(CONTENT_COOKIE.length + 1));
    } catch {
      continue;
    }
    for (const grant of value.split(GRANT_SEPARATOR).slice(0, MAX_GRANTS)) {
      const read = readGrant(secret, grant, now);
      if (read && !grants.some((g) => g.session === read.session)) grants.push(read);
      if (grants.length >= MAX_GRANTS) return grants;
    }
  }
  return grants;
}

/** One grant `{userId}.{expiresAt}.{session}.{hmac}`, or undefined when forged or expired. */
function readGrant(secret: string, value: string, now: number): ContentCookie | undefined {
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
 * Decides who may read a chat's private files (another user's photo URL gives nothing;
 * the cookie dies with its session).
 */
export class ContentAccess {
  constructor(
    private readonly repo: ContentAccessRepo,
    private readonly sessions: SessionLookup,
    private readonly secret: string,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Whether the browser sending `cookieHeader` may read the files of chat `chatKey`: one grant of
   * its picture cookie is validly signed and unexpired, names a user who owns the character or
   * group `chatKey`, and the session it was issued to is still open (not logged out, not revoked
   * by a password change or reset, not expired) with that user not blocked. Any grant will do:
   * a browser signed in to two accounts in two tabs sees each account's pictures.
   */
  async mayRead(cookieHeader: string | undefined, chatKey: string): Promise<boolean> {
    for (const grant of readContentCookies(this.secret, cookieHeader, this.now())) {
      if (!(await this.repo.ownsChat(grant.userId, chatKey))) continue;
      // Expired, logged out, revoked (password change or reset) or blocked: no session.
      const session = await this.sessions.findSession(grant.session, this.now());
      if (session?.user.id === grant.userId) return true;
    }
    return false;
  }

  /**
   * The cookie to set on an API answer to `userId` signed in with `bearer`, or undefined when the
   * browser's cookie already holds this user and session, younger than an hour. The grants of
   * the browser's other sessions (another account in another tab) are kept, newest first, at most
   * MAX_GRANTS; a grant of the same user from an older session is replaced.
   * @returns the whole Set-Cookie value (Path=/, so API requests show the server what it holds).
   */
  cookieFor(userId: string, bearer: string, cookieHeader: string | undefined, secure: boolean) {
    const now = this.now();
    const session = sessionHash(bearer);
    const grants = readContentCookies(this.secret, cookieHeader, now);
    const current = grants.find((g) => g.session === session);
    if (current?.userId === userId && current.expiresAt - now > COOKIE_TTL_MS - RENEW_AFTER_MS)
      return undefined;
    const others = grants.filter((g) => g.userId !== userId && g.session !== session);
    return this.setCookie([{ userId, expiresAt: now + COOKIE_TTL_MS, session }, ...others], secure);
  }

  /**
   * The Set-Cookie values for a logout with `bearer`: the browser's grant of that session goes,
   * the grants of its other sessions stay; with none left the cookie is cleared. The older cookie
   * scoped to /content/ is cleared too.
   */
  cookiesAfterLogout(
    bearer: string | undefined,
    cookieHeader: string | undefined,
    secure: boolean,
  ): string[] {
    const session = bearer ? sessionHash(bearer) : undefined;
    const left = readContentCookies(this.secret, cookieHeader, this.now()).filter(
      (g) => g.session !== session,
    );
    const flags = `HttpOnly; SameSite=Lax; Max-Age=0${secure ? "; Secure" : ""}`;
    return [
      `${CONTENT_COOKIE}=; Path=/content/; ${flags}`,
      left.length > 0 ? this.setCookie(left, secure) : `${CONTENT_COOKIE}=; Path=/; ${flags}`,
    ];
  }

  private setCookie(grants: ContentCookie[], secure: boolean): string {
    const value = grants
      .slice(0, MAX_GRANTS)
      .map((grant) => encodeURIComponent(contentCookieValue(this.secret, grant)))
      .join(GRANT_SEPARATOR);
    const maxAge = Math.max(0, Math.max(...grants.map((g) => g.expiresAt)) - this.now());
    return `${CONTENT_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${Math.round(maxAge / 1000)}${secure ? "; Secure" : ""}`;
  }
}

/**
 * Issues the picture cookie. Images load through <img> tags, which carry no bearer token, so
 * every API answer to a signed-in user sets an HttpOnly, SameSite=Lax cookie naming the user and
 * the session (signed, 24 hours, renewed hourly), beside the grants of the browser's other
 * sessions (one browser, two accounts in two tabs); logout removes its session's grant. The files
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
    const secure = request.protocol === "https";
    if (request.url.startsWith("/api/auth/logout")) {
      const body = request.body as { token?: unknown } | undefined;
      const bearer = bearerToken(request) ?? (typeof body?.token === "string" ? body.token : undefined);
      reply.header("set-cookie", access.cookiesAfterLogout(bearer, request.headers.cookie, secure));
      return payload;
    }
    const user = request.user;
    if (!user || !request.bearer || !request.url.startsWith("/api/")) return payload;
    const cookie = access.cookieFor(user.id, request.bearer, request.headers.cookie, secure);
    if (cookie) reply.header("set-cookie", cookie);
    return payload;
  });
  return access;
}
