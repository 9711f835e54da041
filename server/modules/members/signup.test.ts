// Tests of sign-up by e-mail code in each REGISTRATION mode, with invitations (product.md §2 "Sign-up").
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import PostalMime from "postal-mime";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { call, describeEachDatabase } from "../../testing/api";
import { startMailCatcher } from "../../testing/mail";
import { createTestApp, type TestApp } from "../../testing/server";

type Catcher = Awaited<ReturnType<typeof startMailCatcher>>;

/** Helpers on one app: sign-up calls, the mailed code, an admin's invitation. */
function helpers(get: () => { t: TestApp; mail: Catcher }) {
  const start = (email: string, invite?: string) =>
    call(get().t.app, "POST", "/api/auth/signup/start", { form: { email, ...(invite ? { invite } : {}) } });
  const finish = (email: string, code: string, invite?: string) =>
    call(get().t.app, "POST", "/api/auth/signup/finish", {
      form: { email, code, password: "fresh-password-1", name: "Nora New", ...(invite ? { invite } : {}) },
    });
  const codeFor = async (email: string) => {
    const message = await get().mail.waitFor(
      (m) => m.to === email && m.subject.startsWith("Your sign-up code"),
    );
    return /\b(\d{6})\b/.exec(message.text)![1]!;
  };
  const invite = async (email?: string) => {
    const { t } = get();
    const admin =
      (await t.db.db.selectFrom("users").selectAll().where("role", "=", "admin").executeTakeFirst()) ??
      (
        await t.accounts.members.add({
          email: "admin@example.com",
          password: "admin-password-1",
          admin: true,
        })
      ).user;
    const view = await t.accounts.invitations.create(admin, { email, days: 2 });
    return { ...view, admin, token: decodeURIComponent(view.link.split("invite=")[1]!) };
  };
  return { start, finish, codeFor, invite };
}

const fresh = () => `new-${randomUUID().slice(0, 8)}@example.com`;

for (const mode of ["closed", "invite", "open"] as const) {
  describeEachDatabase(`sign-up with REGISTRATION=${mode}`, (dialect) => {
    let t: TestApp;
    let mail: Catcher;
    beforeAll(async () => {
      mail = await startMailCatcher();
      t = await createTestApp({ dialect, env: { SMTP_URL: mail.smtpUrl, REGISTRATION: mode } });
    });
    afterAll(async () => {
      await t?.dispose();
      await mail?.close();
    });
    const h = helpers(() => ({ t, mail }));

    it("tells the mode", async () => {
      expect((await call(t.app, "GET", "/api/auth/registration")).body.data).toEqual({ mode });
    });

    it(
      mode === "open" ? "signs up without an invitation" : "refuses a sign-up without an invitation",
      async () => {
        const email = fresh();
        const res = await h.start(email);
        if (mode !== "open") {
          expect(res.status).toBe(403);
          expect(res.body.code).toBe("registration_closed");
          return;
        }
        expect(res.body.success).toBe(1);
        const done = await h.finish(email, await h.codeFor(email));
        expect(done.body).toMatchObject({ success: 1, data: { user: { name: "Nora New", isAdmin: false } } });
        const login = await call(t.app, "POST", "/api/auth/login", {
          form: { email, password: "fresh-password-1" },
        });
        expect(login.body.success).toBe(1);
      },
    );

    it("signs up with an invitation once; a revoked one is refused", async () => {
      const email = fresh();
      const invitation = await h.invite();
      expect((await h.start(email, invitation.token)).body.success).toBe(1);
      const code = await h.codeFor(email);
      expect((await h.finish(email, code, invitation.token)).body.success).toBe(1);
      const other = fresh();
      const reused = await h.start(other, invitation.token);
      expect(reused.body).toMatchObject({ success: 0, code: "invitation_invalid" });

      const revoked = await h.invite();
      await t.accounts.invitations.revoke(revoked.admin, revoked.id);
      expect((await h.start(fresh(), revoked.token)).body.code).toBe("invitation_invalid");
      const forged = `${revoked.id}.AAAA${revoked.token.slice(-20)}`;
      expect((await h.start(fresh(), forged)).body.code).toBe("invitation_invalid");
    });

    it("holds an invitation to its e-mail", async () => {
      const email = fresh();
      const locked = await h.invite(email);
      const wrong = await h.start(fresh(), locked.token);
      expect(wrong.body).toMatchObject({ success: 0, code: "invitation_invalid" });
      expect((await h.start(email.toUpperCase(), locked.token)).body.success).toBe(1);
      expect((await h.finish(email, await h.codeFor(email), locked.token)).body.success).toBe(1);
    });
  });
}

