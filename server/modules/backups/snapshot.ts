// A consistent copy of the database for a backup: SQLite's online backup API, or pg_dump on one exported PostgreSQL snapshot; with the row counts and migration level of that same copy.
import { execFile } from "node:child_process";
import { once } from "node:events";
import { createRequire } from "node:module";
import { promisify } from "node:util";
import { Worker } from "node:worker_threads";
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

/**
 * The SQLite side of a backup, run in a worker thread (CommonJS, `eval`): off the server's event
 * loop, on its own connection. "copy" takes one read transaction on the source and copies every
 * page in one step of SQLite's online backup API (the server's commits from its own connection
 * would restart a copy made in steps, forever under steady chatting), then counts; "facts" only
 * counts. Answers { rowCounts, migrations } or { error, code }.
 */
const SQLITE_WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const SQLite = require(workerData.module);
function facts(file) {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const tables = db.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name").all().map((r) => r.name);
    const rowCounts = {};
    for (const table of tables) rowCounts[table] = db.prepare('select count(*) as n from "' + table.replaceAll('"', '""') + '"').get().n;
    const migrations = tables.includes("kysely_migration") ? db.prepare("select name from kysely_migration order by name").all().map((r) => r.name) : [];
    return { rowCounts, migrations };
  } finally {
    db.close();
  }
}
(async () => {
  if (workerData.op === "copy") {
    const db = new SQLite(workerData.source, { readonly: true, fileMustExist: true });
    try {
      db.exec("begin");
      db.prepare("select count(*) from sqlite_master").get();
      await db.backup(workerData.dest, { progress: () => 0x7fffffff });
      db.exec("commit");
    } finally {
      db.close();
    }
  }
  parentPort.postMessage(facts(workerData.dest));
})().catch((error) => parentPort.postMessage({ error: String(error && error.message), code: error && error.code }));
`;

/** Runs SQLITE_WORKER once. @throws Error (with the worker's `code`, e.g. ENOSPC) when it fails. */
async function inSqliteWorker(data: {
  op: "copy" | "facts";
  source?: string;
  dest: string;
}): Promise<DatabaseFacts> {
  const module = createRequire(import.meta.url).resolve("better-sqlite3");
  const worker = new Worker(SQLITE_WORKER, { eval: true, workerData: { ...data, module } });
  try {
    const [answer] = (await once(worker, "message")) as [DatabaseFacts & { error?: string; code?: string }];
    if (answer.error !== undefined) throw Object.assign(new Error(answer.error), { code: answer.code });
    return answer;
  } finally {
    await worker.terminate();
  }
}

/**
 * Row counts (every table but SQLite's own, the migration bookkeeping included) and migration
 * level of the SQLite database file `file`, read in a worker thread.
 * @returns empty counts and migrations for a database with no tables.
 */
export function sqliteFacts(file: string): Promise<DatabaseFacts> {
  return inSqliteWorker({ op: "facts", dest: file });
}

/**
 * Copies the live SQLite database `source` to `dest` with SQLite's online backup API, in a worker
 * thread: one consistent state even while the server writes (WAL), the server's event loop free
 * meanwhile (see SQLITE_WORKER).
 * @returns the copy's row counts and migration level.
 * @throws Error with the worker's code (ENOSPC on a full disk).
 */
export function snapshotSqlite(source: string, dest: string): Promise<DatabaseFacts> {
  return inSqliteWorker({ op: "copy", source, dest });
}

/**
 * Runs a PostgreSQL client tool on the database at `url`: the URL goes in `--dbname` without its
 * password, which travels in PGPASSWORD (another local user could read a command line in ps).
 * A missing tool becomes PgToolMissingError.
 */
async function pgTool(tool: string, args: string[], url: string): Promise<void> {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  const env = password ? { ...process.env, PGPASSWORD: password } : process.env;
  try {
    await run(tool, [`--dbname=${parsed.toString()}`, ...args], { maxBuffer: 16 * 1024 * 1024, env });
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
    await pgTool(
      "pg_dump",
      [
        "--format=custom",
        // Uncompressed: the archive's gzip compresses it once, with the files.
        "--compress=0",
        `--snapshot=${rows[0]!.snapshot}`,
        "--no-owner",
        "--no-privileges",
        `--file=${dest}`,
      ],
      url,
    );
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
  await pgTool("pg_restore", ["--no-owner", "--no-privileges", "--exit-on-error", dump], url);
}
