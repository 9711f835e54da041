// `npm run users -- <command>`: manage accounts offline, on the server's DATABASE_URL / DATA_DIR.
import { type AppConfig, loadConfig } from "../env";
import { EXIT, main, type Output } from "./users-commands";

/** Reads the configuration as the server does and runs the command; the exit code says how it went. */
async function runUsers(): Promise<void> {
  const io: Output = { out: (line) => console.log(line), err: (line) => console.error(line) };
  let config: AppConfig;
  try {
    config = loadConfig();
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(EXIT.usage);
  }
  process.exitCode = await main(process.argv.slice(2), config, io);
}

await runUsers();
