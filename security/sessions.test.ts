import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "../server/testing/api";
import { startMailCatcher } from "../server/testing/mail";
import { type ListeningApp, startListening } from "./support/server";

/**
 * And 7, over real HTTP: devices do not outlive the password (a change, a reset
 * and an admin block revoke every token and device of the account), devices are listed and
 * revocable, guests register none; a session has an absolute lifetime past which `extend`
 * refuses and the token no longer authenticates.
 */
describeEachDatabase("sessions and devices end when they must", (dialect) => {
  let server: ListeningApp;
  let mail: Awaited<ReturnType<typeof startMailCatcher>>;
  beforeAll(async () => {
    mail = await startMailCatcher();
    server = await startListening({
      dialect,
      env: { SMTP_URL: mail.smtpUrl, PUBLIC_URL: "http://companion.test", SESSION_MAX_AGE_DAYS: "30" },
    });
  });
  afterAll(async () => {
    await server?.dispose();
    await mail?.close();
  });

  interface Answer {
    status: number;
    body: { success: number; message: string; data?: unknown };
  }
  async function api(
    method: string,
    path: string,
    options: { token?: string; form?: Record<string, string> } = {},
  ): Promise<Answer> {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
      body: options.form ? new URLSearchParams(options.form) : undefined,
    });
    return { status: response.status, body: (await response.json()) as Answer["body"] };
  }

  /** A member with a password, signed in. */
  async function member(password = "first-password-1") {
    const email = `s-${randomUUID().slice(0, 8)}@example.com`;
    const user = await server.auth.createAccount({ email, password, fullName: "Sam", planName: "Free" });
    return { email, password, userId: user.id, token: await login(email, password) };
  }
  async function login(email: string, password: string): Promise<string> {
    const answer = await api("POST", "/api/auth/login", { form: { email, password } });
    expect(answer.body.success).toBe(1);
    return (answer.body.data as { token: string }).token;
  }
  async function registerDevice(token: string, name = "Phone"): Promise<string> {
    const answer = await api("POST", "/api/auth/devices", { token, form: { name } });
    expect(answer.body.success).toBe(1);
    return (answer.body.data as { deviceId: string }).deviceId;
  }
  const deviceLogin = (secret: string) => api("POST", "/api/auth/device-login", { form: { id: secret } });
  const signedIn = async (token: string) => (await api("GET", "/api/users/profile/", { token })).status;

  it("a password change ends every device and every other session, keeping the current one", async () => {
    const owner = await member();
    const other = await login(owner.email, owner.password);
    const device = await registerDevice(owner.token);
    const deviceToken = ((await deviceLogin(device)).body.data as { token: string }).token;
    const changed = await api("PATCH", "/api/users/update-password", {
      token: owner.token,
      form: { cpassword: owner.password, npassword: "second-password-2", rtpassword: "second-password-2" },
    });
    expect(changed.body.success).toBe(1);
    expect((await deviceLogin(device)).body).toEqual({
      success: 0,
      message: "This device is not registered. Please sign in with your e-mail and password.",
      code: "invalid_device",
    });
    expect(await signedIn(deviceToken)).toBe(401);
    expect(await signedIn(other)).toBe(401);
    expect(await signedIn(owner.token)).toBe(200);
  });

  it("a password reset by e-mail ends every device and every session", async () => {
    const owner = await member();
    const device = await registerDevice(owner.token);
    expect((await api("POST", "/api/auth/forgot-password", { form: { email: owner.email } })).status).toBe(
      200,
    );
    const message = await mail.waitFor((m) => m.to === owner.email);
    const code = /\/reset-password\/([\w-]+)/.exec(message.text)![1]!;
    const reset = await api("PATCH", "/api/users/change-password", {
      form: { code, npassword: "reset-password-3", rtpassword: "reset-password-3" },
    });
    expect(reset.body.success).toBe(1);
    expect((await deviceLogin(device)).body.success).toBe(0);
    expect(await signedIn(owner.token)).toBe(401);
  });

  it("an admin block ends every device, which stays revoked after the unblock", async () => {
    const admin = await member();
    await server.db.db.updateTable("users").set({ role: "admin" }).where("id", "=", admin.userId).execute();
    const owner = await member();
    const device = await registerDevice(owner.token);
    const block = (blocked: string) =>
      api("POST", `/api/admin/users/${owner.userId}/block`, { token: admin.token, form: { blocked } });
    expect((await block("1")).body.success).toBe(1);
    expect((await block("0")).body.success).toBe(1);
    expect((await deviceLogin(device)).body.success).toBe(0);
    expect(await signedIn(owner.token)).toBe(401);
  });

  it("lists the user's own devices without their secrets, and revokes one with its sessions", async () => {
    const owner = await member();
    const stranger = await member();
    const phone = await registerDevice(owner.token, "Phone");
    const tablet = await registerDevice(owner.token, "Tablet");
    const phoneToken = ((await deviceLogin(phone)).body.data as { token: string }).token;
    const listed = await api("GET", "/api/auth/devices", { token: owner.token });
    expect(listed.status).toBe(200);
    const devices = listed.body.data as Array<Record<string, unknown>>;
    expect(devices.map((d) => d.name).sort()).toEqual(["Phone", "Tablet"]);
    for (const device of devices) {
      expect(Object.keys(device).sort()).toEqual(["createdAt", "id", "lastUsedAt", "name"]);
    }
    expect(devices.find((d) => d.name === "Phone")?.lastUsedAt).toEqual(expect.any(Number));
    expect(devices.find((d) => d.name === "Tablet")?.lastUsedAt).toBeNull();
    expect(JSON.stringify(listed.body)).not.toContain(phone);
    expect(JSON.stringify(listed.body)).not.toContain(tablet);
    // Nobody else sees them, nor revokes them (404, as for any id that is not theirs).
    expect((await api("GET", "/api/auth/devices", { token: stranger.token })).body.data).toEqual([]);
    const phoneId = devices.find((d) => d.name === "Phone")!.id as string;
    const theirs = await api("DELETE", `/api/auth/devices/?id=${phoneId}`, { token: stranger.token });
    expect(theirs.status).toBe(404);
    expect((await deviceLogin(phone)).body.success).toBe(1);
    expect((await api("DELETE", `/api/auth/devices/?id=${phoneId}`)).status).toBe(401);

    const revoked = await api("DELETE", `/api/auth/devices/?id=${phoneId}`, { token: owner.token });
    expect(revoked.body.success).toBe(1);
    expect((await deviceLogin(phone)).body.success).toBe(0);
    expect(await signedIn(phoneToken)).toBe(401);
    expect((await deviceLogin(tablet)).body.success).toBe(1);
    const left = (await api("GET", "/api/auth/devices", { token: owner.token })).body.data as Array<{
      name: string;
    }>;
    expect(left.map((d) => d.name)).toEqual(["Tablet"]);
    expect((await api("DELETE", `/api/auth/devices/?id=${phoneId}`, { token: owner.token })).status).toBe(
      404,
    );
  });

  it("refuses a device to a guest (demo user)", async () => {
    const demo = await api("POST", "/api/auth/demo-login", { form: { id: "demo" } });
    const token = (demo.body.data as { token: string }).token;
    const answer = await api("POST", "/api/auth/devices", { token, form: { name: "Phone" } });
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({
      success: 0,
      message: "Guest accounts cannot register devices. Please create an account first.",
      code: "demo_device",
    });
    expect((await api("GET", "/api/auth/devices", { token })).body.data).toEqual([]);
  });

  it("refuses to extend a session started 40 days ago, and its token no longer authenticates", async () => {
    const owner = await member();
    const day = 86_400_000;
    /** Moves the start of every session of the owner `ageMs` back. */
    const startedAgo = (ageMs: number) =>
      server.db.db
        .updateTable("auth_tokens")
        .set({ created_at: Date.now() - ageMs })
        .where("user_id", "=", owner.userId)
        .execute();
    await startedAgo(40 * day);
    const extended = await api("POST", "/api/auth/extend", {
      token: owner.token,
      form: { token: owner.token },
    });
    expect(extended.status).toBe(401);
    expect(extended.body).toEqual({
      success: 0,
      message: "Session expired, please login again.",
      code: "unauthorized",
    });
    expect(await signedIn(owner.token)).toBe(401);

    // 29 days in: still extended, but never past the 30-day ceiling.
    const fresh = await login(owner.email, owner.password);
    await startedAgo(30 * day - 10 * 60_000);
    const near = await api("POST", "/api/auth/extend", { token: fresh, form: { token: fresh } });
    expect(near.body.success).toBe(1);
    const expiry = (near.body.data as { expirationTime: number }).expirationTime;
    expect(expiry).toBeLessThanOrEqual(Date.now() + 10 * 60_000 + 1000);
    expect(expiry).toBeGreaterThan(Date.now() + 5 * 60_000);
    expect(await signedIn(fresh)).toBe(200);
  });
});
