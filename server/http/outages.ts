// Outages of the database, Redis or file storage: recognising them, answering 503 with Retry-After, and their one log line.
import type { FastifyBaseLogger } from "fastify";
import type { FailBody } from "../../common/api";
import { ERROR_STATUS, type OutageCode } from "../../common/errors";
import { isConnectionLost } from "../db/connection-errors";
import { AppError } from "../errors";
import { carry, english, msg } from "../i18n/messages";
import { ProviderError } from "../providers/http";
import { StorageTimeoutError } from "../providers/storage/storage";

/**
 * Outages: the one place that tells a failure of an engine the server stands on (the database,
 * Redis, the file storage) from a failure of ours. An outage is answered with 503, `Retry-After`
 * and a code naming the engine (common/errors.ts `OUTAGE_CODES`), with a sentence the user can
 * act on (try again shortly), and logged as one line naming the engine, without a stack: during
 * an outage every request fails the same way, and a stack per request would bury the one fact
 * the operator needs. Used by the error handler (server/http/setup.ts), by the failure envelope
 * (server/http/envelope.ts, which the `error` event of a stream also uses) and by reply streams.
 */

/** An engine whose outage the server answers with 503. */
export type OutageEngine = "database" | "redis" | "storage";

/** What the user is shown during an outage (translated like every server message). */
export const OUTAGE = msg("http.serviceBrieflyUnavailableTryAgain");
/** OUTAGE's English text. */
export const OUTAGE_MESSAGE = english(OUTAGE);

/** The `Retry-After` of an outage answer, seconds: the wait "a few seconds" stands for. */
export const OUTAGE_RETRY_AFTER_SECONDS = 5;

/** The code each engine's outage answers. */
const OUTAGE_CODE: Readonly<Record<OutageEngine, OutageCode>> = {
  database: "database_unavailable",
  redis: "redis_unavailable",
  storage: "storage_unavailable",
};

/** A failure recognised as an outage. */
export interface Outage {
  engine: OutageEngine;
  /** The envelope's code (HTTP 503). */
  code: OutageCode;
  /** The `Retry-After` header, seconds. */
  retryAfter: number;
  /**
   * The error in one short line for the log (its code and message, at most REASON_MAX_LENGTH
   * characters), e.g. "ECONNREFUSED connect ECONNREFUSED 127.0.0.1:5432".
   */
  reason: string;
}

/**
 * An engine known to be down before anything was asked of it (e.g. the rate limiter's Redis
 * connection is waiting to reconnect). Classified as that engine's outage.
 */
export class OutageError extends Error {
  /**
   * @param engine the engine that is down.
   * @param message for the log (never shown to users: they get OUTAGE_MESSAGE).
   */
  constructor(
    readonly engine: OutageEngine,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "OutageError";
  }
}

/**
 * What ioredis rejects a command with while its connection is down. Source: ioredis 5
 * (built/utils/index.js CONNECTION_CLOSED_ERROR_MSG, built/Command.js `commandTimeout`,
 * built/Redis.js with `enableOfflineQueue: false`, built/redis/event_handler.js on close,
 * built/errors/MaxRetriesPerRequestError.js).
 */
const REDIS_MESSAGES = [
  /^Connection is closed\.$/,
  /^Command timed out$/,
  /^Stream isn't writeable and enableOfflineQueue options is false$/,
  /^Command aborted due to connection close$/,
  /^Reached the max retries per request limit \(which is \d+\)/,
];
/** ioredis error classes that mean the connection (or the cluster) is unreachable. */
const REDIS_ERROR_NAMES = new Set(["MaxRetriesPerRequestError", "ClusterAllFailedError"]);

/** Node.js socket error codes of a server that cannot be reached (nodejs.org/api/errors.html). */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
]);
/**
 * Error names of the AWS SDK (v3, smithy) for a store that answered nothing usable in time or
 * said it is overloaded: the request handler's timeouts, S3's RequestTimeout and SlowDown.
 */
const S3_UNAVAILABLE_NAMES = new Set([
  "TimeoutError",
  "RequestTimeout",
  "RequestTimeoutException",
  "SlowDown",
  "ServiceUnavailable",
  "InternalError",
]);
/** File system error codes of a disk that cannot take a write (full, failing, read-only). */
const DISK_CODES = new Set(["ENOSPC", "EIO", "EDQUOT", "EROFS"]);
/** SQLite result codes of a database file whose disk is full or failing (better-sqlite3's `code`). */
const SQLITE_DISK = /^SQLITE_(FULL|IOERR)/;

/** How deep `cause` chains are followed. */
const MAX_CAUSE_DEPTH = 5;
/** Longest `reason` written to the log, characters. */
const REASON_MAX_LENGTH = 200;

type ErrorFields = {
  name?: unknown;
  code?: unknown;
  message?: unknown;
  cause?: unknown;
  syscall?: unknown;
  $metadata?: unknown;
};

