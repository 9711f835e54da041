// Migrating an existing SQLite database safely at start: a backup first when migrations are pending, and the database put back as it was when one fails.
import fs from "node:fs";
import path from "node:path";
import { type Migration, sql } from "kysely";
import type { DbHandle } from "../../db/index";
import { knownMigrationNames, migrateToLatest } from "../../db/migrations";
import { type BackupSource, createBackup, sqliteFile } from "./create-backup";
import { openBackup } from "./read-backup";

/** Thrown when a migration failed; its message is the one line the server exits with. */
export class MigrationFailedError extends Error {}

export interface SafeMigrateOptions {
  source: BackupSource;
  /** BACKUP_DIR, BACKUP_PASSPHRASE and BACKUP_KEEP. */
  dir: string;
  passphrase: string;
  keep: number;
  log: (line: string) => void;
  /** Migrations run besides this code's (tests: one that fails). */
  extra?: Record<string, Migration>;
}

/** Migrations applied to the database, by name (none on a new database). */
async function appliedMigrations(handle: DbHandle): Promise<string[]> {
  const table = await sql<{
    n: number;
  }>`select count(*) as n from sqlite_master where type = 'table' and name = 'kysely_migration'`.execute(
    handle.db,
  );
  if (Number(table.rows[0]?.n ?? 0) === 0) return [];
  const rows = await sql<{ name: string }>`select name from kysely_migration`.execute(handle.db);
  return rows.rows.map((r) => r.name);
}

/** Puts the database file back from the archive's copy (the handle is closed first). */
async function putBack(handle: DbHandle, archive: string, options: SafeMigrateOptions): Promise<void> {
  await handle.db.destroy();
  const staging = fs.mkdtempSync(path.join(options.dir, ".rollback-"));
  try {
    const manifest = await openBackup(archive, staging, options.passphrase);
    const file = sqliteFile(options.source.databaseUrl, options.source.dataDir);
    for (const suffix of ["-wal", "-shm"]) fs.rmSync(file + suffix, { force: true });
    fs.copyFileSync(path.join(staging, manifest.database.entry), file);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Brings the schema up to date. On an existing SQLite database with pending migrations it first
 * takes a backup (reason "pre-migration", into BACKUP_DIR); when a migration then fails, the
 * database file is put back from that backup (SQLite cannot roll DDL back across migrations) and
 * MigrationFailedError names the backup and the restore command. PostgreSQL runs each migration
 * in a transaction (Kysely), so a failure leaves it as it was without a copy.
 * @throws MigrationFailedError when a migration fails (the handle is then closed on SQLite).
 */
export async function migrateSafely(handle: DbHandle, options: SafeMigrateOptions): Promise<void> {
  const file = sqliteFile(options.source.databaseUrl, options.source.dataDir);
  const applied =
    handle.dialect === "sqlite" && !file.endsWith(":memory:") ? await appliedMigrations(handle) : [];
  const known = new Set([...knownMigrationNames(), ...Object.keys(options.extra ?? {})]);
  const pending = [...known].filter((name) => !applied.includes(name)).length;
  if (applied.length === 0 || pending === 0) {
    try {
      await migrateToLatest(handle.db as never, options.extra);
    } catch (error) {
      throw new MigrationFailedError(
        `${(error as Error).message}. Nothing was backed up first (a new or PostgreSQL database).`,
      );
    }
    return;
  }
  options.log(`${pending} database migrations are pending: backing up first.`);
  const backup = await createBackup(options.source, {
    dir: options.dir,
    passphrase: options.passphrase,
    keep: options.keep + 1,
    reason: "pre-migration",
  });
  options.log(`Backed up to ${backup.file}`);
  try {
    await migrateToLatest(handle.db as never, options.extra);
  } catch (error) {
    await putBack(handle, backup.file, options);
    throw new MigrationFailedError(
      `${(error as Error).message.replace(/\s+/g, " ")}; the database is as it was before. Backup taken just before: ${backup.file} (restore it with: npm run restore -- ${backup.file} --force)`,
    );
  }
}
