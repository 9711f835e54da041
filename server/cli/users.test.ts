// Tests of `npm run users` (server/cli/users.ts): each command, its output and exit codes.
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import PostalMime from "postal-mime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../app";
import type { AppConfig } from "../env";
import { call } from "../testing/api";
import { testConfig } from "../testing/server";
import { main } from "./users-commands";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");

describe("npm run users", () => {
  let dataDir: string;
  let config: AppConfig;
  beforeAll(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "companion-users-"));
    config = testConfig(dataDir, "", { PUBLIC_URL: "http://cli.test" });
  });
  afterAll(() => {
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function users(...args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(args, config, { out: (l) => out.push(l), err: (l) => err.push(l) });
    return { code, out: out.join("\n"), err: err.join("\n") };
  }

  it("prints a set-up link while no admin exists", async () => {
    const res = await users("setup-link");
    expect(res.code).toBe(0);
    expect(res.out).toMatch(/^Set up the owner account: http:\/\/cli\.test\/setup\/[\w-]{40,}$/);
  });

  it("adds accounts, with a generated password printed once, and refuses a taken e-mail", async () => {
    const given = await users("add", "Ann@Example.com", "--name", "Ann", "--password", "ann-password-1");
    expect(given).toMatchObject({ code: 0, out: "Created ann@example.com." });
    const generated = await users("add", "bob@example.com", "--admin");
    expect(generated.code).toBe(0);
    expect(generated.out).toMatch(
      /^Created bob@example\.com \(admin\)\.\nPassword \(shown once\): [\w-]{16}$/,
    );
    const taken = await users("add", "ann@example.com");
    expect(taken).toMatchObject({ code: 1, err: "An account with this e-mail already exists." });
    expect((await users("add", "not-an-address")).code).toBe(2);
    expect((await users("add", "c@example.com", "--password", "short")).code).toBe(2);
  });

  it("lists accounts, gives and takes the admin role", async () => {
    const list = await users("list");
    expect(list.out).toMatch(/^ann@example\.com\tAnn\t-\t/m);
    expect(list.out).toMatch(/^bob@example\.com\tbob\tadmin\t/m);
    expect((await users("admin", "ann@example.com")).out).toBe(
      "ann@example.com is now an admin: open /admin.",
    );
    expect((await users("list")).out).toMatch(/^ann@example\.com\tAnn\tadmin\t/m);
    expect((await users("admin", "ann@example.com", "--revoke")).code).toBe(0);
    expect((await users("list")).out).toMatch(/^ann@example\.com\tAnn\t-\t/m);
    expect(await users("admin", "nobody@example.com")).toMatchObject({
      code: 1,
      err: expect.stringContaining("No account"),
    });
    // an admin exists now: no set-up link
    expect((await users("setup-link")).code).toBe(1);
  });

  it("sets a new password, printed once, and ends the account's sessions", async () => {
    const app = await buildApp(config);
    try {
      const login = (password: string) =>
        call(app.app, "POST", "/api/auth/login", { form: { email: "ann@example.com", password } });
      const token = ((await login("ann-password-1")).body.data as { token: string }).token;
      const res = await users("password", "ann@example.com");
      expect(res.code).toBe(0);
      const password = /shown once\): ([\w-]{16})/.exec(res.out)![1]!;
      expect((await login("ann-password-1")).body.success).toBe(0);
      expect((await login(password)).body.success).toBe(1);
      expect((await call(app.app, "GET", "/api/characters/selection", { token })).status).toBe(401);
      expect((await users("password", "nobody@example.com")).code).toBe(1);
    } finally {
      await app.close();
    }
  });

  it("invite prints a link that signs the e-mail up, mails it there, and checks its options", async () => {
    const res = await users("invite", "--email", "Friend@Example.com", "--days", "3");
    expect(res.code).toBe(0);
    expect(res.out).toMatch(/^Invitation for friend@example\.com \(mailed there\), 3 days, one use:$/m);
    const link = /^(http:\/\/cli\.test\/signup\?invite=\S+)$/m.exec(res.out)?.[1];
    expect(link).toBeDefined();
    const token = decodeURIComponent(link!.split("invite=")[1]!);

    // The mail (the outbox, no SMTP here) carries the same link.
    const outbox = path.join(dataDir, "outbox");
    const file = fs.readdirSync(outbox).find((f) => f.endsWith("-friend@example.com.eml"));
    expect(fs.readFileSync(path.join(outbox, file!), "utf8")).toContain(
      "You are invited to create an account",
    );
    expect((await PostalMime.parse(fs.readFileSync(path.join(outbox, file!)))).text).toContain(link);

    // The accounts module's invitation: REGISTRATION is closed, yet it admits that e-mail only.
    const app = await buildApp(config);
    try {
      const start = (email: string) =>
        call(app.app, "POST", "/api/auth/signup/start", { form: { email, invite: token } });
      expect((await start("other@example.com")).body.code).toBe("invitation_invalid");
      expect((await start("friend@example.com")).body.success).toBe(1);
      const audit = await app.db.db.selectFrom("admin_audit").selectAll().execute();
      expect(audit.find((a) => a.action === "invitation.create")?.admin_email).toBe("npm run users");
    } finally {
      await app.close();
    }

    const open = await users("invite");
    expect(open.code).toBe(0);
    expect(open.out).toMatch(
      /^Invitation for anyone, 7 days, one use:\nhttp:\/\/cli\.test\/signup\?invite=\S+$/,
    );
    for (const bad of [
      ["--days", "0"],
      ["--days", "31"],
      ["--days", "two"],
      ["--email", "not-an-address"],
      ["--email"],
    ])
      expect((await users("invite", ...bad)).code, bad.join(" ")).toBe(2);
  });

  it("answers usage errors with 2, from the command line too", async () => {
    expect((await users()).code).toBe(2);
    expect((await users("frobnicate")).code).toBe(2);
    const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", LLM_PROVIDER: "none" };
    const listed = await run("npx", ["tsx", "server/cli/users.ts", "list"], { cwd: ROOT, env });
    expect(listed.stdout).toContain("bob@example.com");
    const usage = await run("npx", ["tsx", "server/cli/users.ts", "admin"], { cwd: ROOT, env }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(usage).toMatchObject({ code: 2, stderr: expect.stringContaining("Usage: npm run users") });
  }, 60_000);
});
