// Serving /content/ from local disk or S3: public pictures cached for an hour, a chat's private files by cookie, the fallback picture.
import path from "node:path";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { fail } from "../../http/envelope";
import { msg } from "../../i18n/messages";
import type { FileStorage } from "../../providers/storage/storage";
import { CONTENT_COOKIE, type ContentAccess } from "./content-access";
import { type ContentPath, FALLBACK_PICTURE, resolveContentPath } from "./content-path";
import { decideContentAnswer, validators } from "./content-send";

/** Public content (preset and character photos, user pictures, voice, plan images), seconds. */
export const PUBLIC_CONTENT_MAX_AGE_S = 3600;
/** A chat's files: kept by no cache, so a closed session's cookie cannot leave copies behind. */
export const PRIVATE_CONTENT_CACHE = "private, no-store";
/** Headers `sendContent` sets for a file, none of which a 404 may keep. */
const FILE_HEADERS = [
  "content-disposition",
  "content-type",
  "content-length",
  "content-range",
  "etag",
  "last-modified",
  "accept-ranges",
];
const IMAGE = /\.(jpe?g|png|webp|gif)$/i;

/**
 * Serves everything under /content/ from `storage` (local disk or S3;
 * and 8), one handler for GET and HEAD that decides on the normalised path
 * (`resolveContentPath` of the raw request target) and streams exactly the file it authorised:
 * - public files: `Cache-Control: public, max-age=3600`;
 * - a chat's files (`/content/{character or group id}/...`): only when `access` says the picture
 *   cookie's session is open and its user owns the chat; `Cache-Control: private, no-store`;
 * - every file: `Content-Disposition: inline; filename="<name>"`, `X-Content-Type-Options: nosniff`,
 *   its Content-Type and Content-Length, `ETag`, `Last-Modified`, `Accept-Ranges: bytes`; 304 on a
 *   matching If-None-Match / If-Modified-Since, one byte range as 206 (voice: browsers seek), 416
 *   for a range outside the file (`decideContentAnswer`); HEAD answers the headers only;
 * - a refused, malformed or missing private path: the same 404 `{ success: 0, message: "Not found." }`;
 *   a missing public picture: the fallback picture `user.jpg` (product.md §3).
 */
export function contentRoutes(app: FastifyInstance, storage: FileStorage, access: ContentAccess): void {
  app.route({
    method: ["GET", "HEAD"],
    url: "/content/*",
    schema: {
      tags: ["Site and public files"],
      description:
        "the file (ETag, ranges; HEAD: the headers only); a missing public picture is `user.jpg`; else 404",
      "x-who": "public files: anyone; a chat's files: the `chat_content` cookie of its owner",
      "x-from": "§3 (file locations)",
    },
    handler: async (request, reply) => {
      const target = resolveContentPath(request.raw.url ?? "");
      if (!target) return notFound(reply);
      const cookie = request.cookies[CONTENT_COOKIE];
      if (target.area === "chat" && !(await access.mayRead(cookie, target.chatKey))) return notFound(reply);
      return sendContent(request, reply, storage, target);
    },
  });
}

/**
 * The not-found answer under /content/ (other methods, or a path no route matched): the
 * fallback picture for a GET or HEAD of a missing public picture, else the plain 404.
 */
export async function answerMissingContent(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: FileStorage,
): Promise<FastifyReply> {
  const target = resolveContentPath(request.raw.url ?? "");
  if (!target || (request.method !== "GET" && request.method !== "HEAD")) return notFound(reply);
  return missing(request, reply, storage, target);
}

/**
 * `Content-Disposition: inline` with the file's name: quoted ASCII, and RFC 5987 `filename*`
 * when the name has other characters.
 */
export function inlineDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, "_");
  if (ascii === name) return `inline; filename="${name}"`;
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `inline; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

function notFound(reply: FastifyReply): FastifyReply {
  // Headers of a file that vanished while being answered.
  for (const name of FILE_HEADERS) reply.removeHeader(name);
  return reply
    .status(404)
    .header("cache-control", "no-store")
    .send(fail(msg("server.notFound"), "not_found"));
}

/**
 * A missing public picture is the fallback picture (when that exists); anything else missing is
 * the same 404 as a refusal.
 */
async function missing(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: FileStorage,
  target: ContentPath,
): Promise<FastifyReply> {
  if (target.area !== "public" || !IMAGE.test(target.key) || target.key === FALLBACK_PICTURE)
    return notFound(reply);
  return sendContent(request, reply, storage, { area: "public", key: FALLBACK_PICTURE }, "no-cache");
}

/** Sends the stored file `target` (see contentRoutes), or `missing` when it is not there. */
async function sendContent(
  request: FastifyRequest,
  reply: FastifyReply,
  storage: FileStorage,
  target: ContentPath,
  cacheControl = target.area === "chat"
    ? PRIVATE_CONTENT_CACHE
    : `public, max-age=${PUBLIC_CONTENT_MAX_AGE_S}`,
): Promise<FastifyReply> {
  const file = await storage.stat(target.key);
  if (!file) return missing(request, reply, storage, target);
  const answer = decideContentAnswer(request.headers, file);
  reply.header("cache-control", cacheControl);
  reply.header("content-disposition", inlineDisposition(path.posix.basename(target.key)));
  reply.header("x-content-type-options", "nosniff");
  reply.header("accept-ranges", "bytes");
  reply.headers(validators(file));
  switch (answer.status) {
    case 304:
    case 412:
      return reply.status(answer.status).send();
    case 416:
      return reply.status(416).header("content-range", answer.contentRange).send();
  }
  reply
    .status(answer.status)
    .header("content-type", file.contentType)
    .header("content-length", answer.length);
  if (answer.status === 206) reply.header("content-range", answer.contentRange);
  if (request.method === "HEAD") return reply.send();
  const body = await storage.stream(target.key, answer.status === 206 ? answer.range : undefined);
  // Removed between the two calls: answered as if it had never been there.
  if (!body) return missing(request, reply, storage, target);
  return reply.send(body);
}
