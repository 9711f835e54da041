// Writing one backup archive: a consistent database copy, the stored files and the secrets, and a manifest with checksums; complete under its name or not there at all.
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { PassThrough, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip } from "node:zlib";
import tar from "tar-stream";
import { APP_VERSION } from "../../../common/constants";
import { encryptingStream } from "./encryption";
import {
  ARCHIVE_FORMAT,
  archiveName,
  MANIFEST_ENTRY,
  type Manifest,
  POSTGRES_ENTRY,
  parseArchiveName,
  SECRET_FILES,
  SQLITE_ENTRY,
} from "./manifest";
import { isPostgresUrl, snapshotPostgres, snapshotSqlite } from "./snapshot";

/** What is backed up: the database, DATA_DIR's secrets, and the stored files when on local disk. */
export interface BackupSource {
  /** DATABASE_URL: a postgres:// URL, a SQLite file path, or "" for DATA_DIR/app.db. */
  databaseUrl: string;
  dataDir: string;
  /** The local content folder; undefined when the files are in S3 (they stay in the bucket). */
  contentDir: string | undefined;
}

export interface BackupOptions {
  /** The folder archives are written to (BACKUP_DIR); made with mode 0700 when missing. */
  dir: string;
  /** BACKUP_PASSPHRASE: "" writes a plain .tar.gz, otherwise an encrypted .tar.gz.enc. */
  passphrase: string;
  /** Why it is taken, recorded in the manifest. */
  reason: string;
  /** How many archives to keep (the newest); older ones are removed after a success. None: keep all. */
  keep?: number;
  /** The app version recorded; defaults to APP_VERSION (tests of older backups set it). */
  version?: string;
  now?: () => Date;
  /** Opens the archive's temporary file for writing (tests inject a full disk here). */
  openWrite?: (file: string) => Writable;
}

/** One finished archive. */
export interface BackupResult {
  /** Absolute path of the archive. */
  file: string;
  name: string;
  /** Bytes. */
  size: number;
  manifest: Manifest;
}

/** The SQLite file a DATABASE_URL names ("" = DATA_DIR/app.db). */
export function sqliteFile(databaseUrl: string, dataDir: string): string {
  return path.resolve(databaseUrl.replace(/^sqlite:(\/\/)?/, "") || path.join(dataDir, "app.db"));
}

