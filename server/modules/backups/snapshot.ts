// A consistent copy of the database for a backup: SQLite's online backup API, or pg_dump on one exported PostgreSQL snapshot; with the row counts and migration level of that same copy.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import SQLite from "better-sqlite3";
import { lazyModule } from "../../lazy-module";

const run = promisify(execFile);

/** pg, loaded only for a PostgreSQL database. */
const requirePg = lazyModule<typeof import("pg")>("pg");

/** What a copy of the database holds, as the manifest records it. */
export interface DatabaseFacts {
  /** Rows per table (every table, the migration bookkeeping included), by name. */
  rowCounts: Record<string, number>;
  /** Names of the migrations applied, sorted. */
  migrations: string[];
}

/** Thrown when a PostgreSQL backup or restore needs pg_dump / pg_restore and PATH has none. */
export class PgToolMissingError extends Error {
  constructor(tool: string) {
    super(
      `${tool} was not found on PATH: a PostgreSQL backup needs the PostgreSQL client tools (Debian: apt-get install postgresql-client, the server's major version or newer).`,
    );
  }
}

/** Whether `url` names a PostgreSQL database (else the database is a SQLite file). */
export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

/** The tables of a SQLite database (its internal sqlite_* tables left out), sorted. */
function sqliteTables(db: SQLite.Database): string[] {
  const rows = db
    .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name")
    .all() as Array<{ name: string }>;
  return rows.map((r) => r.name);
}

/**
 * Row counts and migration level of the SQLite database file `file` (opened read-only).
 * @returns empty counts and migrations for a database with no tables.
 */
export function sqliteFacts(file: string): DatabaseFacts {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const tables = sqliteTables(db);
    const rowCounts: Record<string, number> = {};
    for (const table of tables) {
      const row = db.prepare(`select count(*) as n from "${table.replaceAll('"', '""')}"`).get() as {
        n: number;
      };
      rowCounts[table] = row.n;
    }
    const migrations = tables.includes("kysely_migration")
      ? (db.prepare("select name from kysely_migration order by name").all() as Array<{ name: string }>).map(
          (r) => r.name,
        )
      : [];
    return { rowCounts, migrations };
  } finally {
    db.close();
  }
}

/**
 * Copies the live SQLite database `source` to `dest` with SQLite's online backup API: the copy is
 * one consistent state even while the server writes (WAL), and the server's writers are not
 * blocked (the copy proceeds in steps, yielding to the event loop between them).
 * @returns the copy's row counts and migration level.
 */
export async function snapshotSqlite(source: string, dest: string): Promise<DatabaseFacts> {
  const db = new SQLite(source, { readonly: true, fileMustExist: true });
  try {
    await db.backup(dest);
  } finally {
    db.close();
  }
  return sqliteFacts(dest);
}

/** Runs a PostgreSQL client tool; a missing tool becomes PgToolMissingError. */
async function pgTool(tool: string, args: string[]): Promise<void> {
  try {
    await run(tool, args, { maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new PgToolMissingError(tool);
    const stderr = String((error as { stderr?: string }).stderr ?? "").trim();
    throw new Error(`${tool} failed: ${stderr || (error as Error).message}`);
  }
}

/** Whether a PostgreSQL client tool answers on PATH. */
export async function hasPgTool(tool: "pg_dump" | "pg_restore"): Promise<boolean> {
  try {
    await run(tool, ["--version"]);
    return true;
  } catch {
    return false;
  }
}

/** Row counts (every base table of the current schema) and migrations, on an open pg client. */
async function pgFacts(client: import("pg").Client): Promise<DatabaseFacts> {
  const tables = await client.query<{ name: string }>(
    `select table_name as name from information_schema.tables
     where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`,
  );
  const rowCounts: Record<string, number> = {};
  for (const { name } of tables.rows) {
    const count = await client.query<{ n: string }>(
      `select count(*) as n from "${name.replaceAll('"', '""')}"`,
    );
    rowCounts[name] = Number(count.rows[0]!.n);
  }
  const migrations =
    "kysely_migration" in rowCounts
      ? (await client.query<{ name: string }>("select name from kysely_migration order by name")).rows.map(
          (r) => r.name,
        )
      : [];
  return { rowCounts, migrations };
}

/** Row counts and migrations of the PostgreSQL database at `url`. */
export async function postgresFacts(url: string): Promise<DatabaseFacts> {
  const client = new (requirePg().Client)({ connectionString: url });
  await client.connect();
  try {
    return await pgFacts(client);
  } finally {
    await client.end();
  }
}

/**
 * Dumps the PostgreSQL database at `url` to `dest` (pg_dump's custom format). The row counts are
 * read in a repeatable-read transaction whose snapshot pg_dump shares (`--snapshot`), so the dump
 * and the counts are the same state of the database while the server keeps writing.
 * @throws PgToolMissingError when pg_dump is not on PATH; Error with pg_dump's message when it fails.
 */
export async function snapshotPostgres(url: string, dest: string): Promise<DatabaseFacts> {
  if (!(await hasPgTool("pg_dump"))) throw new PgToolMissingError("pg_dump");
  const client = new (requirePg().Client)({ connectionString: url });
  await client.connect();
  try {
    await client.query("begin isolation level repeatable read read only");
    const { rows } = await client.query<{ snapshot: string }>("select pg_export_snapshot() as snapshot");
    const facts = await pgFacts(client);
    await pgTool("pg_dump", [
      "--format=custom",
      `--snapshot=${rows[0]!.snapshot}`,
      "--no-owner",
      "--no-privileges",
      `--file=${dest}`,
      `--dbname=${url}`,
    ]);
    await client.query("commit");
    return facts;
  } finally {
    await client.end();
  }
}

/**
 * Loads a pg_dump custom-format file into the (empty) PostgreSQL database at `url`.
 * @throws PgToolMissingError when pg_restore is not on PATH; Error with its message when it fails.
 */
export async function loadPostgresDump(url: string, dump: string): Promise<void> {
  await pgTool("pg_restore", ["--no-owner", "--no-privileges", "--exit-on-error", `--dbname=${url}`, dump]);
}
