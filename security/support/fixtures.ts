import fs from "node:fs";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import type { Updateable } from "kysely";
import sharp from "sharp";
import type { ChatHistoryEntry } from "../../common/api";
import type { UsersTable } from "../../server/db/schema";
import { writePngTextChunks } from "../../server/modules/characters/png-chunks";
import { exchange, type RawResponse } from "./raw-http";
import type { ListeningApp } from "./server";

/** One answer of the server over real HTTP. */
export interface HttpAnswer {
  status: number;
  headers: Headers;
  /** The body parsed as JSON when it is JSON, else an empty object. */
  json: Record<string, unknown> & { success?: number; message?: string; data?: unknown };
  /** The body as received. */
  raw: Buffer;
  /** Milliseconds from sending to the end of the body. */
  elapsedMs: number;
}

/** One part of a multipart body; a part with `filename` is a file part. */
export interface Part {
  name: string;
  value: string | Buffer;
  /** Written into the Content-Disposition exactly as given (Latin-1), no escaping. */
  filename?: string;
  type?: string;
}

/**
 * Builds a multipart/form-data body by hand, so file names reach the server exactly as given
 * (`../../x.jpg`, NUL bytes), which FormData would escape.
 * @returns the bytes and the Content-Type header (with its boundary).
 */
export function multipartBody(parts: Part[]): { body: Buffer; contentType: string } {
  const boundary = `----held${Math.random().toString(36).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const filename = part.filename === undefined ? "" : `; filename="${part.filename}"`;
    const type =
      part.filename === undefined ? "" : `\r\nContent-Type: ${part.type ?? "application/octet-stream"}`;
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${filename}${type}\r\n\r\n`,
        "latin1",
      ),
      Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value, "utf8"),
      Buffer.from("\r\n"),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Sends one request to a listening server with fetch (a normal, normalised URL: raw targets go
 * through `rawRequest`).
 * @param options.form a form-encoded body; options.parts a multipart body; options.cookie a Cookie
 *   header; options.headers anything else (an explicit authorization wins over `token`).
 */
export async function http(
  baseUrl: string,
  method: string,
  target: string,
  options: {
    token?: string;
    form?: Record<string, string>;
    parts?: Part[];
    cookie?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<HttpAnswer> {
  const headers: Record<string, string> = {};
  if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`;
  if (options.cookie) headers.cookie = options.cookie;
  let body: Buffer | string | undefined;
  if (options.form) {
    headers["content-type"] = "application/x-www-form-urlencoded";
    body = new URLSearchParams(options.form).toString();
  } else if (options.parts) {
    const built = multipartBody(options.parts);
    headers["content-type"] = built.contentType;
    body = built.body;
  }
  Object.assign(headers, options.headers);
  const started = performance.now();
  const response = await fetch(new URL(target, baseUrl), {
    method,
    headers,
    body: body === undefined ? undefined : typeof body === "string" ? body : new Uint8Array(body),
    redirect: "manual",
  });
  const raw = Buffer.from(await response.arrayBuffer());
  const elapsedMs = performance.now() - started;
  let json: HttpAnswer["json"] = {};
  if ((response.headers.get("content-type") ?? "").includes("application/json")) {
    try {
      json = JSON.parse(raw.toString("utf8"));
    } catch {
      json = {};
    }
  }
  return { status: response.status, headers: response.headers, json, raw, elapsedMs };
}

/**
 * Sends many requests so that they reach the server at the same moment ("last byte" sync): each
 * on its own connection, everything but its last byte written first, then every last byte in
 * the same tick once all connections are ready. Races are then decided by the server alone,
 * not by how fast the client happened to send.
 * @returns the raw responses, in order. @throws Error when one gets no response in 20 s.
 */
export async function sendAllAtOnce(
  baseUrl: string,
  requests: Array<{
    method: string;
    target: string;
    token?: string;
    form?: Record<string, string>;
    parts?: Part[];
  }>,
): Promise<RawResponse[]> {
  const { hostname, port } = new URL(baseUrl);
  let ready = 0;
  let go: () => void = () => {};
  const started = new Promise<void>((resolve) => {
    go = resolve;
  });
  return Promise.all(
    requests.map((request) => {
      const headers: Record<string, string> = { host: `${hostname}:${port}`, connection: "close" };
      if (request.token) headers.authorization = `Bearer ${request.token}`;
      let body: Buffer = Buffer.alloc(0);
      if (request.form) {
        headers["content-type"] = "application/x-www-form-urlencoded";
        body = Buffer.from(new URLSearchParams(request.form).toString());
      } else if (request.parts) {
        const built = multipartBody(request.parts);
        headers["content-type"] = built.contentType;
        body = built.body;
      }
      headers["content-length"] = String(body.length);
      const head = `${request.method} ${request.target} HTTP/1.1\r\n${Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}`)
        .join("\r\n")}\r\n\r\n`;
      const bytes = Buffer.concat([Buffer.from(head, "latin1"), body]);
      return exchange(
        hostname,
        Number(port),
        (socket) => {
          socket.write(bytes.subarray(0, -1));
          void started.then(() => socket.write(bytes.subarray(-1)));
          ready += 1;
          if (ready === requests.length) setTimeout(go, 50);
        },
        20_000,
      );
    }),
  );
}

