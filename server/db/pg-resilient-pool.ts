// The PostgreSQL pool that survives lost connections: logs each one and retries reads that are safe to run twice.
import type { PostgresPool, PostgresPoolClient } from "kysely";
import type { Pool, PoolClient, QueryResult } from "pg";
import { isConnectionLost } from "./connection-errors";

/**
 * A pg Pool as Kysely's PostgresDialect sees it, surviving connections the server ends (a
 * failover, a PgBouncer or database restart, pg_terminate_backend):
 * - every connection has an error listener (pg-pool listens only while a connection is idle in
 *   the pool; an 'error' event on a checked-out one would otherwise kill the process), and each
 *   lost connection is logged once;
 * - a query that failed because its connection was lost is run once more on a fresh connection
 *   when that cannot do a thing twice: a read (SELECT, or WITH ... SELECT without a
 *   data-modifying statement) outside a transaction, or a BEGIN (it began nothing). A write
 *   outside a transaction is not run again (it may have committed); inside a transaction nothing
 *   is (the server rolled the transaction back when the session ended: it fails as a whole);
 * - a connection Kysely holds (db.connection(), or between queries) whose session ended while
 *   no transaction was open is swapped for a fresh one before its next statement.
 */

/** The one line logged per lost connection; console.error unless given. */
export type LostConnectionLog = (line: string) => void;

/**
 * Wraps `pool` for Kysely's `PostgresDialect({ pool })`: attaches the error listeners to every
 * connection the pool opens (call it before the pool's first connect) and returns the pool
 * Kysely uses. `log` receives one line per lost connection (backend pid, message, SQLSTATE).
 * `connect()` rejects as pg-pool's does (server unreachable, timeout); `end()` ends `pool`.
 */
export function resilientPool(pool: Pool, log: LostConnectionLog = console.error): PostgresPool {
  const connections = new ConnectionRegistry(pool, log);
  return {
    connect: async () => new ResilientClient(await pool.connect(), connections),
    end: () => pool.end(),
  };
}

/** Which connections were lost, and since when; getting connections known to work. */
class ConnectionRegistry {
  /** Lost connections, with the error that ended each. */
  readonly #lost = new WeakMap<PoolClient, Error>();
  /** How many connections had been lost when each connection was opened. */
  readonly #openedAfter = new WeakMap<PoolClient, number>();
  #lossCount = 0;

  constructor(
    private readonly pool: Pool,
    private readonly log: LostConnectionLog,
  ) {
    // node-postgres documents the pool's 'error' event for idle clients only; a checked-out
    // client needs its own listener, attached here when the pool opens it ('connect'). Both
    // report the same client at most once.
    pool.on("connect", (client) => {
      this.#openedAfter.set(client, this.#lossCount);
      client.on("error", (error) => this.markLost(client, error));
    });
    pool.on("error", (error, client) => this.markLost(client, error));
  }

