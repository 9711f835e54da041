import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { call, describeEachDatabase } from "../../testing/api";
import { startMailCatcher } from "../../testing/mail";
import { createTestApp, type TestApp } from "../../testing/server";

describeEachDatabase("password recovery by e-mail", (dialect) => {
  let t: TestApp;
  let mail: Awaited<ReturnType<typeof startMailCatcher>>;
  beforeAll(async () => {
    mail = await startMailCatcher();
    t = await createTestApp({
      dialect,
      env: { SMTP_URL: mail.smtpUrl, PUBLIC_URL: "http://companion.test" },
    });
  });
  afterAll(async () => {
    await t?.dispose();
    await mail?.close();
  });

  async function member(password: string) {
    const email = `m-${randomUUID().slice(0, 8)}@example.com`;
    const user = await t.auth.createAccount({ email, password, fullName: "Mia Member", planName: "Free" });
    return { email, user };
  }
  const login = (email: string, password: string) =>
    call(t.app, "POST", "/api/auth/login", { form: { email, password } });
  const reset = (code: string, npassword: string, rtpassword = npassword) =>
    t.app.inject({
      method: "PATCH",
      url: "/api/users/change-password",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ npassword, rtpassword, code }).toString(),
    });
  async function requestCode(email: string): Promise<string> {
    const res = await call(t.app, "POST", "/api/auth/forgot-password", { form: { email } });
    expect(res.body.success).toBe(1);
    const message = await mail.waitFor((m) => m.to === email && m.subject === "Reset your password");
    const link = /http:\/\/companion\.test\/reset-password\/([\w-]+)/.exec(message.text);
    expect(link).not.toBeNull();
    return link![1]!;
  }

  it("mails a reset link over SMTP; the new password works and every old session ends", async () => {
    const { email } = await member("old-password-1");
    const session = await login(email, "old-password-1");
    const oldToken = (session.body.data as { token: string }).token;
    const code = await requestCode(email);
    const res = await reset(code, "new-password-2");
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ success: 1, page: "/login" });
    expect((await login(email, "old-password-1")).body.success).toBe(0);
    expect((await login(email, "new-password-2")).body.success).toBe(1);
    expect((await call(t.app, "GET", "/api/characters/selection", { token: oldToken })).status).toBe(401);
  });

  it("accepts a code once, and never for another password after it is used", async () => {
    const { email } = await member("old-password-1");
    const code = await requestCode(email);
    const [a, b] = await Promise.all([reset(code, "first-new-pass"), reset(code, "second-new-pass")]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 400]);
    const replay = await reset(code, "third-new-pass");
    expect(replay.statusCode).toBe(400);
    expect(replay.json().message).toBe(
      "This reset link is invalid or has expired. Please ask for a new one.",
    );
  });

  it("refuses an expired code, a made-up code and mismatched passwords", async () => {
    const { email, user } = await member("old-password-1");
    const code = await requestCode(email);
    const mismatch = await reset(code, "new-password-2", "new-password-3");
    expect(mismatch.json()).toEqual({
      success: 0,
      message: "New and Confirm password do not match.",
      code: "bad_request",
    });
    await t.db.db
      .updateTable("password_resets")
      .set({ expires_at: Date.now() - 1 })
      .where("user_id", "=", user.id)
      .execute();
    expect((await reset(code, "new-password-2")).statusCode).toBe(400);
    expect((await reset("x".repeat(43), "new-password-2")).statusCode).toBe(400);
    expect((await login(email, "old-password-1")).body.success).toBe(1);
  });

  it("only the newest link works, and it is bound to its own account", async () => {
    const a = await member("pass-aaaa-1");
    const b = await member("pass-bbbb-1");
    const first = await requestCode(a.email);
    mail.messages.length = 0;
    const second = await requestCode(a.email);
    expect((await reset(first, "changed-pass-1")).statusCode).toBe(400);
    expect((await reset(second, "changed-pass-1")).statusCode).toBe(200);
    expect((await login(a.email, "changed-pass-1")).body.success).toBe(1);
    expect((await login(b.email, "changed-pass-1")).body.success).toBe(0);
    expect((await login(b.email, "pass-bbbb-1")).body.success).toBe(1);
  });

  it("answers the same for unknown addresses and sends them nothing", async () => {
    const { email } = await member("old-password-1");
    const known = await call(t.app, "POST", "/api/auth/forgot-password", { form: { email } });
    const unknown = await call(t.app, "POST", "/api/auth/forgot-password", {
      form: { email: "nobody@example.com" },
    });
    expect(unknown.status).toBe(known.status);
    expect(unknown.body).toEqual(known.body);
    await mail.waitFor((m) => m.to === email);
    await new Promise((r) => setTimeout(r, 200));
    expect(mail.messages.some((m) => m.to === "nobody@example.com")).toBe(false);
    const bad = await call(t.app, "POST", "/api/auth/forgot-password", { form: { email: "not-an-address" } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("The e-mail address is not valid.");
  });
});

describeEachDatabase("rate limits on sign-in and recovery", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    // The free subscription is offered (its video configured), so its limit is reached.
    t = await createTestApp({ dialect, env: { RATE_LIMIT_ENABLED: "1", FREE_SUBSCRIBE_VIDEO_ID: "vid123" } });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it("answers 429 with a clear message after 10 wrong passwords for one account, not for others", async () => {
    const email = "victim@example.com";
    await t.auth.createAccount({ email, password: "right-password", fullName: "", planName: "Free" });
    for (let i = 0; i < 10; i++) {
      const res = await call(t.app, "POST", "/api/auth/login", { form: { email, password: `guess-${i}` } });
      expect(res.status).toBe(200);
    }
    const blocked = await call(t.app, "POST", "/api/auth/login", {
      form: { email, password: "right-password" },
    });
    expect(blocked.status).toBe(429);
    expect(blocked.body.success).toBe(0);
    expect(blocked.body.message).toMatch(
      /^Too many sign-in attempts for this account\. Please wait \d+ minutes? and try again\.$/,
    );
    const other = await call(t.app, "POST", "/api/auth/login", {
      form: { email: "other@example.com", password: "x" },
    });
    expect(other.status).toBe(200);
  });

  it("limits contact messages, free-subscription requests and device logins", async () => {
    const burst = async (n: number, url: string, form: () => Record<string, string>) => {
      const statuses: number[] = [];
      for (let i = 0; i < n; i++) statuses.push((await call(t.app, "POST", url, { form: form() })).status);
      return statuses;
    };
    const contact = await burst(6, "/api/contact", () => ({
      name: "A",
      email: "a@example.com",
      subject: "s",
      message: "m",
    }));
    expect(contact).toEqual([200, 200, 200, 200, 200, 429]);
    const subscribe = await burst(6, "/api/users/free/subscribe/process", () => ({
      email: "sub@example.com",
    }));
    expect(subscribe).toEqual([200, 200, 200, 200, 200, 429]);
    const device = await burst(21, "/api/auth/device-login", () => ({ id: "x".repeat(43) }));
    expect(device.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(device[20]).toBe(429);
  });

  it("limits forgot-password requests", async () => {
    const statuses = [];
    for (let i = 0; i < 7; i++) {
      statuses.push(
        (await call(t.app, "POST", "/api/auth/forgot-password", { form: { email: "a@example.com" } })).status,
      );
    }
    expect(statuses.slice(0, 5)).toEqual([200, 200, 200, 200, 200]);
    expect(statuses.slice(5)).toEqual([429, 429]);
  });
});