/** A signed-in demo user (Free plan) over HTTP. */
export interface Session {
  token: string;
  userId: string;
}

/**
 * Signs in a fresh demo user over HTTP and confirms the 18+ question (chat needs it).
 * @throws Error when the server refuses.
 */
export async function signIn(baseUrl: string): Promise<Session> {
  const login = await http(baseUrl, "POST", "/api/auth/demo-login", { form: { id: "demo" } });
  const data = login.json.data as { token: string; user: { id: string } } | undefined;
  if (!data) throw new Error(`demo-login failed: ${login.status} ${login.raw.toString()}`);
  const age = await http(baseUrl, "POST", "/api/users/confirm-age", {
    token: data.token,
    form: { confirm: "1" },
  });
  if (age.json.success !== 1) throw new Error(`confirm-age failed: ${age.raw.toString()}`);
  return { token: data.token, userId: data.user.id };
}

/**
 * Creates a member account (Free plan, with a password) and signs it in over HTTP with its
 * e-mail and password, 18+ confirmed. Members, unlike guests, may register devices.
 * @throws Error when the server refuses.
 */
export async function signInMember(app: ListeningApp, email: string, password: string): Promise<Session> {
  await app.auth.createAccount({ email, password, fullName: "Member", planName: "Free" });
  const login = await http(app.url, "POST", "/api/auth/login", { form: { email, password } });
  const data = login.json.data as { token: string; user: { id: string } } | undefined;
  if (!data) throw new Error(`login failed: ${login.status} ${login.raw.toString()}`);
  const age = await http(app.url, "POST", "/api/users/confirm-age", {
    token: data.token,
    form: { confirm: "1" },
  });
  if (age.json.success !== 1) throw new Error(`confirm-age failed: ${age.raw.toString()}`);
  return { token: data.token, userId: data.user.id };
}

/**
 * Gives the user of `token` their own copy of the `index`th preset character.
 * @returns the new character's id. @throws Error when refused.
 */
export async function addPresetCharacter(baseUrl: string, token: string, index = 0): Promise<string> {
  const presets = await http(baseUrl, "GET", "/api/characters/selection", { token });
  const list = presets.json.data as Array<{ characterPreDefinedUUID: string }>;
  const preset = list[index % list.length]!;
  const created = await http(baseUrl, "POST", "/api/characters/create-preselect", {
    token,
    form: { id: preset.characterPreDefinedUUID },
  });
  const id = (created.json.data as { characterUUID?: string } | undefined)?.characterUUID;
  if (!id) throw new Error(`create-preselect failed: ${created.raw.toString()}`);
  return id;
}

/**
 * Starts a group chat with one of the user's characters and adds the others.
 * @returns the group id (from the page `/character-select/{group id}`).
 */
