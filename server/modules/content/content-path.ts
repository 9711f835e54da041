// Content paths under /content/ (product.md §3 image locations): the public areas, the fallback picture, and resolving a request target safely.
/**
 * Where a request under /content/ points, decided once on the normalised path.
 * The same key is then authorised and read from disk, so no other normaliser (the router's, the
 * static file sender's) can disagree with the access check.
 */

/** Folders under the content root that anyone may read (product.md §3 image locations, voice cache). */
export const PUBLIC_CONTENT_AREAS: ReadonlySet<string> = new Set([
  "predefined-characters",
  "characters",
  "users",
  "voice",
  "pricing",
]);
/** product.md §3: the fallback picture, at the content root. */
export const FALLBACK_PICTURE = "user.jpg";
/** A chat's own folder: a character or group id exactly as the server makes it (lower-case uuid). */
const CHAT_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Characters no file name of ours has: C0 controls (NUL among them) and DEL, backslash, "/". */
const forbidden = (segment: string) =>
  [...segment].some((c) => c <= "\u001f" || c === "\u007f" || c === "\\" || c === "/");

/**
 * A file under the content root. `key` is its path relative to the root, "/"-separated, with no
 * empty, "." or ".." segment and no segment starting with a dot.
 * - `public`: `user.jpg` or `<area>/<file>` for an area of PUBLIC_CONTENT_AREAS;
 * - `chat`: `<chat key>/...`, a character's or group's pictures and the user's photos
 *   (product.md §3: `{id}/<file>` and `{id}/user_photo/<file>`), readable by the chat's owner only.
 */
export type ContentPath = { area: "public"; key: string } | { area: "chat"; chatKey: string; key: string };

/**
 * Resolves a raw HTTP request target (as the client sent it, e.g. `request.raw.url`) to a content
 * file: the query is dropped, each "/"-separated segment is percent-decoded on its own, empty and
 * "." segments are dropped and ".." removes the previous segment; the result must start with
 * `content/`.
 * @returns undefined (to be answered 404) for an absolute-form target, a fragment, a malformed
 * escape, an encoded separator (`%2F`, `%5C`), NUL or another control character, a ".." that
 * leaves the root, a trailing slash (a folder), a dot-file, or a first folder that is neither
 * public nor a chat key.
 */
export function resolveContentPath(target: string): ContentPath | undefined {
  if (!target.startsWith("/") || target.includes("#")) return undefined;
  const pathname = target.split("?", 1)[0]!;
  if (pathname.endsWith("/")) return undefined;
  const segments: string[] = [];
  for (const raw of pathname.split("/")) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    if (forbidden(segment)) return undefined;
    if (segment === "" || segment === ".") continue;
    if (segment === "..") {
      if (segments.pop() === undefined) return undefined;
      continue;
    }
    segments.push(segment);
  }
  const [root, first, ...rest] = segments;
  if (root !== "content" || first === undefined) return undefined;
  const inside = [first, ...rest];
  if (inside.some((segment) => segment.startsWith("."))) return undefined;
  const key = inside.join("/");
  if (rest.length === 0) return first === FALLBACK_PICTURE ? { area: "public", key } : undefined;
  if (PUBLIC_CONTENT_AREAS.has(first)) return rest.length === 1 ? { area: "public", key } : undefined;
  if (CHAT_KEY.test(first)) return { area: "chat", chatKey: first, key };
  return undefined;
}
