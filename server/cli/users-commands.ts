// The commands of `npm run users` (server/cli/users.ts): add, list, admin, password, setup-link, invite.
import { checkText, RULES, type TextRule } from "../../common/validation";
import { buildAuth, buildMembers } from "../container/people";
import { openDatabase } from "../db/index";
import { migrateToLatest } from "../db/migrations";
import { seed } from "../db/seed";
import type { AppConfig } from "../env";
import { AppError } from "../errors";
import { english } from "../i18n/messages";
import { INVITATION_DAYS, type InvitationsService, type Inviter } from "../modules/members/invitations";
import type { MembersService } from "../modules/members/members.service";
import type { SetupService } from "../modules/members/setup.service";
import { createMailer } from "../providers/mail/index";
import { createStorage } from "../providers/storage/index";
import { reachableOrigins } from "../startup-lines";

/** `checkText` with its sentence in English (the operator's console), or null when the value is fine. */
function englishCheck(rule: TextRule, value: string): string | null {
  const problem = checkText(rule, value);
  return problem === null ? null : english(problem);
}

/** Exit codes: done, not found or conflict, wrong usage. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

const USAGE = `Usage: npm run users -- <command>
  add <email> [--admin] [--name N] [--password P]   create an account (a password is generated when none is given)
  list                                              list the accounts
  admin <email> [--revoke]                          give (or take back) the admin role
  password <email>                                  set a new random password and end every session
  setup-link                                        print a fresh owner set-up link (while no admin exists)
  invite [--email E] [--days N]                     print an invitation link (N days, 1-30, 7 by default); with
                                                    --email only that e-mail may use it, and it is mailed there`;

/** Who the audit log names for an invitation made here. */
const CLI_INVITER: Inviter = { id: "cli", email: "npm run users" };

/** The services the commands use, on the server's database. */
interface Services {
  members: MembersService;
  setup: SetupService;
  invitations: InvitationsService;
  /** Where a browser reaches the server (PUBLIC_URL, else every address it listens on). */
  origins: string[];
}

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
  const valued = new Set(["--name", "--password", "--email", "--days"]);
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
  const problem = englishCheck(RULES.email, email);
  return problem ? { problem } : { email };
}

/**
 * `invite`: makes an invitation (the accounts module's service: audited, mailed to `--email`)
 * and prints its link once per origin the server is reached at. The mailed link starts with
 * PUBLIC_URL, else the first address of this machine another one can reach.
 */
async function invite(parsed: Parsed, services: Services, io: Output): Promise<number> {
  const given = parsed.flags.get("--email");
  const email = typeof given === "string" ? given.trim().toLowerCase() : undefined;
  const daysText = parsed.flags.get("--days") ?? "7";
  const days = typeof daysText === "string" && /^\d+$/.test(daysText) ? Number(daysText) : Number.NaN;
  const emailProblem =
    given === true ? "--email needs a value." : email === undefined ? null : englishCheck(RULES.email, email);
  const problem =
    emailProblem ??
    (days >= INVITATION_DAYS.min && days <= INVITATION_DAYS.max
      ? null
      : "--days is a whole number from 1 to 30.");
  if (problem) {
    io.err(`${problem}\n${USAGE}`);
    return EXIT.usage;
  }
  const { origins } = services;
  const origin = origins.find((o) => !o.startsWith("http://localhost:")) ?? origins[0]!;
  const view = await services.invitations.create(CLI_INVITER, { email, days }, origin);
  const path = view.link.slice(origin.length);
  const lock = view.email ? ` for ${view.email} (mailed there)` : " for anyone";
  io.out(`Invitation${lock}, ${days} day${days === 1 ? "" : "s"}, one use:`);
  for (const each of origins) io.out(`${each}${path}`);
  return EXIT.ok;
}

/** Runs one command with the services on an open database. @returns the exit code. */
async function run(parsed: Parsed, services: Services, io: Output): Promise<number> {
  const { members, setup } = services;
  const { command, flags } = parsed;
  if (command === "invite") return invite(parsed, services, io);
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
    const setupPath = await setup.startupPath();
    if (!setupPath) {
      io.err("An admin account exists already: no set-up link. Use `add <email> --admin` instead.");
      return EXIT.failed;
    }
    for (const origin of services.origins) io.out(`Set up the owner account: ${origin}${setupPath}`);
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
    const problem = typeof password === "string" ? englishCheck(RULES.newPassword, password) : null;
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
  const known = ["add", "list", "admin", "password", "setup-link", "invite"];
  if (!known.includes(parsed.command)) {
    io.err(USAGE);
    return EXIT.usage;
  }
  const { db } = openDatabase(config.DATABASE_URL, config.dataDir);
  try {
    await migrateToLatest(db as never);
    const storage = createStorage(config);
    await seed(db, storage);
    // No guest signs in here.
    const auth = buildAuth(config, db, storage, async () => false);
    const { members, setup, invitations } = buildMembers(config, db, auth, {
      mailer: createMailer(config, io.out),
      logError: (error) =>
        io.err(`The invitation mail could not be sent (${String(error)}); give the link yourself.`),
    });
    const publicUrl = config.PUBLIC_URL ? config.publicUrl : "";
    const services: Services = {
      members,
      setup,
      invitations,
      origins: reachableOrigins({ publicUrl, host: config.HOST, port: config.PORT }),
    };
    return await run(parsed, services, io);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    io.err(error.message);
    return EXIT.failed;
  } finally {
    await db.destroy();
  }
}
