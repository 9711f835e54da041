// The server's backups: running one (now, or when the schedule says), listing the archives, the last failure in plain words, the download, and the metric.
import fs from "node:fs";
import path from "node:path";
import { CronExpressionParser } from "cron-parser";
import type { AdminBackup, AdminBackups } from "../../../common/api";
import { english, msg } from "../../i18n/messages";
import { watchBackups } from "../../observability/metrics";
import { type BackupOptions, type BackupResult, type BackupSource, createBackup } from "./create-backup";
import { parseArchiveName } from "./manifest";
import { PgToolMissingError } from "./snapshot";

export interface BackupsSettings {
  source: BackupSource;
  dir: string;
  passphrase: string;
  keep: number;
  schedule: string;
  /** Copies a finished archive elsewhere (the S3 bucket under BACKUP_S3_PREFIX); none: no copy. */
  copy?: (file: string, name: string) => Promise<void>;
  /** Opens an archive's temporary file (tests inject a full disk). */
  openWrite?: BackupOptions["openWrite"];
}

/** The file in BACKUP_DIR that keeps the last failure across restarts (removed by a success). */
const FAILURE_FILE = "last-failure.json";

/** How often the schedule is looked at, milliseconds: a cron time falls in exactly one window. */
export const BACKUP_CHECK_MS = 60_000;

/** Thrown by `start` when a backup is already running in this process. */
export class BackupRunningError extends Error {
  constructor() {
    super("A backup is already running.");
  }
}

/** The sentence an admin reads for a failed backup. */
export function plainFailure(error: unknown, dir: string): string {
  const code = (error as NodeJS.ErrnoException)?.code;
  if (code === "ENOSPC") return english(msg("backups.diskFullBackupCouldNot", { dir }));
  if (code === "EACCES" || code === "EPERM") return english(msg("backups.serverMayNotWriteGive", { dir }));
  if (error instanceof PgToolMissingError) return error.message;
  return english(
    msg("backups.backupFailed", { value: error instanceof Error ? error.message : String(error) }),
  );
}

/**
 * Backups of this instance: one at a time per process, into BACKUP_DIR, the BACKUP_KEEP newest
 * kept. A failure is logged in one line, kept for the admin (also in BACKUP_DIR/last-failure.json),
 * and never stops the server. The metric companion_backup_last_success_timestamp_seconds follows
 * the newest archive.
 */
export class BackupsService {
  private running: Promise<BackupResult> | undefined;

  constructor(
    private readonly settings: BackupsSettings,
    private readonly log: (line: string) => void,
    private readonly now: () => number = Date.now,
  ) {
    watchBackups(() => this.list()[0]?.createdAt);
  }

  /** The complete archives of BACKUP_DIR, newest first (temporary and other files are not listed). */
  list(): AdminBackup[] {
    if (!fs.existsSync(this.settings.dir)) return [];
    return fs
      .readdirSync(this.settings.dir)
      .flatMap((name) => {
        const parsed = parseArchiveName(name);
        if (!parsed) return [];
        const stat = fs.statSync(path.join(this.settings.dir, name), { throwIfNoEntry: false });
        return stat?.isFile() ? [{ name, size: stat.size, ...parsed }] : [];
      })
      .sort((a, b) => b.createdAt - a.createdAt);
  }

  /** The last failure kept in BACKUP_DIR, or null. */
  private lastFailure(): AdminBackups["lastFailure"] {
    try {
      const saved = JSON.parse(fs.readFileSync(path.join(this.settings.dir, FAILURE_FILE), "utf8"));
      return typeof saved.at === "number" && typeof saved.message === "string" ? saved : null;
    } catch {
      return null;
    }
  }

  /** The state the admin console shows. */
  status(): AdminBackups {
    const backups = this.list();
    return {
      backups,
      running: this.running !== undefined,
      lastSuccessAt: backups[0]?.createdAt ?? null,
      lastFailure: this.lastFailure(),
      schedule: this.settings.schedule,
      keep: this.settings.keep,
      dir: this.settings.dir,
    };
  }

  /**
   * Takes a backup and waits for it: the archive, the copy (when set), the metric. A failure is
   * recorded (log line, last-failure.json) and thrown.
   * @throws BackupRunningError when one is already running here; the backup's error otherwise.
   */
  async run(reason: string): Promise<BackupResult> {
    if (this.running) throw new BackupRunningError();
    const { source, dir, passphrase, keep, openWrite } = this.settings;
    this.running = createBackup(source, { dir, passphrase, keep, reason, openWrite });
    try {
      const result = await this.running;
      fs.rmSync(path.join(dir, FAILURE_FILE), { force: true });
      this.log(`Backup written: ${result.file} (${result.size} bytes)`);
      if (this.settings.copy) await this.settings.copy(result.file, result.name);
      return result;
    } catch (error) {
      const message = plainFailure(error, dir);
      this.log(`Backup failed: ${message}`);
      try {
        fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
        fs.writeFileSync(path.join(dir, FAILURE_FILE), JSON.stringify({ at: this.now(), message }), {
          mode: 0o600,
        });
      } catch {
        // A full disk may refuse even this; the log line and the thrown error remain.
      }
      throw error;
    } finally {
      this.running = undefined;
    }
  }

  /**
   * Starts a backup in the background ("Back up now"); its outcome is in `status()`.
   * @throws BackupRunningError when one is already running here.
   */
  start(reason: string): void {
    if (this.running) throw new BackupRunningError();
    this.run(reason).catch(() => undefined);
  }

  /**
   * Runs the scheduled backup when a time of the schedule fell in the last BACKUP_CHECK_MS
   * (called once per cluster per check by the periodic job, so one instance runs each).
   * @returns whether a backup was taken.
   */
  async runIfDue(): Promise<boolean> {
    if (!this.settings.schedule || this.running) return false;
    const now = this.now();
    const previous = CronExpressionParser.parse(this.settings.schedule, { currentDate: new Date(now) })
      .prev()
      .getTime();
    if (previous <= now - BACKUP_CHECK_MS) return false;
    await this.run("scheduled").catch(() => undefined);
    return true;
  }

  /**
   * The archive named `name` for download, or undefined: only a name of ARCHIVE_NAME (no path,
   * no temporary file) that is a complete archive of BACKUP_DIR.
   */
  archive(name: string): { file: string; size: number } | undefined {
    if (!parseArchiveName(name) || path.basename(name) !== name) return undefined;
    const file = path.join(this.settings.dir, name);
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    return stat?.isFile() ? { file, size: stat.size } : undefined;
  }
}
