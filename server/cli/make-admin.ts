// `npm run make-admin -- <email> [--revoke]`: an alias of `npm run users -- admin <email> [--revoke]`.
import { loadConfig } from "../env";
import { main } from "./users-commands";

/**
 * Makes an existing account an admin (the admin console at /admin); `--revoke` makes it a normal
 * user again. Kept for existing scripts: the same as `npm run users -- admin <email>`
 * (server/cli/users-commands.ts). Exits 1 when there is no such account, 2 on wrong usage.
 */
async function makeAdmin(): Promise<void> {
  const io = { out: (line: string) => console.log(line), err: (line: string) => console.error(line) };
  process.exitCode = await main(["admin", ...process.argv.slice(2)], loadConfig(), io);
}

await makeAdmin();