/** Every regular file under `dir`, as paths relative to it with "/" separators, sorted; symlinks and others skipped. */
function regularFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const found: string[] = [];
  const walk = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(dir, relative), { withFileTypes: true })) {
      const child = relative ? `${relative}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(child);
      else if (entry.isFile()) found.push(child);
    }
  };
  walk("");
  return found.sort();
}

/** Adds one entry of bytes to the pack and records its size and checksum. */
async function addEntry(
  pack: tar.Pack,
  files: Manifest["files"],
  name: string,
  bytes: Buffer,
): Promise<void> {
  files[name] = { size: bytes.length, sha256: createHash("sha256").update(bytes).digest("hex") };
  await new Promise<void>((resolve, reject) =>
    pack.entry({ name, size: bytes.length, mode: 0o600, mtime: new Date(0) }, bytes, (e) =>
      e ? reject(e) : resolve(),
    ),
  );
}

/** Streams a (possibly large) file into the pack, hashing it on the way. */
async function addFileEntry(
  pack: tar.Pack,
  files: Manifest["files"],
  name: string,
  file: string,
): Promise<void> {
  const size = fs.statSync(file).size;
  const hash = createHash("sha256");
  const entry = pack.entry({ name, size, mode: 0o600, mtime: new Date(0) });
  const tap = new PassThrough();
  tap.on("data", (chunk: Buffer) => hash.update(chunk));
  await pipeline(fs.createReadStream(file), tap, entry);
  files[name] = { size, sha256: hash.digest("hex") };
}

/** Temporary files a killed backup or restore left behind, removed after this long, milliseconds. */
const LEFTOVER_MS = 6 * 3_600_000;

/** Removes the temporary files and folders (dot-names) of backups or restores killed more than LEFTOVER_MS ago. */
function removeLeftovers(dir: string, now: number): void {
  for (const name of fs.readdirSync(dir)) {
    if (!/^\.(companion-backup-.*\.partial|staging-.*|restore-.*|rollback-.*)$/.test(name)) continue;
    const file = path.join(dir, name);
    if (now - fs.statSync(file).mtimeMs > LEFTOVER_MS) fs.rmSync(file, { recursive: true, force: true });
  }
}

/**
 * Removes all but the `keep` newest complete archives of `dir` (names of ARCHIVE_NAME only).
 * @returns the names removed.
 */
export async function pruneArchives(dir: string, keep: number): Promise<string[]> {
  const archives = fs
    .readdirSync(dir)
    .map((name) => ({ name, parsed: parseArchiveName(name) }))
    .filter((a) => a.parsed)
    .sort((a, b) => b.parsed!.createdAt - a.parsed!.createdAt);
  const removed = archives.slice(keep).map((a) => a.name);
  for (const name of removed) await fs.promises.rm(path.join(dir, name), { force: true });
  return removed;
}

/**
 * Writes one backup archive into `options.dir` (mode 0600): the database copy (SQLite online
 * backup, or pg_dump of one snapshot), the stored files under content/ (local disk only), the
 * secrets of DATA_DIR, and last the manifest (version, migrations, row counts per table, size and
 * sha256 of every entry). It is written under a temporary dot-name and renamed once complete, so
 * a process killed mid-way leaves no archive under a backup's name. Runs beside a working server.
 * @throws Error (the temporary files removed) when the database cannot be copied, pg_dump is
 *   missing (PgToolMissingError), or the disk is full (code ENOSPC).
 */
export async function createBackup(source: BackupSource, options: BackupOptions): Promise<BackupResult> {
  const at = (options.now ?? (() => new Date()))();
  const version = options.version ?? APP_VERSION;
  fs.mkdirSync(options.dir, { recursive: true, mode: 0o700 });
  removeLeftovers(options.dir, at.getTime());
  const name = archiveName(at, version, Boolean(options.passphrase));
  const final = path.join(options.dir, name);
  const temporary = path.join(options.dir, `.${name}.${randomUUID().slice(0, 8)}.partial`);
  const staging = fs.mkdtempSync(path.join(options.dir, ".staging-"));
  try {
    const postgres = isPostgresUrl(source.databaseUrl);
    const copy = path.join(staging, postgres ? "postgres.dump" : "app.db");
    const facts = postgres
      ? await snapshotPostgres(source.databaseUrl, copy)
      : await snapshotSqlite(sqliteFile(source.databaseUrl, source.dataDir), copy);
    const manifest: Manifest = {
      format: ARCHIVE_FORMAT,
      version,
      createdAt: at.toISOString(),
      reason: options.reason,
      database: {
        engine: postgres ? "postgres" : "sqlite",
        entry: postgres ? POSTGRES_ENTRY : SQLITE_ENTRY,
        ...facts,
      },
      storage: source.contentDir === undefined ? "s3" : "local",
      files: {},
    };
    const pack = tar.pack();
    const out =
      options.openWrite?.(temporary) ?? fs.createWriteStream(temporary, { mode: 0o600, flags: "wx" });
    // Level 1: a third of level 6's CPU for archives about 6 % larger; the CPU is the chatting users'.
    const gzip = createGzip({ level: 1 });
    const written = options.passphrase
      ? pipeline(pack, gzip, await encryptingStream(options.passphrase), out)
      : pipeline(pack, gzip, out);
    // A failed write ends the pipeline early; the entries' own awaits must not hang on it.
    const packing = (async () => {
      await addFileEntry(pack, manifest.files, manifest.database.entry, copy);
      for (const secret of SECRET_FILES) {
        const file = path.join(source.dataDir, secret);
        if (fs.existsSync(file))
          await addEntry(pack, manifest.files, `secrets/${secret}`, fs.readFileSync(file));
      }
      if (source.contentDir !== undefined) {
        for (const key of regularFiles(source.contentDir)) {
          const bytes = await fs.promises.readFile(path.join(source.contentDir, key)).catch(() => undefined);
          // A file removed since the listing (a deleted chat's audio) is simply not in the archive.
          if (bytes) await addEntry(pack, manifest.files, `content/${key}`, bytes);
        }
      }
      await addEntry(pack, {}, MANIFEST_ENTRY, Buffer.from(JSON.stringify(manifest, null, 1)));
      pack.finalize();
    })();
    packing.catch(() => pack.destroy());
    await Promise.all([written, packing]);
    // On disk before it gets its name: a power cut leaves a complete archive or none.
    // Asynchronous: syncing tens of MB blocks for a tenth of a second (benchmarks.md, backups under load).
    const handle = await fs.promises.open(temporary, "r");
    await handle.sync();
    await handle.close();
    fs.chmodSync(temporary, 0o600);
    fs.renameSync(temporary, final);
    if (options.keep) await pruneArchives(options.dir, options.keep);
    return { file: final, name, size: fs.statSync(final).size, manifest };
  } catch (error) {
    fs.rmSync(temporary, { force: true });
    throw error;
  } finally {
    await fs.promises.rm(staging, { recursive: true, force: true });
  }
}
