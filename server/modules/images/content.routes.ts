import fs from "node:fs/promises";
import path from "node:path";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { fail } from "../../http/envelope";
import type { ContentAccess } from "./content-access";
import { type ContentPath, FALLBACK_PICTURE, resolveContentPath } from "./content-path";

/** Public content (preset and character photos, user pictures, voice, plan images), seconds. */
export const PUBLIC_CONTENT_MAX_AGE_S = 3600;
/** A chat's files: kept by no cache, so a closed session's cookie cannot leave copies behind. */
export const PRIVATE_CONTENT_CACHE = "private, no-store";
const IMAGE = /\.(jpe?g|png|webp|gif)$/i;

/**
 * Serves everything under /content/ from `contentDir` (issue 13 items 1 and 8), one handler for
 * GET and HEAD that decides on the normalised path (`resolveContentPath` of the raw request
 * target) and streams exactly the file it authorised:
 * - public files: `Cache-Control: public, max-age=3600`;
 * - a chat's files (`/content/{character or group id}/...`): only when `access` says the picture
 *   cookie's session is open and its user owns the chat; `Cache-Control: private, no-store`;
 * - every file: `Content-Disposition: inline; filename="<name>"`, `X-Content-Type-Options: nosniff`;
 * - a refused, malformed or missing private path: the same 404 `{ success: 0, message: "Not found." }`;
 *   a missing public picture: the fallback picture `user.jpg` (spec 3).
 * Needs `reply.sendFile` (@fastify/static registered with `serve: false`).
 */
export function contentRoutes(app: FastifyInstance, contentDir: string, access: ContentAccess): void {
  app.route({
    method: ["GET", "HEAD"],
    url: "/content/*",
    handler: async (request, reply) => {
      const target = resolveContentPath(request.raw.url ?? "");
      if (!target) return notFound(reply);
      if (target.area === "chat" && !(await access.mayRead(request.headers.cookie, target.chatKey)))
        return notFound(reply);
      if (!(await isFile(contentDir, target.key))) return missing(reply, target, contentDir);
      return sendContent(reply, target, contentDir);
    },
  });
}

/**
 * The not-found answer under /content/ (other methods, or a file removed while being sent): the
 * fallback picture for a GET or HEAD of a missing public picture, else the plain 404.
 */
export async function answerMissingContent(
  request: FastifyRequest,
  reply: FastifyReply,
  contentDir: string,
): Promise<FastifyReply> {
  const target = resolveContentPath(request.raw.url ?? "");
  if (!target || (request.method !== "GET" && request.method !== "HEAD")) return notFound(reply);
  return missing(reply, target, contentDir);
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
  reply.removeHeader("content-disposition");
  return reply.status(404).header("cache-control", "no-store").send(fail("Not found.", "not_found"));
}

/**
 * A missing public picture is the fallback picture (when that exists); anything else missing is
 * the same 404 as a refusal.
 */
async function missing(reply: FastifyReply, target: ContentPath, contentDir: string): Promise<FastifyReply> {
  const fallback: ContentPath = { area: "public", key: FALLBACK_PICTURE };
  if (target.area !== "public" || !IMAGE.test(target.key) || !(await isFile(contentDir, fallback.key)))
    return notFound(reply);
  return sendContent(reply, fallback, contentDir, "no-cache");
}

function sendContent(
  reply: FastifyReply,
  target: ContentPath,
  contentDir: string,
  cacheControl = target.area === "chat"
    ? PRIVATE_CONTENT_CACHE
    : `public, max-age=${PUBLIC_CONTENT_MAX_AGE_S}`,
): FastifyReply {
  reply.header("cache-control", cacheControl);
  reply.header("content-disposition", inlineDisposition(path.posix.basename(target.key)));
  reply.header("x-content-type-options", "nosniff");
  // The key has no dot segments and no dot-files; send's own checks stay on as a second line.
  return reply.sendFile(target.key, contentDir, {
    cacheControl: false,
    dotfiles: "deny",
    index: false,
  });
}

async function isFile(root: string, key: string): Promise<boolean> {
  const stat = await fs.stat(path.join(root, ...key.split("/"))).catch(() => undefined);
  return stat?.isFile() === true;
}
