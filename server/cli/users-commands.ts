// The commands of `npm run users` (server/cli/users.ts): add, list, admin, password, setup-link.
import { checkText, RULES } from "../../common/validation";
import { openDatabase } from "../db/index";
import { migrateToLatest } from "../db/migrations";
import { seed } from "../db/seed";
import type { AppConfig } from "../env";
import { AppError } from "../errors";
import { AccountsRepo } from "../modules/accounts/accounts.repo";
import { MembersService } from "../modules/accounts/members.service";
import { SetupService } from "../modules/accounts/setup.service";
import { AuthRepo } from "../modules/auth/auth.repo";
import { AuthService } from "../modules/auth/auth.service";
import { createStorage } from "../providers/storage/index";

/** Exit codes: done, not found or conflict, wrong usage. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

const USAGE = `Usage: npm run users -- <command>
  add <email> [--admin] [--name N] [--password P]   create an account (a password is generated when none is given)
  list                                              list the accounts
  admin <email> [--revoke]                          give (or take back) the admin role
  password <email>                                  set a new random password and end every session
  setup-link                                        print a fresh owner set-up link (while no admin exists)`;

/** Where the commands write: standard output and standard error (tests pass their own). */
export interface Output {
  out: (line: string) => void;
  err: (line: string) => void;
}

interface Parsed {
  command: string;
  positional: string[];
  flags: Map<string, string | true>;
}

/** Splits `args` into the command, its positional arguments and `--flag [value]` options. */
function parse(args: string[]): Parsed {
  const valued = new Set(["--name", "--password"]);
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (valued.has(arg)) flags.set(arg, args[++i] ?? "");
    else if (arg.startsWith("--")) flags.set(arg, true);
    else positional.push(arg);
  }
  return { command: positional.shift() ?? "", positional, flags };
}

/** The e-mail argument, normalised, or the sentence saying what is wrong with it. */
function emailArg(parsed: Parsed): { email: string } | { problem: string } {
  const email = (parsed.positional[0] ?? "").trim().toLowerCase();
  const problem = checkText(RULES.email, email);
  return problem ? { problem } : { email };
}

/** Runs one command with the services on an open database. @returns the exit code. */
async function run(
  parsed: Parsed,
  members: MembersService,
  setup: SetupService,
  io: Output,
): Promise<number> {
  const { command, flags } = parsed;
  if (command === "list") {
    for (const u of await members.list()) {
      const flagsText = [u.role === "admin" ? "admin" : "", u.blocked ? "blocked" : ""]
        .filter(Boolean)
        .join(",");
      io.out(`${u.email}\t${u.full_name}\t${flagsText || "-"}\t${new Date(u.created_at).toISOString()}`);
    }
    return EXIT.ok;
  }
  if (command === "setup-link") {
    const line = await setup.startupLine();
    if (!line) {
      io.err("An admin account exists already: no set-up link. Use `add <email> --admin` instead.");
      return EXIT.failed;
    }
    io.out(line);
    return EXIT.ok;
  }
  const arg = emailArg(parsed);
  if ("problem" in arg) {
    io.err(`${arg.problem}\n${USAGE}`);
    return EXIT.usage;
  }
  const { email } = arg;
  if (command === "add") {
    const password = flags.get("--password");
    const name = flags.get("--name");
    const problem = typeof password === "string" ? checkText(RULES.newPassword, password) : null;
    if (problem || password === true || name === true) {
      io.err(`${problem ?? "--name and --password need a value."}\n${USAGE}`);
      return EXIT.usage;
    }
    const admin = flags.has("--admin");
    const added = await members.add({ email, name, password, admin });
    io.out(`Created ${email}${admin ? " (admin)" : ""}.`);
    if (added.generatedPassword) io.out(`Password (shown once): ${added.generatedPassword}`);
    return EXIT.ok;
  }
  if (command === "admin") {
    const revoke = flags.has("--revoke");
    await members.setAdmin(email, !revoke);
    io.out(revoke ? `${email} is no longer an admin.` : `${email} is now an admin: open /admin.`);
    return EXIT.ok;
  }
  if (command === "password") {
    const password = await members.newPassword(email);
    io.out(`New password for ${email} (shown once): ${password}`);
    io.out("Every session and device of the account has been signed out.");
    return EXIT.ok;
  }
  io.err(USAGE);
  return EXIT.usage;
}

/**
 * Runs `npm run users -- <args>` against the database of `config` (migrated and seeded first,
 * as the server does at start). @returns the exit code: 0 done, 1 not found or conflict, 2 usage.
 */
export async function main(args: string[], config: AppConfig, io: Output): Promise<number> {
  const parsed = parse(args);
  const known = ["add", "list", "admin", "password", "setup-link"];
  if (!known.includes(parsed.command)) {
    io.err(USAGE);
    return EXIT.usage;
  }
  const { db } = openDatabase(config.DATABASE_URL, config.dataDir);
  try {
    await migrateToLatest(db as never);
    const storage = createStorage(config);
    await seed(db, storage);
    const auth = new AuthService(new AuthRepo(db), storage, {
      demoLoginId: config.DEMO_LOGIN_ID,
      demoTtlMs: config.DEMO_USER_TTL_HOURS * 3_600_000,
      sessionMaxAgeMs: config.SESSION_MAX_AGE_DAYS * 86_400_000,
    });
    const repo = new AccountsRepo(db);
    const members = new MembersService(repo, auth);
    return await run(parsed, members, new SetupService(repo, members, config.publicUrl), io);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    io.err(error.message);
    return EXIT.failed;
  } finally {
    await db.destroy();
  }
}
