// The composition root's backups: the service over BACKUP_DIR, with the S3 copy when BACKUP_S3_PREFIX is set.
import type { AppConfig } from "../env";
import { BackupsService } from "../modules/backups/backups.service";
import type { BackupSource } from "../modules/backups/create-backup";
import { S3Storage } from "../providers/storage/s3";

/** What a backup of this server copies: its database, DATA_DIR's secrets, and the content folder on local disk. */
export function backupSource(config: AppConfig): BackupSource {
  return {
    databaseUrl: config.DATABASE_URL,
    dataDir: config.dataDir,
    contentDir: config.s3 ? undefined : config.contentDir,
  };
}

/** The backups service of this process (BACKUP_DIR, BACKUP_KEEP, BACKUP_SCHEDULE, BACKUP_PASSPHRASE, BACKUP_S3_PREFIX). */
export function buildBackups(config: AppConfig, log: (line: string) => void): BackupsService {
  const prefix = config.BACKUP_S3_PREFIX.replace(/^\/+|\/+$/g, "");
  const bucket = config.s3 && prefix ? new S3Storage({ ...config.s3, prefix }) : undefined;
  return new BackupsService(
    {
      source: backupSource(config),
      dir: config.backupDir,
      passphrase: config.BACKUP_PASSPHRASE,
      keep: config.BACKUP_KEEP,
      schedule: config.backupSchedule,
      copy: bucket ? (file, name) => bucket.putFile(name, file) : undefined,
    },
    log,
  );
}