/**
 * Whether `error` is an outage of the database, Redis or the file storage, and which:
 * - storage: StorageTimeoutError (an S3 call past S3_TIMEOUT_MS); an AWS SDK error (it carries
 *   `$metadata`; S3 is the only AWS service called) with an HTTP status of 500 or more, a
 *   socket error (connection refused, reset, unreachable host...) or a timeout name; a file
 *   system error of a full, failing or read-only disk (ENOSPC, EIO, EDQUOT, EROFS);
 * - redis: what ioredis rejects a command with while its connection is down ("Connection is
 *   closed.", "Command timed out", MaxRetriesPerRequestError, the offline-queue refusal);
 * - database: `isConnectionLost` (server/db/connection-errors.ts: pg's lost or refused
 *   connection, SQLSTATE 08xxx and 57P01-57P03), and SQLite's full or failing disk
 *   (SQLITE_FULL, SQLITE_IOERR*). A socket error that came through a remote provider's HTTP
 *   call (ProviderError, fetch's "fetch failed") is not the database's: it is left alone;
 * - OutageError: its own engine.
 * `cause` chains are followed a few levels (storage and Redis first, then the database). An
 * AppError is never an outage (it carries its own code), nor is an S3 answer below 500 (a
 * request or configuration error).
 * @returns the outage, or undefined for any other failure. Never throws.
 */
export function classifyOutage(error: unknown): Outage | undefined {
  if (typeof error !== "object" || error === null || error instanceof AppError) return undefined;
  let node: unknown = error;
  for (let depth = 0; depth <= MAX_CAUSE_DEPTH && typeof node === "object" && node !== null; depth++) {
    const engine = engineOf(node as ErrorFields);
    if (engine) return outage(engine, node as ErrorFields);
    const cause = (node as ErrorFields).cause;
    if (cause === node) break;
    node = cause;
  }
  if (!fromRemoteProvider(error) && (isConnectionLost(error) || isSqliteDiskError(error))) {
    return outage("database", innermost(error));
  }
  return undefined;
}

/** The engine one error (not its causes) names by its own shape, if any; the database aside. */
function engineOf(error: ErrorFields): OutageEngine | undefined {
  if (error instanceof OutageError) return error.engine;
  if (error instanceof StorageTimeoutError) return "storage";
  const { name, code, message, $metadata } = error;
  if (typeof $metadata === "object" && $metadata !== null) {
    const status = ($metadata as { httpStatusCode?: unknown }).httpStatusCode;
    if (typeof status === "number") return status >= 500 ? "storage" : undefined;
    const down =
      (typeof code === "string" && NETWORK_CODES.has(code)) ||
      (typeof name === "string" && S3_UNAVAILABLE_NAMES.has(name));
    return down ? "storage" : undefined;
  }
  if (typeof code === "string" && typeof error.syscall === "string" && DISK_CODES.has(code)) return "storage";
  if (typeof name === "string" && REDIS_ERROR_NAMES.has(name)) return "redis";
  if (typeof message === "string" && REDIS_MESSAGES.some((pattern) => pattern.test(message))) return "redis";
  return undefined;
}

/** Whether the error, or one of its causes, is a remote provider's failed HTTP call. */
function fromRemoteProvider(error: unknown): boolean {
  let node: unknown = error;
  for (let depth = 0; depth <= MAX_CAUSE_DEPTH && typeof node === "object" && node !== null; depth++) {
    if (node instanceof ProviderError) return true;
    if (node instanceof TypeError && node.message === "fetch failed") return true;
    node = (node as ErrorFields).cause;
  }
  return false;
}

function isSqliteDiskError(error: unknown): boolean {
  const code = (error as ErrorFields).code;
  return typeof code === "string" && SQLITE_DISK.test(code);
}

/** The deepest cause of `error` (within MAX_CAUSE_DEPTH), for the log line. */
function innermost(error: unknown): ErrorFields {
  let node = error as ErrorFields;
  for (let depth = 0; depth < MAX_CAUSE_DEPTH; depth++) {
    const cause = node.cause;
    if (typeof cause !== "object" || cause === null || cause === node) break;
    node = cause as ErrorFields;
  }
  return node;
}

function outage(engine: OutageEngine, error: ErrorFields): Outage {
  const code = typeof error.code === "string" ? `${error.code} ` : "";
  const message = typeof error.message === "string" ? error.message : String(error.name ?? "error");
  return {
    engine,
    code: OUTAGE_CODE[engine],
    retryAfter: OUTAGE_RETRY_AFTER_SECONDS,
    reason: `${code}${message}`.replace(/\s+/g, " ").slice(0, REASON_MAX_LENGTH),
  };
}

/** The failure envelope of an outage: `{ success: 0, message: OUTAGE_MESSAGE, code }`. */
export function outageBody(outage: Outage): FailBody {
  return carry({ success: 0, message: OUTAGE_MESSAGE, code: outage.code }, OUTAGE);
}

/**
 * Writes the outage's one log line (level error, no stack): `{ engine, code, reason }` with the
 * text "<engine> unavailable".
 */
export function logOutage(log: FastifyBaseLogger, outage: Outage): void {
  log.error(
    { engine: outage.engine, code: outage.code, reason: outage.reason },
    `${outage.engine} unavailable`,
  );
}

/**
 * The data of a stream's `error` event when `error` is an outage: the outage's envelope plus
 * `status` 503 (the status the plain answer has), after logging its one line.
 * @returns undefined when `error` is no outage (the caller builds the usual event data).
 */
export function outageEventData(
  error: unknown,
  log: FastifyBaseLogger,
): (FailBody & { status: number }) | undefined {
  const outage = classifyOutage(error);
  if (!outage) return undefined;
  logOutage(log, outage);
  return carry({ ...outageBody(outage), status: ERROR_STATUS[outage.code] }, OUTAGE);
}
