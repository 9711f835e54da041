// Telling a lost or unreachable database connection (PostgreSQL SQLSTATE, socket errors) from other errors, to answer an outage.
/**
 * Recognising errors that mean the database connection is gone (as opposed to an error in the
 * statement itself), so callers can retry on a fresh connection or report "database unavailable".
 */

/**
 * PostgreSQL SQLSTATE codes meaning the session ended or the server cannot take it. Source:
 * PostgreSQL documentation, Appendix A "PostgreSQL Error Codes"
 * (https://www.postgresql.org/docs/current/errcodes-appendix.html):
 * - class 57 "Operator Intervention": 57P01 admin_shutdown (pg_terminate_backend, fast shutdown),
 *   57P02 crash_shutdown, 57P03 cannot_connect_now (starting up / shutting down / recovery);
 * - class 08 "Connection Exception": 08000 connection_exception, 08003 connection_does_not_exist,
 *   08006 connection_failure, 08001 sqlclient_unable_to_establish_sqlconnection,
 *   08004 sqlserver_rejected_establishment_of_sqlconnection (and the rest of the class).
 */
const LOST_SQLSTATES = new Set(["57P01", "57P02", "57P03"]);

/**
 * Node.js socket error codes (`error.code` of a net.Socket / dns lookup error). Source: Node.js
 * documentation, "Errors" > "Common system errors" (https://nodejs.org/api/errors.html#common-system-errors)
 * and dns error codes (https://nodejs.org/api/dns.html#error-codes).
 */
const LOST_SOCKET_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENOTFOUND",
]);

/**
 * Messages node-postgres (pg, pg-pool) raises without a code. Source: pg/lib/client.js
 * ("Connection terminated unexpectedly", "Connection terminated",
 * "Client has encountered a connection error and is not queryable") and pg-pool/index.js
 * ("timeout exceeded when trying to connect").
 */
const LOST_MESSAGES = [
  /^Connection terminated( unexpectedly)?$/,
  /^Connection terminated due to connection timeout$/,
  /^timeout exceeded when trying to connect$/,
  /^Client has encountered a connection error and is not queryable$/,
];

/** How deep `cause` chains are followed (an error wrapping an error wrapping ...). */
const MAX_CAUSE_DEPTH = 5;

/**
 * Whether `error` means the database connection is gone or the server is unreachable or
 * unavailable: a PostgreSQL SQLSTATE of class 08 or 57P01/57P02/57P03, a Node.js socket error
 * (ECONNREFUSED, ECONNRESET, EPIPE, ETIMEDOUT, EHOSTUNREACH, ENOTFOUND), or one of pg's own
 * connection messages. Follows `cause` a few levels and looks into AggregateError members (Node's
 * connect to a multi-address host). False for anything else, including SQLite's SQLITE_BUSY (a
 * lock, not a lost connection) and non-Error values. Never throws.
 */
export function isConnectionLost(error: unknown): boolean {
  return isLost(error, 0);
}

function isLost(error: unknown, depth: number): boolean {
  if (depth > MAX_CAUSE_DEPTH || typeof error !== "object" || error === null) return false;
  const { code, message, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === "string") {
    if (LOST_SQLSTATES.has(code) || /^08[0-9A-Z]{3}$/.test(code) || LOST_SOCKET_CODES.has(code)) return true;
  }
  if (typeof message === "string" && LOST_MESSAGES.some((pattern) => pattern.test(message))) return true;
  if (Array.isArray(errors) && errors.some((member) => isLost(member, depth + 1))) return true;
  return cause !== undefined && cause !== error && isLost(cause, depth + 1);
}
