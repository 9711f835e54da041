import { afterAll, beforeAll, expect, it } from "vitest";
import { call, demoLogin, demoWithCharacter, describeEachDatabase } from "../../testing/api";
import { createTestApp, TEST_STACK, type TestApp } from "../../testing/server";

describeEachDatabase("auth API", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  const createMember = (email: string, password: string) =>
    t.auth.createAccount({ email, password, fullName: "Alex Member", planName: "Basic Plan" });

  it("demo login answers a token, the session user and the preset page", async () => {
    const res = await call(t.app, "POST", "/api/auth/demo-login", { form: { id: "demo" } });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(1);
    expect(res.body.page).toBe("/characters/selection");
    const data = res.body.data as { token: string; user: Record<string, unknown> };
    expect(data.token).toMatch(/^[\w-]{40,}$/);
    expect(data.user).toMatchObject({ cl: 3, pl: "0", il: "0" });
    expect(Object.keys(data.user)).toEqual(expect.arrayContaining(["id", "cl", "vl", "pl", "il"]));
  });

  it("gives every demo visitor their own user", async () => {
    const a = await demoLogin(t.app);
    const b = await demoLogin(t.app);
    expect(a.userId).not.toBe(b.userId);
  });

  it("refuses an unknown demo id", async () => {
    const res = await call(t.app, "POST", "/api/auth/demo-login", { form: { id: "someone-else" } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: 0, message: "This demo link is not valid.", code: "demo_unknown" });
  });

  it("signs a member in with e-mail and password, and stores only a hash", async () => {
    await createMember("alex@example.com", "correct horse");
    const res = await call(t.app, "POST", "/api/auth/login", {
      form: { email: "Alex@Example.com", password: "correct horse" },
    });
    expect(res.body.success).toBe(1);
    expect(res.body.page).toBe("/characters/selection");
    const token = (res.body.data as { token: string }).token;
    const row = await t.db.db
      .selectFrom("users")
      .select("password_hash")
      .where("email", "=", "alex@example.com")
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    const stored = await t.db.db.selectFrom("auth_tokens").select("token_hash").execute();
    expect(stored.map((s) => s.token_hash)).not.toContain(token);
  });

  it("refuses a wrong password and an unknown e-mail with the same answer", async () => {
    const wrong = await call(t.app, "POST", "/api/auth/login", {
      form: { email: "alex@example.com", password: "nope" },
    });
    const unknown = await call(t.app, "POST", "/api/auth/login", {
      form: { email: "who@example.com", password: "nope" },
    });
    expect(wrong.body).toEqual({
      success: 0,
      message: "Invalid email or password.",
      code: "invalid_credentials",
    });
    expect(unknown.body).toEqual(wrong.body);
  });

  it("answers 400 with a message for a malformed body", async () => {
    const missing = await call(t.app, "POST", "/api/auth/login", { form: { email: "a@b.c" } });
    expect(missing.status).toBe(400);
    expect(missing.body.success).toBe(0);
    expect(missing.body.message).toMatch(/password/);
    const res = await t.app.inject({
      method: "POST",
      url: "/api/auth/login",
      headers: { "content-type": "application/json" },
      payload: "{not json",
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: 0 });
  });

  it("answers an unknown API path with a 404 envelope", async () => {
    const res = await call(t.app, "GET", "/api/no/such/path");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      success: 0,
      message: "Unknown API path: GET /api/no/such/path",
      code: "not_found",
    });
  });

  it("requires a valid bearer token on protected calls, and logout revokes it", async () => {
    expect((await call(t.app, "GET", "/api/characters/selection")).status).toBe(401);
    expect((await call(t.app, "GET", "/api/characters/selection", { token: "forged" })).status).toBe(401);
    const { token } = await demoLogin(t.app);
    expect((await call(t.app, "GET", "/api/characters/selection", { token })).status).toBe(200);
    const out = await call(t.app, "POST", "/api/auth/logout", { token, form: { token } });
    expect(out.body.success).toBe(1);
    const after = await call(t.app, "GET", "/api/characters/selection", { token });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({
      success: 0,
      message: "Session expired, please login again.",
      code: "unauthorized",
    });
  });

  it("extends a token by an hour and rejects an expired one", async () => {
    const { token, userId } = await demoLogin(t.app);
    const before = Date.now();
    const res = await call(t.app, "POST", "/api/auth/extend", { token, form: { token } });
    expect(res.body.success).toBe(1);
    const data = res.body.data as { token: string; expirationTime: number };
    expect(data.token).toBe(token);
    expect(data.expirationTime).toBeGreaterThanOrEqual(before + 3_600_000);
    await t.db.db
      .updateTable("auth_tokens")
      .set({ expires_at: Date.now() - 1 })
      .where("user_id", "=", userId)
      .execute();
    expect((await call(t.app, "GET", "/api/characters/selection", { token })).status).toBe(401);
    expect((await call(t.app, "POST", "/api/auth/extend", { token, form: { token } })).status).toBe(401);
  });

  it("removes demo users and their data after their lifetime", async () => {
    const demo = await demoWithCharacter(t.app);
    const keep = await demoWithCharacter(t.app);
    // Files of the chat (pictures, the user's photos) and the character's photo go with the user.
    const photo = (
      await t.db.db
        .selectFrom("characters")
        .select("photo")
        .where("id", "=", demo.characterId)
        .executeTakeFirstOrThrow()
    ).photo;
    const chatFiles = [`${demo.characterId}/picture.jpg`, `${demo.characterId}/user_photo/mine.jpg`];
    const kept = `${keep.characterId}/picture.jpg`;
    for (const key of [...chatFiles, kept]) await t.storage.put(key, Buffer.from("x"));
    expect(await t.storage.exists(`characters/${photo}`)).toBe(true);
    await t.db.db
      .updateTable("users")
      .set({ expires_at: Date.now() - 1 })
      .where("id", "=", demo.userId)
      .execute();
    expect(await t.auth.removeExpired()).toBeGreaterThanOrEqual(1);
    expect(await t.storage.list(demo.characterId)).toEqual([]);
    expect(await t.storage.exists(`characters/${photo}`)).toBe(false);
    expect(await t.storage.exists(kept)).toBe(true);
    const users = await t.db.db.selectFrom("users").select("id").execute();
    expect(users.map((u) => u.id)).not.toContain(demo.userId);
    expect(users.map((u) => u.id)).toContain(keep.userId);
    const chars = await t.db.db
      .selectFrom("characters")
      .select("id")
      .where("user_id", "=", demo.userId)
      .execute();
    expect(chars).toHaveLength(0);
    expect((await call(t.app, "GET", "/api/characters/selection", { token: demo.token })).status).toBe(401);
  });

  it("signs a registered device in by the secret of its user agent marker", async () => {
    const member = await createMember("device@example.com", "device password");
    const login = await call(t.app, "POST", "/api/auth/login", {
      form: { email: "device@example.com", password: "device password" },
    });
    const token = (login.body.data as { token: string }).token;
    const userId = member.id;
    const registered = await call(t.app, "POST", "/api/auth/devices", { token, form: { name: "Phone" } });
    const device = registered.body.data as { deviceId: string; userAgentMarker: string };
    expect(device.userAgentMarker).toBe(`CompanionDevice/${device.deviceId}`);
    const res = await call(t.app, "POST", "/api/auth/device-login", { form: { id: device.deviceId } });
    expect(res.body.success).toBe(1);
    expect((res.body.data as { user: { id: string } }).user.id).toBe(userId);
    const unknown = await call(t.app, "POST", "/api/auth/device-login", { form: { id: "x".repeat(43) } });
    expect(unknown.body).toEqual({
      success: 0,
      message: "This device is not registered. Please sign in with your e-mail and password.",
      code: "invalid_device",
    });
    expect((await call(t.app, "POST", "/api/auth/devices", { form: { name: "x" } })).status).toBe(401);
  });

  it("serves health, meta.json and the fallback picture", async () => {
    const health = await call(t.app, "GET", "/api/health");
    // The shared stack runs both suites on PostgreSQL.
    const database = TEST_STACK === "shared" ? "postgres" : dialect;
    expect(health.body).toMatchObject({ success: 1, data: { database } });
    const meta = await t.app.inject({ method: "GET", url: "/meta.json" });
    expect(meta.json()).toEqual({ version: "1.0.28" });
    const pic = await t.app.inject({ method: "GET", url: "/content/users/missing.jpg" });
    expect(pic.statusCode).toBe(200);
    expect(pic.headers["content-type"]).toBe("image/jpeg");
  });
});
