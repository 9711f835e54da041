// File storage behind the /content/ area (product.md §3 image locations): the interface, byte ranges, the timeout error and MIME types.
import type { Readable } from "node:stream";

/** What the content route needs to answer for a stored file without reading it. */
export interface StoredFile {
  /** Bytes. */
  size: number;
  /** Last write, to the second or better. */
  lastModified: Date;
  /** The MIME type by the key's extension (`contentTypeOf`), e.g. "image/jpeg". */
  contentType: string;
  /**
   * An HTTP entity tag, quoted: the object's own ETag on S3, a weak `W/"<size>-<mtime>"` (hex, as
   * @fastify/static sent) on local disk.
   */
  etag: string;
}

/** A byte range of a file, both ends inclusive (HTTP `Range: bytes=start-end`). */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * File storage behind the /content/ area (product.md §3 image locations: users/, characters/,
 * predefined-characters/, voice/, {group or character id}/...). Keys are relative paths
 * such as "characters/abc.jpg"; they never contain "..". Implementations: LocalStorage (disk,
 * the default) and S3Storage (S3-compatible object storage), chosen by `createStorage`.
 */
export interface FileStorage {
  /** Writes bytes at key, replacing any file there. */
  put(key: string, bytes: Buffer): Promise<void>;
  /** Copies an existing key to another. @throws if `from` does not exist. */
  copy(from: string, to: string): Promise<void>;
  /** Removes the key; a missing file is not an error. */
  remove(key: string): Promise<void>;
  /** Removes every key under the folder `prefix` (e.g. a chat's pictures); missing is not an error. */
  removeFolder(prefix: string): Promise<void>;
  /**
   * Every file key under the folder `prefix` ("" for all), whole keys as `put` takes them
   * ("characters/abc.jpg"), sorted; a missing folder lists nothing. For tests and operators: the
   * same check on disk and on S3. @throws Error on a prefix that leaves the root.
   */
  list(prefix: string): Promise<string[]>;
  exists(key: string): Promise<boolean>;
  /** The file's bytes, or undefined when it does not exist. */
  read(key: string): Promise<Buffer | undefined>;
  /** Size, date, type and entity tag of the file, or undefined when it does not exist. */
  stat(key: string): Promise<StoredFile | undefined>;
  /**
   * The file's bytes as a stream (all of them, or `range`, which must lie inside the file), or
   * undefined when it does not exist. The caller consumes or destroys the stream.
   */
  stream(key: string, range?: ByteRange): Promise<Readable | undefined>;
}

/**
 * A storage call that did not finish within its time limit (S3_TIMEOUT_MS): the object store
 * accepted no connection or gave no answer in time. The outage classification
 * (server/http/outages.ts) answers it as a storage outage (503). The SDK's own abort error is
 * kept as `cause`.
 */
export class StorageTimeoutError extends Error {
  /**
   * @param operation what was asked of the store, e.g. "PutObject".
   * @param timeoutMs the time limit that passed, milliseconds.
   */
  constructor(
    readonly operation: string,
    readonly timeoutMs: number,
    options?: ErrorOptions,
  ) {
    super(`Storage ${operation} timed out after ${timeoutMs} ms`, options);
    this.name = "StorageTimeoutError";
  }
}

/** MIME types of the files the server stores (pictures, voice, uploads), by extension. */
const TYPES: Record<string, string> = {
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  webp: "image/webp",
  gif: "image/gif",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  ogg: "audio/ogg",
  webm: "audio/webm",
  m4a: "audio/mp4",
  txt: "text/plain; charset=utf-8",
  json: "application/json; charset=utf-8",
};

/** The MIME type of `key` by its extension; `application/octet-stream` when unknown. */
export function contentTypeOf(key: string): string {
  const dot = key.lastIndexOf(".");
  return (dot >= 0 && TYPES[key.slice(dot + 1).toLowerCase()]) || "application/octet-stream";
}
