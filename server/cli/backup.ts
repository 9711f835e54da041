// `npm run backup`: writes one backup archive of the server's DATABASE_URL / DATA_DIR into BACKUP_DIR (the server may be running); its path is the last line printed.
import { backupSource } from "../container/backups";
import { plainFailure } from "../modules/backups/backups.service";
import { createBackup } from "../modules/backups/create-backup";
import { configOrExit } from "./cli-config";

/** Reads the configuration as the server does, writes the archive, prints its path last; exit 1 on failure. */
async function runBackup(): Promise<void> {
  const config = configOrExit(2);
  try {
    const result = await createBackup(backupSource(config), {
      dir: config.backupDir,
      passphrase: config.BACKUP_PASSPHRASE,
      keep: config.BACKUP_KEEP,
      reason: "cli",
    });
    const tables = Object.keys(result.manifest.database.rowCounts).length;
    const files = Object.keys(result.manifest.files).filter((name) => name.startsWith("content/")).length;
    console.log(`Backed up ${tables} tables and ${files} stored files (${result.size} bytes).`);
    console.log(result.file);
  } catch (error) {
    console.error(plainFailure(error, config.backupDir));
    process.exit(1);
  }
}

await runBackup();