export async function createGroup(baseUrl: string, token: string, characterIds: string[]): Promise<string> {
  const [first, ...rest] = characterIds;
  const created = await http(baseUrl, "GET", `/api/chat/group/new?cId=${first}`, { token });
  const groupId = String(created.json.page ?? "")
    .split("/")
    .pop();
  if (!groupId) throw new Error(`group/new failed: ${created.raw.toString()}`);
  for (const id of rest) {
    const added = await http(baseUrl, "GET", `/api/chat/group/member/add?gId=${groupId}&cId=${id}`, {
      token,
    });
    if (added.json.success !== 1) throw new Error(`member/add failed: ${added.raw.toString()}`);
  }
  return groupId;
}

/**
 * Sends a chat message and waits for the reply. @returns the history entry's id.
 * @throws Error when the send does not succeed.
 */
export async function sendMessage(baseUrl: string, token: string, chatId: string, message: string) {
  const sent = await http(baseUrl, "POST", "/api/chat/message", {
    token,
    form: { message, id: chatId, mute: "1" },
  });
  const entry = (sent.json.history as ChatHistoryEntry[] | undefined)?.[0];
  if (sent.json.success !== 1 || !entry) throw new Error(`message failed: ${sent.raw.toString()}`);
  return entry.chatHistoryUUID;
}

/** The id of the first language of the list (for character forms). */
export async function firstLanguage(baseUrl: string, token: string): Promise<string> {
  const answer = await http(baseUrl, "GET", "/api/characters/languages", { token });
  return (answer.json.languages as Array<{ languageUUID: string }>)[0]!.languageUUID;
}

/** The `chat_content=…` pair the API sets for the user of `token` (what <img> requests carry). */
export async function contentCookieOf(baseUrl: string, token: string): Promise<string> {
  const answer = await http(baseUrl, "GET", "/api/chat/capabilities", { token });
  const line = answer.headers.getSetCookie().find((c) => c.startsWith("chat_content="));
  if (!line) throw new Error("no chat_content cookie was set");
  return line.split(";")[0]!;
}

/** Sets plan flags or counters of a user directly in the database (test set-up only). */
export async function setUser(
  app: ListeningApp,
  userId: string,
  fields: Pick<
    Updateable<UsersTable>,
    "photo_upload" | "image_generation" | "character_limit" | "chat_count" | "chat_limit" | "blocked"
  >,
): Promise<void> {
  await app.db.db.updateTable("users").set(fields).where("id", "=", userId).execute();
}

/** Every file under `dir`, as paths relative to it, sorted ([] when the folder is missing). */
export function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true, encoding: "utf8" }) as string[])
    .filter((p) => fs.statSync(path.join(dir, p)).isFile())
    .sort();
}

/** Runs `tasks` with at most `limit` at once. @returns their results in order. */
export async function inBatches<T>(tasks: Array<() => Promise<T>>, limit = 8): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const index = next++;
      results[index] = await tasks[index]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  return results;
}

// ---- Route table -------------------------------------------------------------------------------

/** One registered route: its method and its path as registered (parameters as `:name`). */
export interface RouteEntry {
  method: string;
  url: string;
}

/**
 * Every route of the app, read from Fastify's own route tree (`printRoutes`), so that a route
 * added later is covered without editing a list. The tree prints each node's path relative to
 * its parent (`/api/users/update` then `-password`), so a node's path is its parent's plus its own.
 */
export function routeTable(app: FastifyInstance): RouteEntry[] {
  const routes: RouteEntry[] = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split("\n")) {
    const marker = line.search(/[├└]── /);
    if (marker < 0) continue;
    const depth = marker / 4;
    const text = line.slice(marker + 4).trim();
    const match = /^(.*?)(?: \(([^)]*)\))?$/.exec(text);
    if (!match) continue;
    const full = (depth > 0 ? (stack[depth - 1] ?? "") : "") + match[1]!;
    stack[depth] = full;
    stack.length = depth + 1;
    for (const method of (match[2] ?? "").split(",").map((m) => m.trim())) {
      if (method) routes.push({ method, url: full });
    }
  }
  return routes;
}

/**
 * Routes anyone may call without a session (product.md §7 "Authentication" and "Public pages", the
 * payment provider's webhook, OAuth, health and the version file). Every other route of the
 * route table must refuse a request without a valid bearer token: a route added later is
 * protected by default, or has to be named here.
 */
