// Upgrades: a database left at an older migration level, every table filled, keeps every row through this version's migrations, and its backup restores to the same migrated database (SQLite and PostgreSQL).
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Kysely, type Migration, Migrator, sql } from "kysely";
import { afterAll, expect, it } from "vitest";
import { type DbHandle, openDatabase } from "../../db/index";
import { knownMigrationNames, migrateToLatest } from "../../db/migrations";
import { describeEachDatabase } from "../../testing/api";
import {
  type DatabaseRows,
  isBookkeeping,
  readAllRows,
  readSqliteRows,
  rowDifferences,
} from "../../testing/backup-fixtures";
import { createTestDatabase } from "../../testing/server";
import { type BackupSource, createBackup, sqliteFile } from "./create-backup";
import { restoreBackup } from "./restore-backup";

/**
 * This code's migrations: every `Record<string, Migration>` exported by server/db/migrations/*.ts,
 * the modules server/db/migrations.ts assembles its (unexported) record from. The first test checks
 * they are exactly the migrations knownMigrationNames() lists.
 */
async function thisCodesMigrations(): Promise<Record<string, Migration>> {
  const dir = path.resolve(import.meta.dirname, "../../db/migrations");
  const all: Record<string, Migration> = {};
  for (const file of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
    .sort()) {
    const exported = (await import(path.join(dir, file))) as Record<string, unknown>;
    for (const value of Object.values(exported)) {
      const entries = value && typeof value === "object" ? Object.entries(value) : [];
      if (
        entries.length > 0 &&
        entries.every(([, m]) => typeof (m as Migration | undefined)?.up === "function")
      )
        Object.assign(all, value);
    }
  }
  return all;
}

/**
 * The older levels a database is left at: the first schema; before self-hosted accounts, the
 * prompt inspector, search, the swipe renames and recall; and just before recall.
 */
const LEVELS = ["0001_initial", "0022_model_connections", "0034_swipe_names"];

/** Tables and columns later migrations renamed (0006 quotas, 0034 swipe names): old name → new. */
const RENAMED_TABLES: Record<string, string> = { chat_reply_alternatives: "chat_reply_swipes" };
const RENAMED_COLUMNS: Record<string, Record<string, string>> = {
  plans: { daily_message_limit: "message_limit" },
  users: { chat_count_day: "chat_period" },
  chat_history: { alternative_index: "swipe_index" },
};

const HAS_PG_DUMP = spawnSync("pg_dump", ["--version"]).status === 0;

/** One column as the filler needs it. */
interface Column {
  name: string;
  /** "text", "integer", "bigint", "real" or "blob". */
  kind: string;
  nullable: boolean;
}
interface Table {
  name: string;
  columns: Column[];
  /** Foreign keys: this table's column → the parent table and column. */
  parents: Array<{ from: string; table: string; to: string }>;
}

const kindOf = (type: string): string => {
  const t = type.toLowerCase();
  if (t.includes("char") || t === "text") return "text";
  if (t === "bigint") return "bigint";
  if (t.includes("int")) return "integer";
  if (t === "real" || t.startsWith("double")) return "real";
  if (t === "blob" || t === "bytea") return "blob";
  return t;
};

/**
 * The tables the filler writes, read from the database itself: every table but the migration
 * bookkeeping, SQLite's FTS5 tables and their shadows, and tables a trigger writes (their rows
 * follow the rows of the table the trigger is on).
 */
