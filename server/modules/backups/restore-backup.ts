// Restoring a backup archive into an empty DATA_DIR or database (or, with force, over one after backing it up): checked, loaded, counted, then migrated.
import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { APP_VERSION } from "../../../common/constants";
import { openDatabase } from "../../db/index";
import { knownMigrationNames, migrateToLatest } from "../../db/migrations";
import { type BackupResult, type BackupSource, createBackup, sqliteFile } from "./create-backup";
import { compareVersions, type Manifest, SECRET_FILES } from "./manifest";
import { ArchiveRefusedError, openBackup } from "./read-backup";
import { isPostgresUrl, loadPostgresDump, postgresFacts, sqliteFacts } from "./snapshot";

/** Thrown when a restore is refused before anything was changed; the message says why and what to do. */
export class RestoreRefusedError extends Error {}

export interface RestoreOptions {
  /** BACKUP_PASSPHRASE, for an encrypted archive. */
  passphrase: string;
  /** Replace a target that holds data, after backing it up into `backupDir`. */
  force: boolean;
  /** BACKUP_DIR: the scratch folder of the restore, and where the pre-restore backup goes. */
  backupDir: string;
  log: (line: string) => void;
}

export interface RestoreResult {
  manifest: Manifest;
  /** The backup taken of what was there before (with force on a non-empty target). */
  previous?: BackupResult;
  /** Stored files written. */
  files: number;
}

/** Tables, then stored files, the target already holds. */
async function targetContents(target: BackupSource): Promise<{ tables: number; files: number }> {
  let tables = 0;
  if (isPostgresUrl(target.databaseUrl)) {
    tables = Object.keys((await postgresFacts(target.databaseUrl)).rowCounts).length;
  } else {
    const file = sqliteFile(target.databaseUrl, target.dataDir);
    if (fs.existsSync(file) && fs.statSync(file).size > 0)
      tables = Object.keys((await sqliteFacts(file)).rowCounts).length;
  }
  const dir = target.contentDir;
  const files =
    dir && fs.existsSync(dir)
      ? fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length
      : 0;
  return { tables, files };
}

/** Empties the target: the SQLite file (and its WAL) or PostgreSQL's current schema, and the content folder. */
async function clearTarget(target: BackupSource): Promise<void> {
  if (isPostgresUrl(target.databaseUrl)) {
    const { db } = openDatabase(target.databaseUrl, target.dataDir);
    try {
      await sql`drop schema public cascade`.execute(db);
      await sql`create schema public`.execute(db);
    } finally {
      await db.destroy();
    }
  } else {
    const file = sqliteFile(target.databaseUrl, target.dataDir);
    for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(file + suffix, { force: true });
  }
  if (target.contentDir) fs.rmSync(target.contentDir, { recursive: true, force: true });
}

/**
 * Checks that the backup can be restored here: made by this version or an older one (every
 * migration it ran is known to this code), and of the same database engine.
 * @throws RestoreRefusedError
 */
function checkCompatible(manifest: Manifest, postgres: boolean): void {
  const known = new Set(knownMigrationNames());
  const unknown = manifest.database.migrations.filter((name) => !known.has(name));
  if (unknown.length > 0 || compareVersions(manifest.version, APP_VERSION) > 0) {
    throw new RestoreRefusedError(
      `The backup was made by a newer version (${manifest.version}) than this one (${APP_VERSION}): upgrade, then restore.`,
    );
  }
  const engine = postgres ? "postgres" : "sqlite";
  if (manifest.database.engine !== engine) {
    throw new RestoreRefusedError(
      `The backup holds a ${manifest.database.engine} database and DATABASE_URL names a ${engine} one: restore it with the same kind of database.`,
    );
  }
}

/** Checks the loaded database's row counts against the manifest. @throws RestoreRefusedError on a difference. */
async function checkCounts(target: BackupSource, manifest: Manifest): Promise<void> {
  const facts = isPostgresUrl(target.databaseUrl)
    ? await postgresFacts(target.databaseUrl)
    : await sqliteFacts(sqliteFile(target.databaseUrl, target.dataDir));
  for (const [table, expected] of Object.entries(manifest.database.rowCounts)) {
    if (facts.rowCounts[table] !== expected) {
      throw new RestoreRefusedError(
        `The restored database differs from the backup: ${table} has ${facts.rowCounts[table] ?? "no"} rows where the manifest says ${expected}.`,
      );
    }
  }
}

/**
 * Restores the archive `file` into `target`: opens and checks it (checksums, see openBackup),
 * refuses a newer version's backup or another engine's, refuses a target holding data unless
 * `force` (then backs that up first and empties it), loads the database (a file copy, or
 * pg_restore), writes the stored files and the secrets (mode 0600), checks every table's row
 * count against the manifest, and migrates an older backup to this version's schema.
 * The server must be stopped. Nothing is changed before every check has passed.
 * @throws ArchiveRefusedError (the archive) or RestoreRefusedError (the target, the version).
 */
export async function restoreBackup(
  file: string,
  target: BackupSource,
  options: RestoreOptions,
): Promise<RestoreResult> {
  fs.mkdirSync(options.backupDir, { recursive: true, mode: 0o700 });
  const staging = fs.mkdtempSync(path.join(options.backupDir, ".restore-"));
  try {
    const manifest = await openBackup(path.resolve(file), staging, options.passphrase);
    const postgres = isPostgresUrl(target.databaseUrl);
    checkCompatible(manifest, postgres);
    const there = await targetContents(target);
    let previous: BackupResult | undefined;
    if (there.tables > 0 || there.files > 0) {
      if (!options.force) {
        throw new RestoreRefusedError(
          `The target already holds data (${there.tables} tables, ${there.files} stored files). Stop the server and run the restore with --force: what is there is backed up first.`,
        );
      }
      if (there.tables > 0) {
        previous = await createBackup(target, {
          dir: options.backupDir,
          passphrase: options.passphrase,
          reason: "pre-restore",
        });
        options.log(`What was there is backed up in ${previous.file}`);
      }
      await clearTarget(target);
    }
    const copy = path.join(staging, manifest.database.entry);
    if (postgres) {
      await loadPostgresDump(target.databaseUrl, copy);
    } else {
      const dbFile = sqliteFile(target.databaseUrl, target.dataDir);
      fs.mkdirSync(path.dirname(dbFile), { recursive: true });
      fs.copyFileSync(copy, dbFile);
    }
    let files = 0;
    for (const name of Object.keys(manifest.files)) {
      if (name.startsWith("content/") && target.contentDir) {
        const dest = path.join(target.contentDir, name.slice("content/".length));
        fs.mkdirSync(path.dirname(dest), { recursive: true });
        fs.copyFileSync(path.join(staging, name), dest);
        files++;
      }
    }
    fs.mkdirSync(target.dataDir, { recursive: true });
    for (const secret of SECRET_FILES) {
      const from = path.join(staging, "secrets", secret);
      if (fs.existsSync(from)) {
        fs.copyFileSync(from, path.join(target.dataDir, secret));
        fs.chmodSync(path.join(target.dataDir, secret), 0o600);
      }
    }
    await checkCounts(target, manifest);
    const { db } = openDatabase(target.databaseUrl, target.dataDir);
    try {
      await migrateToLatest(db as never);
    } finally {
      await db.destroy();
    }
    return { manifest, previous, files };
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

export { ArchiveRefusedError };
