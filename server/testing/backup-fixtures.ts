// Backup test helpers: every row of every table of a SQLite or PostgreSQL database, read from the database itself (keys, columns, comparable values), and what two such readings differ in.
import SQLite from "better-sqlite3";
import pg from "pg";
import { sqliteFile } from "../modules/backups/create-backup";

/** One table as read: its key, its columns and every row by its key. */
export interface TableRows {
  /** The columns naming a row: the primary key (every column when there is none; rowid for FTS). */
  key: string[];
  columns: string[];
  /** Each row by the JSON of its key's values; bytes as "\\x<hex>", so rows compare with toEqual. */
  rows: Map<string, Record<string, unknown>>;
  /** SQLite's FTS5 table (message_search, message_recall): an index kept by triggers, read by rowid. */
  fts: boolean;
}

/** Every table of a database by name (FTS5 shadow tables left out: they are the index's pages). */
export type DatabaseRows = Record<string, TableRows>;

/** The tables SQLite writes beside an FTS5 table `x`: x_config, x_content, x_data, x_docsize, x_idx. */
const FTS_SHADOWS = ["config", "content", "data", "docsize", "idx"];

/** Kysely's migration bookkeeping (which migrations ran, when; the lock). */
export const isBookkeeping = (table: string) =>
  table === "kysely_migration" || table === "kysely_migration_lock";

/** A value as compared: bytes as hex text, bigint and dates as text, the rest as read. */
function comparable(value: unknown): unknown {
  if (value instanceof Uint8Array) return `\\x${Buffer.from(value).toString("hex")}`;
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Date) return value.toISOString();
  return value;
}

function table(
  key: string[],
  columns: string[],
  fts: boolean,
  raw: Array<Record<string, unknown>>,
): TableRows {
  const rows = new Map<string, Record<string, unknown>>();
  for (const row of raw) {
    const values = Object.fromEntries(columns.map((c) => [c, comparable(row[c])]));
    const id = JSON.stringify((key.length > 0 ? key : columns).map((c) => values[c]));
    // A table without a key may hold equal rows: each copy gets its own entry.
    let unique = id;
    for (let n = 2; rows.has(unique); n++) unique = `${id}#${n}`;
    rows.set(unique, values);
  }
  return { key: key.length > 0 ? key : columns, columns, rows, fts };
}

/** Every table of the SQLite database `file`, opened read-only. */
export function readSqliteRows(file: string): DatabaseRows {
  const db = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const all = db
      .prepare("select name, sql from sqlite_master where type = 'table' and name not like 'sqlite_%'")
      .all() as Array<{ name: string; sql: string }>;
    const fts = new Set(all.filter((t) => /^create virtual table/i.test(t.sql)).map((t) => t.name));
    const shadows = new Set([...fts].flatMap((name) => FTS_SHADOWS.map((s) => `${name}_${s}`)));
    const out: DatabaseRows = {};
    for (const { name } of all) {
      if (shadows.has(name)) continue;
      const quoted = `"${name.replaceAll('"', '""')}"`;
      const info = db.prepare("select name, pk from pragma_table_info(?) order by cid").all(name) as Array<{
        name: string;
        pk: number;
      }>;
      const isFts = fts.has(name);
      const columns = [...(isFts ? ["rowid"] : []), ...info.map((c) => c.name)];
      const key = isFts
        ? ["rowid"]
        : info
            .filter((c) => c.pk > 0)
            .sort((a, b) => a.pk - b.pk)
            .map((c) => c.name);
      const raw = db.prepare(`select ${isFts ? "rowid as rowid, " : ""}* from ${quoted}`).all() as Array<
        Record<string, unknown>
      >;
      out[name] = table(key, columns, isFts, raw);
    }
    return out;
  } finally {
    db.close();
  }
}

/** Every base table of the current schema of the PostgreSQL database at `url`. */
export async function readPostgresRows(url: string): Promise<DatabaseRows> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>(
      `select table_name as name from information_schema.tables
       where table_schema = current_schema() and table_type = 'BASE TABLE'`,
    );
    const out: DatabaseRows = {};
    for (const { name } of tables.rows) {
      const columns = await client.query<{ name: string }>(
        `select column_name as name from information_schema.columns
         where table_schema = current_schema() and table_name = $1 order by ordinal_position`,
        [name],
      );
      const key = await client.query<{ name: string }>(
        `select a.attname as name from pg_index i
         join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
         where i.indrelid = $1::regclass and i.indisprimary
         order by array_position(i.indkey, a.attnum)`,
        [`"${name.replaceAll('"', '""')}"`],
      );
      const raw = await client.query(`select * from "${name.replaceAll('"', '""')}"`);
      out[name] = table(
        key.rows.map((r) => r.name),
        columns.rows.map((r) => r.name),
        false,
        raw.rows,
      );
    }
    return out;
  } finally {
    await client.end();
  }
}

/** Every table of the database of a DATABASE_URL ("" or a path: SQLite, in `dataDir` by default). */
export function readAllRows(target: { databaseUrl: string; dataDir: string }): Promise<DatabaseRows> {
  return /^postgres(ql)?:\/\//.test(target.databaseUrl)
    ? readPostgresRows(target.databaseUrl)
    : Promise.resolve(readSqliteRows(sqliteFile(target.databaseUrl, target.dataDir)));
}

/**
 * What `actual` lacks or holds differently from `expected`, table by table, as readable lines
 * ('users: missing row ["id"]', 'users ["id"]: email "a" ≠ "b"' (actual ≠ expected), 'users:
 * extra row ["id"]'); only the columns `expected` has are compared. At most `limit` lines.
 * @param options.tables the tables of `expected` compared (default: all).
 * @param options.extraRows whether rows only `actual` has are differences (default: true).
 */
export function rowDifferences(
  expected: DatabaseRows,
  actual: DatabaseRows,
  options: { tables?: string[]; extraRows?: boolean; limit?: number } = {},
): string[] {
  const lines: string[] = [];
  const limit = options.limit ?? 40;
  for (const name of options.tables ?? Object.keys(expected)) {
    const want = expected[name];
    const got = actual[name];
    if (!want) continue;
    if (!got) {
      lines.push(`${name}: no such table`);
      continue;
    }
    for (const [id, row] of want.rows) {
      const other = got.rows.get(id);
      if (!other) lines.push(`${name}: missing row ${id}`);
      else
        for (const c of want.columns)
          if (JSON.stringify(other[c]) !== JSON.stringify(row[c]))
            lines.push(`${name} ${id}: ${c} ${JSON.stringify(other[c])} ≠ ${JSON.stringify(row[c])}`);
      if (lines.length >= limit) return lines;
    }
    if (options.extraRows !== false)
      for (const id of got.rows.keys()) if (!want.rows.has(id)) lines.push(`${name}: extra row ${id}`);
    if (lines.length >= limit) return lines.slice(0, limit);
  }
  return lines;
}
