// `npm run restore -- FILE [--force]`: restores a backup archive into the server's (stopped) DATABASE_URL / DATA_DIR.
import { backupSource } from "../container/backups";
import { restoreBackup } from "../modules/backups/restore-backup";
import { configOrExit } from "./cli-config";

const USAGE =
  "Usage: npm run restore -- <archive> [--force]   (--force replaces data already there, after backing it up)";

/** Reads the configuration as the server does and restores the archive; exit 0 restored, 1 refused or failed, 2 usage. */
async function runRestore(argv: string[]): Promise<void> {
  const force = argv.includes("--force");
  const files = argv.filter((arg) => arg !== "--force");
  if (files.length !== 1 || files[0]!.startsWith("-")) {
    console.error(USAGE);
    process.exit(2);
  }
  const config = configOrExit(2);
  try {
    const result = await restoreBackup(files[0]!, backupSource(config), {
      passphrase: config.BACKUP_PASSPHRASE,
      force,
      backupDir: config.backupDir,
      log: (line) => console.log(line),
    });
    const tables = Object.keys(result.manifest.database.rowCounts).length;
    console.log(
      `Restored the backup of ${result.manifest.createdAt} (version ${result.manifest.version}): ${tables} tables, ${result.files} stored files. Start the server with npm start.`,
    );
  } catch (error) {
    console.error(`Restore refused: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}

await runRestore(process.argv.slice(2));
