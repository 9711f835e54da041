// `npm run users -- <command>`: manage accounts offline, on the server's DATABASE_URL / DATA_DIR.
import { configOrExit } from "./cli-config";
import { EXIT, main, type Output } from "./users-commands";

/** Reads the configuration as the server does and runs the command; the exit code says how it went. */
async function runUsers(): Promise<void> {
  const io: Output = { out: (line) => console.log(line), err: (line) => console.error(line) };
  const config = configOrExit(EXIT.usage);
  process.exitCode = await main(process.argv.slice(2), config, io);
}

await runUsers();
