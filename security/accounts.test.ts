// Attack tests of self-hosted accounts: admin-only account routes, stale set-up links, code guessing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MEMBERS_ADMIN_ROUTES } from "../server/modules/members/members.routes";
import { call, demoLogin } from "../server/testing/api";
import { startMailCatcher } from "../server/testing/mail";
import { createTestApp, type TestApp } from "../server/testing/server";

describe("self-hosted accounts resist misuse", () => {
  let t: TestApp;
  let mail: Awaited<ReturnType<typeof startMailCatcher>>;
  let member: string;
  beforeAll(async () => {
    mail = await startMailCatcher();
    t = await createTestApp({
      env: { SMTP_URL: mail.smtpUrl, REGISTRATION: "open", RATE_LIMIT_ENABLED: "1" },
    });
    const { user } = await t.accounts.members.add({
      email: "member@example.com",
      password: "member-password-1",
    });
    member = (await t.auth.signInAs(user)).token;
  });
  afterAll(async () => {
    await t?.dispose();
    await mail?.close();
  });

  it("lets no one but an admin create users or invitations", async () => {
    const guest = (await demoLogin(t.app)).token;
    const id = "00000000-0000-4000-8000-000000000000";
    for (const route of MEMBERS_ADMIN_ROUTES) {
      const url = route.url.replace(":id", id);
      const form = { email: "mallory@example.com", password: "mallory-password-1", admin: "1", days: "30" };
      for (const token of [member, guest]) {
        const res = await call(t.app, route.method, url, { token, form });
        expect(res.status, `${route.method} ${url}`).toBe(403);
        expect(res.body.code).toBe("not_admin");
      }
      expect((await call(t.app, route.method, url, { form })).status).toBe(401);
    }
    const made = await t.db.db
      .selectFrom("users")
      .select("id")
      .where("email", "=", "mallory@example.com")
      .execute();
    expect(made).toEqual([]);
    expect(await t.db.db.selectFrom("invitations").selectAll().execute()).toEqual([]);
  });

  it("refuses the set-up route once an admin exists, even with a valid old token", async () => {
    const token = (await t.accounts.setup.freshLink()).split("/setup/")[1]!;
    expect((await call(t.app, "GET", `/api/setup/${token}`)).body.data).toEqual({ valid: true });
    await t.accounts.members.add({ email: "owner@example.com", password: "owner-password-1", admin: true });
    expect((await call(t.app, "GET", `/api/setup/${token}`)).body.data).toEqual({ valid: false });
    const res = await call(t.app, "POST", "/api/setup", {
      form: { token, email: "intruder@example.com", password: "intruder-password-1" },
    });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ success: 0, code: "setup_token" });
    expect(
      await t.db.db.selectFrom("users").select("id").where("email", "=", "intruder@example.com").execute(),
    ).toEqual([]);
    // no new link once an admin exists, and the old ones are dropped
    expect(await t.accounts.setup.startupPath()).toBeUndefined();
    expect(await t.db.db.selectFrom("setup_tokens").selectAll().execute()).toEqual([]);
  });

  it("bounds guessing a sign-up code: 5 tries per code, then even the right code is refused", async () => {
    const email = "guess@example.com";
    const start = await call(t.app, "POST", "/api/auth/signup/start", { form: { email } });
    expect(start.body.success).toBe(1);
    const message = await mail.waitFor((m) => m.to === email);
    const code = /\b(\d{6})\b/.exec(message.text)![1]!;
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, "0");
    const finish = (c: string) =>
      call(t.app, "POST", "/api/auth/signup/finish", {
        form: { email, code: c, password: "guess-password-1", name: "Guess" },
      });
    const tries = await Promise.all(Array.from({ length: 5 }, () => finish(wrong)));
    expect(tries.every((r) => r.body.code === "signup_code")).toBe(true);
    const right = await finish(code);
    expect(right.body).toMatchObject({ success: 0, code: "signup_code" });
    expect(await t.db.db.selectFrom("users").select("id").where("email", "=", email).execute()).toEqual([]);
  });

  it("limits sign-up attempts per e-mail across addresses", async () => {
    const email = "flood@example.com";
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await t.app.inject({
        method: "POST",
        url: "/api/auth/signup/finish",
        remoteAddress: `198.51.100.${i + 1}`,
        headers: { "content-type": "application/x-www-form-urlencoded" },
        payload: new URLSearchParams({
          email,
          code: "123456",
          password: "flood-password-1",
          name: "F",
        }).toString(),
      });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 10).every((s) => s === 400)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });
});