export const PUBLIC_ROUTES = new Set([
  "POST /api/auth/login",
  "POST /api/auth/demo-login",
  "POST /api/auth/device-login",
  "POST /api/auth/forgot-password",
  "POST /api/auth/extend",
  "POST /api/auth/logout",
  "PATCH /api/users/change-password",
  "GET /api/users/free/subscribe",
  "POST /api/users/free/subscribe/process",
  "POST /api/contact",
  // Whether the guest demo is open and the sign-up mode (no secrets), for the public pages' buttons.
  "GET /api/site",
  "GET /api/payment/pricing",
  "POST /api/payment/webhook",
  "GET /api/auth/oauth/:platform/start",
  "GET /api/auth/oauth/platforms",
  "POST /api/:platform/callback",
  "GET /api/health",
  "GET /api/ready",
  "GET /meta.json",
  // The OpenAPI document: the routes' schemas, no data (the same as docs/openapi.json).
  "GET /api/openapi.json",
  // Accounts: the owner's set-up link and sign-up by e-mail code (no account yet).
  "GET /api/setup/:token",
  "POST /api/setup",
  "GET /api/auth/registration",
  "POST /api/auth/signup/start",
  "POST /api/auth/signup/finish",
]);

/**
 * The protected routes of the route table: every route under /api/ but the public ones, HEAD
 * left out. Outside /api/ there are only the built SPA's files (index.html and /assets/..., one
 * route each when dist/web exists: public by design) and `/content/*` (find-my-way prints it as
 * `*`), whose files are authorised by the content cookie, not a bearer token, and attacked by
 * the content tests.
 */
export function protectedRoutes(app: FastifyInstance): RouteEntry[] {
  return routeTable(app).filter(
    (r) => r.url.startsWith("/api/") && r.method !== "HEAD" && !PUBLIC_ROUTES.has(`${r.method} ${r.url}`),
  );
}

// ---- Pictures and cards ------------------------------------------------------------------------

/** A real PNG of the given size. */
export function pngOf(width: number, height: number, background = "#3a7bd5"): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();
}

/** A real baseline JPEG of the given size. */
export function jpegOf(width: number, height: number, background = "#d53a7b"): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 as PNG chunks use it. */
export function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A small, well-formed PNG whose header claims width × height (the pixels are never there). */
export async function pngClaiming(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(await pngOf(1, 1));
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}

/** A small JPEG whose frame header (SOF0) claims width × height (each at most 65535). */
export async function jpegClaiming(width: number, height: number): Promise<Buffer> {
  const jpeg = Buffer.from(await jpegOf(8, 8));
  const sof = jpeg.indexOf(Buffer.from([0xff, 0xc0]));
  if (sof < 0) throw new Error("no SOF0 marker in the JPEG");
  jpeg.writeUInt16BE(height, sof + 5);
  jpeg.writeUInt16BE(width, sof + 7);
  return jpeg;
}

/** A 1×1 GIF89a. */
export const GIF_1X1 = Buffer.from(
  "47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b",
  "hex",
);

/**
 * A JPEG that is also an HTML page: a real picture with `<html><script>` in a comment segment
 * right after the SOI marker and more script after the end of the image.
 */
export async function polyglotJpeg(): Promise<Buffer> {
  const jpeg = await jpegOf(16, 16);
  const html = Buffer.from("<html><script>alert(document.cookie)</script>");
  const segment = Buffer.alloc(4);
  segment[0] = 0xff;
  segment[1] = 0xfe;
  segment.writeUInt16BE(html.length + 2, 2);
  return Buffer.concat([
    jpeg.subarray(0, 2),
    segment,
    html,
    jpeg.subarray(2),
    Buffer.from("<script>alert(2)</script></html>"),
  ]);
}

/** A PNG carrying `texts` as tEXt chunks (character cards put base64 JSON under `chara`/`ccv3`). */
export async function pngWithText(texts: Record<string, string>): Promise<Buffer> {
  return writePngTextChunks(await pngOf(16, 16), texts);
}

/** Base64 of a V2 character card wrapping `data`. */
export function cardV2Base64(data: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify({ spec: "chara_card_v2", spec_version: "2.0", data })).toString("base64");
}

/** Starts with the JPEG SOI marker and a marker byte. */
export const isJpegBytes = (bytes: Buffer) =>
  bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
