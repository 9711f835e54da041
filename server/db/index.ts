import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import type { Database } from "./schema";

// int8 (bigint) columns hold epoch milliseconds, well inside Number's safe range.
pg.types.setTypeParser(20, (v) => Number(v));

export type Db = Kysely<Database>;

export interface DbHandle {
  db: Db;
  dialect: "sqlite" | "postgres";
}

/**
 * Opens the database: PostgreSQL when `databaseUrl` is a postgres:// URL, otherwise SQLite
 * at `databaseUrl` (a file path or ":memory:") or `<dataDir>/app.db` when empty.
 */
export function openDatabase(databaseUrl: string, dataDir: string): DbHandle {
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) {
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
    // An idle connection the server closes (a restart, a failover) must not crash the process: the
    // pool replaces it on the next query.
    pool.on("error", (error) => console.error(`PostgreSQL connection lost: ${error.message}`));
    return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), dialect: "postgres" };
  }
  const file = databaseUrl.replace(/^sqlite:(\/\/)?/, "") || path.join(dataDir, "app.db");
  if (file !== ":memory:") fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  return {
    db: new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) }),
    dialect: "sqlite",
  };
}
