import { openDatabase } from "../db/index";
import { migrateToLatest } from "../db/migrations";
import { loadConfig } from "../env";

/**
 * Makes an existing account an admin (the admin console at /admin).
 * Usage: `npm run make-admin -- someone@example.com` (same DATABASE_URL / DATA_DIR as the server).
 * `--revoke` makes the account a normal user again. Exits 1 when there is no such account.
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const revoke = args.includes("--revoke");
  const email = args
    .find((a) => !a.startsWith("--"))
    ?.trim()
    .toLowerCase();
  if (!email) {
    console.error("Usage: npm run make-admin -- <email> [--revoke]");
    process.exit(2);
  }
  const config = loadConfig();
  const { db } = openDatabase(config.DATABASE_URL, config.dataDir);
  try {
    await migrateToLatest(db as never);
    const result = await db
      .updateTable("users")
      .set({ role: revoke ? "user" : "admin" })
      .where("email", "=", email)
      .where("is_demo", "=", 0)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) {
      console.error(
        `No account with the e-mail ${email}. Create it first (e.g. sign up, then run this again).`,
      );
      process.exitCode = 1;
      return;
    }
    console.log(revoke ? `${email} is no longer an admin.` : `${email} is now an admin: open /admin.`);
  } finally {
    await db.destroy();
  }
}

await main();
