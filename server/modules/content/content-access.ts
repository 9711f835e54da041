// Who may read a chat's private pictures: the signed, HttpOnly picture cookie tied to the session, issued and checked.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { CookieSerializeOptions } from "@fastify/cookie";
import { Signer, sign } from "@fastify/cookie";
import type { FastifyInstance, FastifyReply } from "fastify";
import { bearerToken } from "../../http/auth";
import { secretHash } from "../../security/secret-hash";
import type { AuthRepo } from "../auth/auth.repo";
import type { ContentAccessRepo } from "./content-access.repo";

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

/** A grant read back from the cookie, and whether an older key (before a rotation) signed it. */
interface Grant extends ContentCookie {
  renew: boolean;
}

/** What the picture cookie is to hold: its value and its Max-Age, seconds. */
export interface ContentCookieUpdate {
  value: string;
  maxAge: number;
}

/**
 * The cookie's attributes: HttpOnly, SameSite=Lax, Path=/ (so API requests show the server what
 * it holds), Secure when the request came over https (directly or through a trusted proxy).
 */
const COOKIE_OPTIONS: CookieSerializeOptions = {
  path: "/",
  httpOnly: true,
  sameSite: "lax",
  secure: "auto",
};

const payloadOf = (cookie: ContentCookie) => `${cookie.userId}.${cookie.expiresAt}.${cookie.session}`;

/**
 * One grant of the cookie's value, `{userId}.{expiresAt}.{session}.{signature}`: @fastify/cookie's
 * signature (HMAC-SHA256 with `secret`) over the first three parts, so neither the user, the
 * expiry nor the session can be changed.
 */
export function contentCookieValue(secret: string, cookie: ContentCookie): string {
  return sign(payloadOf(cookie), secret);
}

/**
 * The grants of a picture cookie's value (as `request.cookies` decoded it): a `~`-separated list.
 * @returns the grants that are well formed, signed by one of `signer`'s keys and unexpired at
 * `now` (epoch ms), at most MAX_GRANTS, one per session, in the cookie's order; whether their
 * sessions are still open is the database's to say (ContentAccess).
 */
function readGrants(signer: Signer, value: string | undefined, now: number): Grant[] {
  const grants: Grant[] = [];
  for (const signed of (value ?? "").split(GRANT_SEPARATOR).slice(0, MAX_GRANTS)) {
    const grant = readGrant(signer, signed, now);
    if (grant && !grants.some((g) => g.session === grant.session)) grants.push(grant);
  }
  return grants;
}

/** One grant, or undefined when forged, malformed or expired. */
function readGrant(signer: Signer, signed: string, now: number): Grant | undefined {
  const checked = signer.unsign(signed);
  if (!checked.valid) return undefined;
  const parts = checked.value.split(".");
  if (parts.length !== 3) return undefined;
  const [userId, expires, session] = parts as [string, string, string];
  const expiresAt = Number(expires);
  if (!userId || !session || !(expiresAt > now)) return undefined;
  return { userId, expiresAt, session, renew: checked.renew };
}

/**
 * Decides who may read a chat's private files (another user's photo URL gives nothing;
 * the cookie dies with its session).
 */
export class ContentAccess {
  private readonly signer: Signer;

  /**
   * @param secrets the key that signs the cookie, or a list: the first signs, the others (keys
   * before a rotation) are still accepted, and their grants are re-signed on the next API answer.
   */
  constructor(
    private readonly repo: ContentAccessRepo,
    private readonly sessions: SessionLookup,
    secrets: string | string[],
    private readonly now: () => number = Date.now,
  ) {
    this.signer = new Signer(secrets);
  }

  /**
   * Whether the browser holding picture cookie `cookie` (its value) may read the files of chat
   * `chatKey`: one grant of it is validly signed and unexpired, names a user who owns the
   * character or group `chatKey`, and the session it was issued to is still open (not logged
   * out, not revoked by a password change or reset, not expired) with that user not blocked. Any
   * grant will do: a browser signed in to two accounts in two tabs sees each account's pictures.
   */
  async mayRead(cookie: string | undefined, chatKey: string): Promise<boolean> {
    for (const grant of readGrants(this.signer, cookie, this.now())) {
      if (!(await this.repo.ownsChat(grant.userId, chatKey))) continue;
      // Expired, logged out, revoked (password change or reset) or blocked: no session.
      const session = await this.sessions.findSession(grant.session, this.now());
      if (session?.user.id === grant.userId) return true;
    }
    return false;
  }

