// The backup archive's layout: its file names, the manifest's shape, and the names an archive may hold.
import path from "node:path";
import type { DatabaseFacts } from "./snapshot";

/** Version of the archive layout below; a reader refuses a newer one. */
export const ARCHIVE_FORMAT = 1;

/** The manifest, the archive's last entry: what it holds and how to check it. */
export interface Manifest {
  format: number;
  /** The app's version that wrote it (common/constants APP_VERSION). */
  version: string;
  /** ISO time the backup began (UTC). */
  createdAt: string;
  /** Why it was taken: "manual", "scheduled", "cli", "pre-migration", "pre-restore". */
  reason: string;
  database: DatabaseFacts & {
    engine: "sqlite" | "postgres";
    /** The archive entry holding the copy: database/app.db or database/postgres.dump. */
    entry: string;
  };
  /** Where the stored files were: "local" (they are in the archive under content/) or "s3" (left in the bucket). */
  storage: "local" | "s3";
  /** Every other entry of the archive (the manifest excepted): its size in bytes and sha256, hex. */
  files: Record<string, { size: number; sha256: string }>;
}

/** The archive entry of the manifest. */
export const MANIFEST_ENTRY = "manifest.json";
/** The archive entry of a SQLite database copy. */
export const SQLITE_ENTRY = "database/app.db";
/** The archive entry of a PostgreSQL dump (pg_dump --format=custom). */
export const POSTGRES_ENTRY = "database/postgres.dump";
/** The secrets of DATA_DIR the data depends on: cookies' signing key, and the key of the stored API keys. */
export const SECRET_FILES = ["content-secret", "model-keys-secret"] as const;

/** Archive file names: companion-backup-<UTC time>-<version>.tar.gz, with ".enc" when encrypted. */
export const ARCHIVE_NAME =
  /^companion-backup-(\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z)-([0-9A-Za-z.+-]+?)\.tar\.gz(\.enc)?$/;

/** The file name of an archive begun at `at` by `version`. */
export function archiveName(at: Date, version: string, encrypted: boolean): string {
  const time = at.toISOString().replace(/:/g, "-").replace(".", "-");
  return `companion-backup-${time}-${version}.tar.gz${encrypted ? ".enc" : ""}`;
}

/** Parses an archive's name: its time (epoch ms) and version; undefined for any other name. */
export function parseArchiveName(
  name: string,
): { createdAt: number; version: string; encrypted: boolean } | undefined {
  const match = ARCHIVE_NAME.exec(name);
  if (!match) return undefined;
  const [date, time] = match[1]!.split("T");
  const [h, m, s, ms] = time!.slice(0, -1).split("-");
  const createdAt = Date.parse(`${date}T${h}:${m}:${s}.${ms}Z`);
  return Number.isNaN(createdAt)
    ? undefined
    : { createdAt, version: match[2]!, encrypted: Boolean(match[3]) };
}

/**
 * Whether `entry` is a name an archive may hold: the manifest, the database copy, a secret, or a
 * stored file under content/ (relative, normalised, no "..", no absolute path, no backslash).
 */
export function isAllowedEntry(entry: string): boolean {
  if (entry === MANIFEST_ENTRY || entry === SQLITE_ENTRY || entry === POSTGRES_ENTRY) return true;
  if (SECRET_FILES.some((name) => entry === `secrets/${name}`)) return true;
  return (
    entry.startsWith("content/") &&
    entry.length > "content/".length &&
    !entry.includes("\\") &&
    !entry.includes("\0") &&
    path.posix.normalize(entry) === entry &&
    !entry.split("/").includes("..")
  );
}

/** Compares two version strings "a.b.c" numerically: negative when a < b, 0 when equal. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.+-]/).map((p) => Number.parseInt(p, 10) || 0);
  const pb = b.split(/[.+-]/).map((p) => Number.parseInt(p, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