async function schemaOf(handle: DbHandle): Promise<Table[]> {
  const db = handle.db as unknown as Kysely<unknown>;
  const out: Table[] = [];
  if (handle.dialect === "sqlite") {
    const master = (
      await sql<{
        type: string;
        name: string;
        sql: string | null;
      }>`select type, name, sql from sqlite_master`.execute(db)
    ).rows;
    const fts = master.filter((m) => m.type === "table" && /^create virtual table/i.test(m.sql ?? ""));
    const skipped = new Set(
      fts.flatMap((f) => [
        f.name,
        ...["config", "content", "data", "docsize", "idx"].map((s) => `${f.name}_${s}`),
      ]),
    );
    for (const trigger of master.filter((m) => m.type === "trigger"))
      for (const match of (trigger.sql ?? "").matchAll(/insert into (\w+)/gi)) skipped.add(match[1]!);
    for (const { name } of master.filter((m) => m.type === "table")) {
      if (name.startsWith("sqlite_") || isBookkeeping(name) || skipped.has(name)) continue;
      const columns = (
        await sql<{
          name: string;
          type: string;
          notnull: number;
          pk: number;
        }>`select name, type, "notnull", pk from pragma_table_info(${name})`.execute(db)
      ).rows;
      const parents = (
        await sql<{
          from: string;
          table: string;
          to: string | null;
        }>`select "from", "table", "to" from pragma_foreign_key_list(${name})`.execute(db)
      ).rows;
      out.push({
        name,
        columns: columns.map((c) => ({ name: c.name, kind: kindOf(c.type), nullable: !c.notnull && !c.pk })),
        parents: parents.map((p) => ({ from: p.from, table: p.table, to: p.to ?? "id" })),
      });
    }
    return out;
  }
  const tables = (
    await sql<{ name: string }>`select table_name as name from information_schema.tables
      where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db)
  ).rows;
  for (const { name } of tables) {
    if (isBookkeeping(name)) continue;
    const columns = (
      await sql<{ name: string; type: string; nullable: string; generated: string }>`
        select column_name as name, data_type as type, is_nullable as nullable, is_generated as generated
        from information_schema.columns where table_schema = current_schema() and table_name = ${name}
        order by ordinal_position`.execute(db)
    ).rows;
    const parents = (
      await sql<{ from: string; table: string; to: string }>`
        select kcu.column_name as "from", ccu.table_name as "table", ccu.column_name as "to"
        from information_schema.table_constraints tc
        join information_schema.key_column_usage kcu
          on kcu.constraint_name = tc.constraint_name and kcu.table_schema = tc.table_schema
        join information_schema.constraint_column_usage ccu
          on ccu.constraint_name = tc.constraint_name and ccu.table_schema = tc.table_schema
        where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = current_schema()
          and tc.table_name = ${name}`.execute(db)
    ).rows;
    out.push({
      name,
      columns: columns
        .filter((c) => c.generated !== "ALWAYS")
        .map((c) => ({ name: c.name, kind: kindOf(c.type), nullable: c.nullable === "YES" })),
      parents,
    });
  }
  return out;
}

/** The tables with every parent before its children. @throws Error on a cycle of foreign keys. */
function parentsFirst(tables: Table[]): Table[] {
  const ordered: Table[] = [];
  const done = new Set<string>();
  const byName = new Map(tables.map((t) => [t.name, t]));
  const visit = (table: Table, path: string[]) => {
    if (done.has(table.name)) return;
    if (path.includes(table.name)) throw new Error(`foreign key cycle: ${[...path, table.name].join(" → ")}`);
    for (const parent of table.parents) {
      const p = byName.get(parent.table);
      if (p && p !== table) visit(p, [...path, table.name]);
    }
    done.add(table.name);
    ordered.push(table);
  };
  for (const table of tables) visit(table, []);
  return ordered;
}

/** Rows each table gets. */
const ROWS = 3;

/**
 * Fills every table of the filler's schema with ROWS rows: parents first, a foreign key naming
 * the parent row of the same number, other values plausible for the type and unique where text
 * or numbers (so every unique constraint holds); a nullable column is null in the first row only.
 */
async function fillEveryTable(handle: DbHandle): Promise<string[]> {
  const db = handle.db as unknown as Kysely<Record<string, Record<string, unknown>>>;
  const tables = parentsFirst(await schemaOf(handle));
  const written = new Map<string, Array<Record<string, unknown>>>();
  let serial = 1000;
  for (const table of tables) {
    const rows: Array<Record<string, unknown>> = [];
    for (let i = 0; i < ROWS; i++) {
      const row: Record<string, unknown> = {};
      for (const column of table.columns) {
        serial += 1;
        const fk = table.parents.find((p) => p.from === column.name);
        if (fk) {
          const parentRows = written.get(fk.table) ?? [];
          row[column.name] = parentRows[i % Math.max(1, parentRows.length)]?.[fk.to] ?? null;
          continue;
        }
        if (column.nullable && i === 0) {
          row[column.name] = null;
          continue;
        }
        row[column.name] =
          column.kind === "text"
            ? `${table.name}.${column.name} ${serial} ✓ ${randomBytes(3).toString("hex")}`
            : column.kind === "integer"
              ? serial
              : column.kind === "bigint"
                ? 1_700_000_000_000 + serial
                : column.kind === "real"
                  ? serial / 4
                  : column.kind === "blob"
                    ? randomBytes(16)
                    : `${serial}`;
      }
      rows.push(row);
    }
    await db.insertInto(table.name).values(rows).execute();
    written.set(table.name, rows);
  }
  return tables.map((t) => t.name);
}

/** The migration level's database rows, renamed as this version names the tables and columns. */
function renamed(rows: DatabaseRows): DatabaseRows {
  const out: DatabaseRows = {};
  for (const [name, table] of Object.entries(rows)) {
    const columns = RENAMED_COLUMNS[name] ?? {};
    const to = (c: string) => columns[c] ?? c;
    out[RENAMED_TABLES[name] ?? name] = {
      ...table,
      key: table.key.map(to),
      columns: table.columns.map(to),
      rows: new Map(
        [...table.rows].map(([id, row]) => [
          id,
          Object.fromEntries(Object.entries(row).map(([c, v]) => [to(c), v])),
        ]),
      ),
    };
  }
  return out;
}

/** Names of the migrations recorded in the database. */
async function appliedNames(handle: DbHandle): Promise<string[]> {
  const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
    handle.db,
  );
  return rows.rows.map((r) => r.name);
}

describeEachDatabase("upgrade from an older migration level", (dialect) => {
  const scratch: string[] = [];
  const drops: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const drop of drops) await drop();
    for (const dir of scratch) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A fresh data directory and an empty database (SQLite in it, or a scratch PostgreSQL one). */
  async function emptyTarget(name: string): Promise<BackupSource> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `upgrade-${name}-`));
    scratch.push(dataDir);
    let databaseUrl = "";
    if (dialect === "postgres") {
      const database = await createTestDatabase(`companion_upgrade_${name}`);
      drops.push(database.drop);
      databaseUrl = database.url;
    }
    return { databaseUrl, dataDir, contentDir: path.join(dataDir, "content") };
  }

  it("the migrations read here are exactly this code's", async () => {
    expect(Object.keys(await thisCodesMigrations()).sort()).toEqual(knownMigrationNames());
    for (const level of LEVELS) expect(knownMigrationNames()).toContain(level);
  });

  for (const level of LEVELS) {
    it.skipIf(dialect === "postgres" && !HAS_PG_DUMP)(
      `from ${level}: every row is kept by the migrations, and its backup restores to the migrated database`,
      async () => {
        // Left at the older level by this code's own migrations, then every table filled.
        const original = await emptyTarget("original");
        const handle = openDatabase(original.databaseUrl, original.dataDir);
        let filled: string[];
        try {
          const migrator = new Migrator({
            db: handle.db as unknown as Kysely<unknown>,
            provider: { getMigrations: thisCodesMigrations },
            allowUnorderedMigrations: true,
          });
          const { error, results } = await migrator.migrateTo(level);
          expect(error).toBeUndefined();
          expect(results?.every((r) => r.status === "Success")).toBe(true);
          expect(await appliedNames(handle)).toEqual(knownMigrationNames().filter((n) => n <= level));
          filled = await fillEveryTable(handle);
        } finally {
          await handle.db.destroy();
        }
        const recorded = await readAllRows(original);
        const empty = filled.filter((name) => (recorded[name]?.rows.size ?? 0) === 0);
        expect(empty, "tables left empty by the filler").toEqual([]);
        expect(filled.length).toBeGreaterThanOrEqual(level === "0001_initial" ? 11 : 25);
        fs.mkdirSync(path.join(original.dataDir, "content", "characters"), { recursive: true });
        const photo = randomBytes(4096);
        fs.writeFileSync(path.join(original.dataDir, "content", "characters", "old.jpg"), photo);

        // The backup an older version would have taken, before this version's migrations ran.
        const backupDir = path.join(original.dataDir, "backups");
        const backup = await createBackup(original, {
          dir: backupDir,
          passphrase: "",
          reason: "test",
          version: "1.0.0",
        });
        expect(backup.manifest.version).toBe("1.0.0");
        expect(backup.manifest.database.migrations).toEqual(knownMigrationNames().filter((n) => n <= level));

        // This version's migrations on the original: every row keeps its values in its columns.
        const again = openDatabase(original.databaseUrl, original.dataDir);
        try {
          await migrateToLatest(again.db as never);
          expect(await appliedNames(again)).toEqual(knownMigrationNames());
        } finally {
          await again.db.destroy();
        }
        const migrated = await readAllRows(original);
        const expected = renamed(recorded);
        const tables = Object.keys(expected).filter((t) => !isBookkeeping(t));
        expect(rowDifferences(expected, migrated, { tables, extraRows: false })).toEqual([]);
        // Rows the migrations add to the old tables (none so far): listed, so a new one is seen.
        expect(
          tables.flatMap((t) =>
            [...migrated[t]!.rows.keys()]
              .filter((id) => !expected[t]!.rows.has(id))
              .map((id) => `${t} ${id}`),
          ),
        ).toEqual([]);
        if (dialect === "sqlite" && level < "0033") {
          // Search's index was built over the entries that were there (0033_message_search).
          const indexed = readSqliteRows(sqliteFile("", original.dataDir)).message_search_rows!;
          expect([...indexed.rows.values()].map((r) => r.entry_id).sort()).toEqual(
            [...migrated.chat_history!.rows.values()].map((r) => r.id).sort(),
          );
        }

        // The old backup restored into an empty target (migrated by the restore) is that database.
        const target = await emptyTarget("restored");
        const restored = await restoreBackup(backup.file, target, {
          passphrase: "",
          force: false,
          backupDir: path.join(target.dataDir, "backups"),
          log: () => {},
        });
        expect(restored.files).toBe(1);
        expect(fs.readFileSync(path.join(target.dataDir, "content", "characters", "old.jpg"))).toEqual(photo);
        const after = await readAllRows(target);
        const compared = Object.keys(migrated).filter((t) => !isBookkeeping(t));
        expect(Object.keys(after).sort()).toEqual(Object.keys(migrated).sort());
        expect(rowDifferences(migrated, after, { tables: compared })).toEqual([]);
        const names = (rows: DatabaseRows) =>
          [...rows.kysely_migration!.rows.values()].map((r) => r.name).sort();
        expect(names(after)).toEqual(knownMigrationNames());
        expect(names(after)).toEqual(names(migrated));
      },
      60_000,
    );
  }
  if (dialect === "postgres" && !HAS_PG_DUMP)
    console.warn("SKIPPED upgrade [postgres]: pg_dump is not on PATH (a PostgreSQL backup needs it).");
});
