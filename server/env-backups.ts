// The backup settings of the configuration (BACKUP_*): their schema, the rules between them, and the values the server uses.
import path from "node:path";
import { CronExpressionParser } from "cron-parser";
import { z } from "zod";

/** The default schedule of a SQLite install: every day at 03:30 (server time). */
export const DEFAULT_BACKUP_SCHEDULE = "30 3 * * *";

/** The BACKUP_* variables, merged into the configuration's schema (server/env.ts). */
export const backupSettings = {
  /** A cron expression; "auto": daily at 03:30 on SQLite, off on PostgreSQL; "off": never. */
  BACKUP_SCHEDULE: z.string().trim().default("auto"),
  /** Where archives are written; "": DATA_DIR/backups. */
  BACKUP_DIR: z.string().default(""),
  /** How many archives are kept (the newest). */
  BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(7),
  /** "": archives are plain .tar.gz; otherwise they are encrypted (AES-256-GCM) with it. */
  BACKUP_PASSPHRASE: z.string().default(""),
  /** "": no copy; otherwise each archive is also put in the S3 bucket under this prefix. */
  BACKUP_S3_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.\-/]*$/, "letters, digits and _ . - / only")
    .default(""),
};

/** The backup values the server uses, resolved from the settings. */
export interface BackupConfig {
  /** Absolute folder of the archives. */
  backupDir: string;
  /** The cron expression in force; "" when scheduled backups are off. */
  backupSchedule: string;
}

type BackupSettings = { [K in keyof typeof backupSettings]: z.infer<(typeof backupSettings)[K]> };

/** Whether `expression` is a cron expression cron-parser reads. */
function isCron(expression: string): boolean {
  try {
    CronExpressionParser.parse(expression);
    return true;
  } catch {
    return false;
  }
}

/**
 * The rules of the backup settings, as "NAME: what is wrong" lines.
 * @param contentDir the content folder served under /content/ (backups must never be inside it).
 */
export function backupProblems(
  cfg: BackupSettings & { S3_BUCKET: string },
  resolved: BackupConfig,
  contentDir: string,
): string[] {
  const problems: string[] = [];
  if (!["auto", "off", ""].includes(cfg.BACKUP_SCHEDULE) && !isCron(cfg.BACKUP_SCHEDULE)) {
    problems.push(
      `BACKUP_SCHEDULE: "${cfg.BACKUP_SCHEDULE}" is not a cron expression (e.g. "30 3 * * *"), "auto" or "off"`,
    );
  }
  const relative = path.relative(contentDir, resolved.backupDir);
  if (relative === "" || (!relative.startsWith("..") && !path.isAbsolute(relative))) {
    problems.push("BACKUP_DIR: must not be inside the content folder (it is served under /content/)");
  }
  if (cfg.BACKUP_S3_PREFIX && !cfg.S3_BUCKET)
    problems.push("BACKUP_S3_PREFIX: needs S3_BUCKET (the bucket the copies go to)");
  return problems;
}

/** The backup folder and schedule in force, from the settings, DATA_DIR and the database kind. */
export function resolveBackups(
  cfg: BackupSettings & { DATABASE_URL: string },
  dataDir: string,
): BackupConfig {
  const postgres = /^postgres(ql)?:\/\//.test(cfg.DATABASE_URL);
  const schedule = cfg.BACKUP_SCHEDULE;
  return {
    backupDir: cfg.BACKUP_DIR ? path.resolve(cfg.BACKUP_DIR) : path.join(dataDir, "backups"),
    backupSchedule:
      schedule === "off" || schedule === ""
        ? ""
        : schedule === "auto"
          ? postgres
            ? ""
            : DEFAULT_BACKUP_SCHEDULE
          : schedule,
  };
}
