// Opening the database: PostgreSQL for a postgres:// URL, otherwise SQLite (a file, :memory: or DATA_DIR/app.db), as one Kysely handle.
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, type SqliteDatabase, SqliteDialect } from "kysely";
import { lazyModule } from "../lazy-module";
import { resilientPool } from "./pg-resilient-pool";
import type { Database } from "./schema";

/** pg, loaded only for a PostgreSQL database (SQLite installs never load it). */
const requirePg = lazyModule<typeof import("pg")>("pg");

/** pg, with int8 (bigint) columns read as numbers: they hold epoch milliseconds, well inside Number's safe range. */
function loadPg(): typeof import("pg") {
  const pg = requirePg();
  pg.types.setTypeParser(20, (v) => Number(v));
  return pg;
}

export type Db = Kysely<Database>;

export interface DbHandle {
  db: Db;
  dialect: "sqlite" | "postgres";
}

/**
 * Opens the database: PostgreSQL when `databaseUrl` is a postgres:// URL, otherwise SQLite
 * at `databaseUrl` (a file path or ":memory:") or `<dataDir>/app.db` when empty. A PostgreSQL
 * URL may name the sessions with `?application_name=...` (shown in pg_stat_activity). Lost
 * PostgreSQL connections are logged (one line each) and survived, see resilientPool.
 */
export function openDatabase(databaseUrl: string, dataDir: string): DbHandle {
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    const pool = new (loadPg().Pool)({ connectionString: databaseUrl, max: 10 });
    // A connection the server ends (a restart, a failover, PgBouncer) must not crash the process,
    // idle in the pool or checked out: it fails at most the query in flight (a read outside a
    // transaction runs again on a fresh connection) and the pool replaces it.
    return {
      db: new Kysely<Database>({ dialect: new PostgresDialect({ pool: resilientPool(pool) }) }),
      dialect: "postgres",
    };
  }
  const file = databaseUrl.replace(/^sqlite:(\/\/)?/, "") || path.join(dataDir, "app.db");
  if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  return {
    db: new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) }),
    dialect: "sqlite",
  };
}

/** Prepared statements kept per SQL text (most recently used last); the oldest go past this. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * The SQLite connection as Kysely's dialect sees it, with each SQL text prepared once (preparing a statement for every query was a tenth of the CPU of a chat message). Kysely runs
 * one query at a time on the connection and never iterates two results of one statement at once,
 * so a statement can serve every query with the same text.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => {
      statements.clear();
      sqlite.close();
    },
    prepare: (text: string) => {
      let statement = statements.get(text);
      if (statement) {
        statements.delete(text);
      } else {
        statement = sqlite.prepare(text);
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
      }
      statements.set(text, statement);
      return statement;
    },
  };
}