describe("sign-up codes", () => {
  let t: TestApp;
  let mail: Catcher;
  beforeAll(async () => {
    mail = await startMailCatcher();
    t = await createTestApp({ env: { SMTP_URL: mail.smtpUrl, REGISTRATION: "open" } });
  });
  afterAll(async () => {
    await t?.dispose();
    await mail?.close();
  });
  const h = helpers(() => ({ t, mail }));

  it("answers the same for an e-mail with an account, which gets a mail saying so", async () => {
    await t.accounts.members.add({ email: "known@example.com", password: "known-password-1" });
    const known = await h.start("known@example.com");
    const unknown = await h.start(fresh());
    expect(known.status).toBe(unknown.status);
    expect(known.body).toEqual(unknown.body);
    const message = await mail.waitFor((m) => m.to === "known@example.com");
    expect(message.subject).toBe("You already have an account");
    expect(message.text).not.toMatch(/\d{6}/);
  });

  it("works once, stores only a hash, and stops after a new code is sent", async () => {
    const email = fresh();
    await h.start(email);
    const first = await h.codeFor(email);
    const row = await t.db.db
      .selectFrom("signup_codes")
      .selectAll()
      .where("email", "=", email)
      .executeTakeFirst();
    expect(row?.code_hash).not.toContain(first);
    mail.messages.length = 0;
    await h.start(email);
    const second = await h.codeFor(email);
    if (second !== first) expect((await h.finish(email, first)).body.code).toBe("signup_code");
    expect((await h.finish(email, second)).body.success).toBe(1);
    expect((await h.finish(email, second)).body.code).toBe("signup_code");
  });

  it("refuses an expired code", async () => {
    const email = fresh();
    await h.start(email);
    const code = await h.codeFor(email);
    await t.db.db
      .updateTable("signup_codes")
      .set({ expires_at: Date.now() - 1 })
      .where("email", "=", email)
      .execute();
    expect((await h.finish(email, code)).body).toMatchObject({ success: 0, code: "signup_code" });
  });
});

describe("the sign-up code and the server log", () => {
  it("is read in the outbox's .eml file only: the logged line names the recipient and subject, never the code", async () => {
    const lines: string[] = [];
    const spy = vi.spyOn(console, "log").mockImplementation((line: unknown) => void lines.push(String(line)));
    // LOG_LEVEL above silent, no SMTP_URL: the outbox mailer logs each mail's recipient and subject.
    const t = await createTestApp({ env: { REGISTRATION: "open", LOG_LEVEL: "warn" } });
    try {
      const email = fresh();
      expect((await call(t.app, "POST", "/api/auth/signup/start", { form: { email } })).body.success).toBe(1);
      await t.jobs.idle();
      const outbox = path.join(t.dataDir, "outbox");
      const file = fs.readdirSync(outbox).find((f) => f.endsWith(`-${email}.eml`));
      const mail = await PostalMime.parse(fs.readFileSync(path.join(outbox, file!)));
      const code = /\b(\d{6})\b/.exec(mail.text ?? "")![1]!;
      expect(lines.filter((l) => l.includes(email))).toEqual([
        expect.stringMatching(/^Mail to .*: "Your sign-up code" written to /),
      ]);
      expect(lines.join("\n")).not.toContain(code);
    } finally {
      spy.mockRestore();
      await t.dispose();
    }
  });
});