  /**
   * The cookie to set on an API answer to `userId` signed in with `bearer`, or undefined when the
   * browser's cookie (`cookie`, its value) already holds this user and session, younger than an
   * hour, all signed with the current key. The grants of the browser's other sessions (another
   * account in another tab) are kept, newest first, at most MAX_GRANTS; a grant of the same user
   * from an older session is replaced.
   */
  cookieFor(userId: string, bearer: string, cookie: string | undefined): ContentCookieUpdate | undefined {
    const now = this.now();
    const session = sessionHash(bearer);
    const grants = readGrants(this.signer, cookie, now);
    const current = grants.find((g) => g.session === session);
    const fresh = current?.userId === userId && current.expiresAt - now > COOKIE_TTL_MS - RENEW_AFTER_MS;
    if (fresh && !grants.some((g) => g.renew)) return undefined;
    const others = grants.filter((g) => g.userId !== userId && g.session !== session);
    return this.update([{ userId, expiresAt: now + COOKIE_TTL_MS, session }, ...others]);
  }

  /**
   * The cookie after a logout with `bearer`: the browser's grant of that session goes, the
   * grants of its other sessions stay. @returns undefined when none is left (clear the cookie).
   */
  cookieAfterLogout(bearer: string | undefined, cookie: string | undefined): ContentCookieUpdate | undefined {
    const session = bearer ? sessionHash(bearer) : undefined;
    const left = readGrants(this.signer, cookie, this.now()).filter((g) => g.session !== session);
    return left.length > 0 ? this.update(left) : undefined;
  }

  /** The value of `grants` (the first MAX_GRANTS), signed anew, and the Max-Age of the latest. */
  private update(grants: ContentCookie[]): ContentCookieUpdate {
    const kept = grants.slice(0, MAX_GRANTS);
    const value = kept.map((grant) => this.signer.sign(payloadOf(grant))).join(GRANT_SEPARATOR);
    const maxAgeMs = Math.max(0, Math.max(...kept.map((g) => g.expiresAt)) - this.now());
    return { value, maxAge: Math.round(maxAgeMs / 1000) };
  }
}

/** Writes `update` into the picture cookie of `reply`, or clears the cookie when undefined. */
function writeContentCookie(reply: FastifyReply, update: ContentCookieUpdate | undefined): void {
  if (update) reply.setCookie(CONTENT_COOKIE, update.value, { ...COOKIE_OPTIONS, maxAge: update.maxAge });
  else reply.clearCookie(CONTENT_COOKIE, COOKIE_OPTIONS);
}

/**
 * Issues the picture cookie. Images load through <img> tags, which carry no bearer token, so
 * every API answer to a signed-in user sets an HttpOnly, SameSite=Lax cookie naming the user and
 * the session (signed, 24 hours, renewed hourly), beside the grants of the browser's other
 * sessions (one browser, two accounts in two tabs); logout removes its session's grant, and
 * clears the older cookie scoped to /content/. Cookies are read and written by @fastify/cookie
 * (registered in `registerPlugins`). The files themselves are served by `contentRoutes`, which
 * asks the returned ContentAccess.
 * @param access the access check (built by the container), which `contentRoutes` asks too.
 * @returns `access`.
 */
export function guardChatContent(app: FastifyInstance, access: ContentAccess): ContentAccess {
  app.addHook("onSend", async (request, reply, payload) => {
    // Parsed by the cookie plugin's onRequest hook; absent only when a request ended before it.
    const held = request.cookies?.[CONTENT_COOKIE];
    if (request.url.startsWith("/api/auth/logout")) {
      const body = request.body as { token?: unknown } | undefined;
      const bearer = bearerToken(request) ?? (typeof body?.token === "string" ? body.token : undefined);
      // Cleared by a past Expires, not clearCookie's Max-Age=0, so the header still opens with
      // `chat_content=; Path=/content/` (the serialiser writes Max-Age before Path).
      reply.setCookie(CONTENT_COOKIE, "", { ...COOKIE_OPTIONS, path: "/content/", expires: new Date(0) });
      writeContentCookie(reply, access.cookieAfterLogout(bearer, held));
      return payload;
    }
    const user = request.user;
    if (!user || !request.bearer || !request.url.startsWith("/api/")) return payload;
    const update = access.cookieFor(user.id, request.bearer, held);
    if (update) writeContentCookie(reply, update);
    return payload;
  });
  return access;
}