  /** Records that `client`'s connection is gone (logged the first time only). */
  markLost(client: PoolClient, error: Error): void {
    if (this.#lost.has(client)) return;
    this.#lost.set(client, error);
    this.#lossCount++;
    const pid = (client as { processID?: number }).processID;
    const code = (error as { code?: unknown }).code;
    this.log(
      `PostgreSQL connection lost${pid ? ` (backend pid ${pid})` : ""}: ${error.message}${code ? ` [${code}]` : ""}`,
    );
  }

  /** The error that ended `client`'s connection, or undefined while it is usable. */
  lostError(client: PoolClient): Error | undefined {
    return this.#lost.get(client);
  }

  /**
   * A connection opened after the last loss seen: the older ones the pool hands out on the way
   * are closed, not reused. When the server ends every session (a failover, a restart), the
   * terminations reach the app one socket at a time, so an older connection that still looks
   * idle may be ended an instant later, and even one that answered a check may be in the same
   * round; only a session opened after the loss was seen is out of that round's reach. An
   * isolated loss costs the idle connections a reconnect.
   * @throws the pool's error when it cannot connect (server down, connection timeout).
   */
  async acquireFresh(): Promise<PoolClient> {
    const since = this.#lossCount;
    // Each pass closes one older connection; past the pool's size every one was replaced.
    for (let pass = 0; pass <= (this.pool.options.max ?? 10); pass++) {
      const client = await this.pool.connect();
      if ((this.#openedAfter.get(client) ?? -1) >= since) return client;
      client.release(true);
    }
    return this.pool.connect();
  }
}

/** pg's result for a statement that needed no round trip (ROLLBACK of a transaction the server ended). */
type AnyResult = QueryResult<Record<string, unknown>>;

/** One connection checked out by Kysely, replaced by a fresh one when its session is gone. */
class ResilientClient implements PostgresPoolClient {
  /** The pg connection; undefined once released for a replacement that could not connect. */
  #client: PoolClient | undefined;
  #replacing: Promise<PoolClient> | undefined;
  /** Inside BEGIN ... COMMIT/ROLLBACK (tracked from the statements and pg's transaction status). */
  #inTransaction = false;

  constructor(
    client: PoolClient,
    private readonly connections: ConnectionRegistry,
  ) {
    this.#client = client;
  }

  // biome-ignore lint/suspicious/noExplicitAny: Kysely's overloads (SQL text or a cursor) in one signature.
  query(textOrCursor: any, parameters?: ReadonlyArray<unknown>): any {
    // A cursor (streaming) keeps a portal open across round trips: never replayed.
    if (typeof textOrCursor !== "string") return this.#connected().query(textOrCursor);
    return this.#run(textOrCursor, parameters ?? []);
  }

  /** Returns the connection to the pool, which discards it when its session was lost. */
  release(): void {
    const client = this.#client;
    this.#client = undefined;
    if (client) client.release(this.connections.lostError(client));
  }

  async #run(text: string, parameters: ReadonlyArray<unknown>): Promise<AnyResult> {
    // Parsed only when needed (a lost connection, a failure, a pg without a transaction status):
    // every query of the chat path passes here.
    let parsed: TransactionStatement | undefined;
    const statementOf = (): TransactionStatement => {
      if (parsed === undefined) parsed = transactionStatement(text);
      return parsed;
    };
    let client = this.#client;
    const lost = client ? this.connections.lostError(client) : undefined;
    if (!client || lost) {
      if (this.#inTransaction) {
        const statement = statementOf();
        this.#inTransaction = statement !== "end" && statement !== "rollback";
        // The server rolled the transaction back when the session ended: ROLLBACK is done.
        if (statement === "rollback")
          return { command: "ROLLBACK", rowCount: null, rows: [], fields: [], oid: 0 };
        throw new Error(`PostgreSQL connection lost inside a transaction: ${lost?.message ?? "released"}`, {
          cause: lost,
        });
      }
      client = await this.#replace(client);
    }
    const inTransaction = this.#inTransaction;
    try {
      return this.#track(statementOf, client, await client.query(text, [...parameters]));
    } catch (error) {
      const statement = statementOf();
      if (statement === "end" || statement === "rollback") this.#inTransaction = false;
      if (!isConnectionLost(error) && !this.connections.lostError(client)) throw error;
      this.connections.markLost(client, error as Error);
      // A read can run twice; a BEGIN that failed began nothing.
      if (inTransaction || !(statement === "begin" || isRetryableRead(text))) throw error;
      const fresh = await this.#replace(client);
      try {
        return this.#track(statementOf, fresh, await fresh.query(text, [...parameters]));
      } catch (retryError) {
        if (isConnectionLost(retryError)) this.connections.markLost(fresh, retryError as Error);
        throw retryError;
      }
    }
  }

  /** Updates the transaction state after a statement succeeded; returns its result. */
  #track(statementOf: () => TransactionStatement, client: PoolClient, result: AnyResult): AnyResult {
    // pg reports the server's transaction status with every ReadyForQuery ("I" idle, "T" in a
    // transaction, "E" in a failed one); the statement itself is the fallback.
    const status = typeof client.getTransactionStatus === "function" ? client.getTransactionStatus() : null;
    if (status) {
      this.#inTransaction = status !== "I";
      return result;
    }
    const statement = statementOf();
    if (statement === "begin") this.#inTransaction = true;
    else if (statement === "end" || statement === "rollback") this.#inTransaction = false;
    return result;
  }

  /** Releases the lost `failed` connection and checks out a working one (once for concurrent callers). */
  #replace(failed: PoolClient | undefined): Promise<PoolClient> {
    if (this.#client && this.#client !== failed) return Promise.resolve(this.#client);
    if (!this.#replacing) {
      if (failed) failed.release(this.connections.lostError(failed) ?? true);
      this.#client = undefined;
      this.#replacing = this.connections
        .acquireFresh()
        .then((client) => {
          this.#client = client;
          return client;
        })
        .finally(() => {
          this.#replacing = undefined;
        });
    }
    return this.#replacing;
  }

  #connected(): PoolClient {
    if (!this.#client) throw new Error("PostgreSQL connection lost: no connection to run the query on");
    return this.#client;
  }
}

/** The transaction control a statement is, as far as retrying is concerned. */
export type TransactionStatement = "begin" | "end" | "rollback" | null;

/**
 * BEGIN / START TRANSACTION, COMMIT / END, ROLLBACK / ABORT (not ROLLBACK TO SAVEPOINT, which
 * stays in the transaction), or null for any other statement.
 */
export function transactionStatement(text: string): TransactionStatement {
  const match = /^\s*(begin|start\s+transaction|commit|end|rollback|abort)\b(\s+to\b)?/i.exec(
    stripComments(text),
  );
  if (!match) return null;
  const word = (match[1] ?? "").toLowerCase();
  if (word === "begin" || word.startsWith("start")) return "begin";
  if (word === "commit" || word === "end") return "end";
  return match[2] ? null : "rollback";
}

/**
 * Words that make a statement more than a read: data-modifying statements (also inside WITH),
 * SELECT INTO (creates a table), row locks, and functions with effects outside the result.
 */
const NOT_A_READ =
  /\b(insert|update|delete|merge|into|copy|call|lock|for\s+share|nextval|setval|pg_notify|pg_advisory\w*|set_config|pg_terminate_backend|pg_cancel_backend|lo_\w+|dblink\w*)\b/i;

/**
 * Whether `text` is a statement that is safe to run twice: SELECT or WITH ... SELECT (possibly
 * parenthesised) without any of the words of NOT_A_READ. Errs towards false: a word inside a
 * quoted identifier or a literal makes a read not retried, never the reverse.
 */
export function isRetryableRead(text: string): boolean {
  const statement = stripComments(text);
  return /^[\s(]*(select|with)\b/i.test(statement) && !NOT_A_READ.test(statement);
}

/** `text` without SQL comments (-- to the end of the line, and /* ... *\/ blocks). */
function stripComments(text: string): string {
  if (!text.includes("--") && !text.includes("/*")) return text;
  return text.replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, " ");
}
