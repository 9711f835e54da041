// Answering a stored file's GET or HEAD like a static server: ETag and Last-Modified, conditional requests (304/412) and byte ranges.
import type { IncomingHttpHeaders } from "node:http";
import type { ByteRange, StoredFile } from "../../providers/storage/storage";

/**
 * How to answer a GET or HEAD of a stored file, decided from the request's conditional and
 * Range headers the way @fastify/static (send) decided for files on disk, so the same rules hold
 * on S3:
 * - `412`: If-Match names no tag of the file, or If-Unmodified-Since is older than it;
 * - `304`: If-None-Match names its tag (weak comparison, or `*`), else If-Modified-Since is not
 *   older than it; never when the request says `Cache-Control: no-cache`;
 * - `416`: a `bytes=` Range none of whose parts lies in the file (Content-Range `bytes *\/size`);
 * - `206`: exactly one satisfiable range (overlapping parts are merged), unless If-Range names
 *   another tag or an older date, in which case the whole file;
 * - `200`: the whole file (also for several disjoint ranges or a malformed Range header).
 */
export type ContentAnswer =
  | { status: 200; length: number }
  | { status: 206; length: number; range: ByteRange; contentRange: string }
  | { status: 304 | 412 }
  | { status: 416; contentRange: string };

/** The validators of a file as response headers: `ETag` and `Last-Modified` (HTTP date). */
export function validators(file: StoredFile): { etag: string; "last-modified": string } {
  return { etag: file.etag, "last-modified": file.lastModified.toUTCString() };
}

/**
 * Decides the answer to a request with `headers` for `file` (see ContentAnswer).
 * Dates compare to the second, as HTTP dates carry no more.
 */
export function decideContentAnswer(headers: IncomingHttpHeaders, file: StoredFile): ContentAnswer {
  const modified = Date.parse(file.lastModified.toUTCString());
  if (preconditionFails(headers, file.etag, modified)) return { status: 412 };
  if (notModified(headers, file.etag, modified)) return { status: 304 };
  const range = headers.range;
  if (range === undefined || !/^ *bytes=/.test(range) || !rangeFresh(headers, file.etag, modified))
    return { status: 200, length: file.size };
  const ranges = parseBytesRange(file.size, range);
  if (ranges.length === 0) return { status: 416, contentRange: `bytes */${file.size}` };
  if (ranges.length > 1) return { status: 200, length: file.size };
  const only = ranges[0]!;
  return {
    status: 206,
    length: only.end - only.start + 1,
    range: only,
    contentRange: `bytes ${only.start}-${only.end}/${file.size}`,
  };
}

/** The entity tags of an If-Match / If-None-Match list. */
const tags = (list: string) =>
  list
    .split(",")
    .map((tag) => tag.trim())
    .filter(Boolean);

/** Weak comparison (RFC 9110 8.8.3.2): tags equal once a leading `W/` is dropped from both. */
const weakMatch = (a: string, b: string) => a.replace(/^W\//, "") === b.replace(/^W\//, "");

function preconditionFails(headers: IncomingHttpHeaders, etag: string, modified: number): boolean {
  const ifMatch = headers["if-match"];
  if (ifMatch && ifMatch.trim() !== "*" && !tags(ifMatch).some((tag) => weakMatch(tag, etag))) return true;
  const since = Date.parse(headers["if-unmodified-since"] ?? "");
  return !Number.isNaN(since) && modified > since;
}

function notModified(headers: IncomingHttpHeaders, etag: string, modified: number): boolean {
  // An end-to-end reload asks for the file itself.
  if (headers["cache-control"]?.includes("no-cache")) return false;
  const ifNoneMatch = headers["if-none-match"];
  // RFC 9110 13.1.3: If-Modified-Since is ignored when If-None-Match is present.
  if (ifNoneMatch !== undefined)
    return ifNoneMatch.trim() === "*" || tags(ifNoneMatch).some((tag) => weakMatch(tag, etag));
  const since = Date.parse(headers["if-modified-since"] ?? "");
  return !Number.isNaN(since) && modified <= since;
}

function rangeFresh(headers: IncomingHttpHeaders, etag: string, modified: number): boolean {
  const ifRange = [headers["if-range"]].flat()[0];
  if (ifRange === undefined) return true;
  // The file's own tag, weak ones included, as @fastify/static compared (browsers send If-Range
  // with the tag they were given).
  if (ifRange.includes('"')) return ifRange.trim() === etag;
  const date = Date.parse(ifRange);
  return !Number.isNaN(date) && modified <= date;
}

/**
 * The satisfiable ranges of a `bytes=` Range header for a file of `size` bytes, overlapping or
 * adjacent ones merged: `a-b` (b capped at the last byte), `a-` (to the end), `-n` (the last n).
 * @returns an empty list when none is satisfiable.
 */
export function parseBytesRange(size: number, header: string): ByteRange[] {
  const ranges: ByteRange[] = [];
  for (const part of header.slice(header.indexOf("=") + 1).split(",")) {
    const match = /^\s*(\d*)\s*-\s*(\d*)\s*$/.exec(part);
    if (!match || (match[1] === "" && match[2] === "")) continue;
    let start: number;
    let end: number;
    if (match[1] === "") {
      start = Math.max(0, size - Number(match[2]));
      end = size - 1;
    } else {
      start = Number(match[1]);
      end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
    }
    if (start <= end && start < size && !(match[1] === "" && Number(match[2]) === 0))
      ranges.push({ start, end });
  }
  ranges.sort((a, b) => a.start - b.start);
  const merged: ByteRange[] = [];
  for (const range of ranges) {
    const last = merged.at(-1);
    if (last && range.start <= last.end + 1) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  return merged;
}
