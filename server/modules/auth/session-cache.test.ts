import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CACHE_TTL_MS, CacheGroup, ShortCache } from "../../db/short-cache";
import { secretHash } from "../../security/secret-hash";
import { call, demoLogin, describeEachDatabase } from "../../testing/api";
import { createTestApp, type TestApp } from "../../testing/server";

/** A chat route behind the cached session: 404 (no such message) means the session was accepted. */
const stop = (t: TestApp, token: string) =>
  call(t.app, "POST", "/api/chat/stop", { token, form: { id: randomUUID() } });

describeEachDatabase("session cache of the chat routes", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it("serves a chat route from the cache, other routes afresh, and logout revokes at once", async () => {
    const { token } = await demoLogin(t.app);
    expect((await stop(t, token)).status).toBe(404);
    // Another instance revokes the token (the row goes): this instance's chat routes may go on
    // for the cache's ttl, the rest of the API refuses at once.
    await t.db.db.deleteFrom("auth_tokens").where("token_hash", "=", secretHash(token)).execute();
    expect((await stop(t, token)).status).toBe(404);
    expect((await call(t.app, "GET", "/api/characters/selection", { token })).status).toBe(401);

    const { token: second } = await demoLogin(t.app);
    expect((await stop(t, second)).status).toBe(404);
    const out = await call(t.app, "POST", "/api/auth/logout", { token: second, form: { token: second } });
    expect(out.body.success).toBe(1);
    expect((await stop(t, second)).status).toBe(401);
  });

  it("a password change ends the user's other cached sessions at once", async () => {
    const email = `cache-${randomUUID()}@example.com`;
    await t.auth.createAccount({ email, password: "first password", fullName: "Alex", planName: "Free" });
    const login = async () => {
      const res = await call(t.app, "POST", "/api/auth/login", {
        form: { email, password: "first password" },
      });
      return (res.body.data as { token: string }).token;
    };
    const kept = await login();
    const other = await login();
    expect((await stop(t, other)).status).toBe(404);
    await t.auth.setPasswordAndRevokeSessions(
      (await t.db.db.selectFrom("users").select("id").where("email", "=", email).executeTakeFirstOrThrow())
        .id,
      "second password",
      kept,
    );
    expect((await stop(t, other)).status).toBe(401);
    expect((await stop(t, kept)).status).toBe(404);
  });

  it("an admin's block drops the user's cached sessions at once; a write behind the app's back waits for the ttl", async () => {
    const { token, userId } = await demoLogin(t.app);
    const admin = await demoLogin(t.app);
    await t.db.db.updateTable("users").set({ role: "admin" }).where("id", "=", admin.userId).execute();
    expect((await stop(t, token)).status).toBe(404);
    // A direct database write (another instance's, a script's) is not seen within the ttl...
    await t.db.db.updateTable("users").set({ blocked: 1 }).where("id", "=", userId).execute();
    expect((await stop(t, token)).status).toBe(404);
    // ...nor does an unrelated admin request drop anything (no dropping by HTTP method)...
    await call(t.app, "POST", "/api/users/confirm-age", { token: admin.token, form: { confirm: "1" } });
    expect((await stop(t, token)).status).toBe(404);
    // ...but the block written by the admin service drops the user's sessions at once.
    const blocked = await call(t.app, "POST", `/api/admin/users/${userId}/block`, {
      token: admin.token,
      form: { blocked: "1" },
    });
    expect(blocked.body.success).toBe(1);
    expect((await stop(t, token)).status).toBe(401);
  });
});

describe("ShortCache", () => {
  it("keeps an entry for its ttl and never past its own end", () => {
    const cache = new ShortCache<string>({ ttlMs: 1000, max: 10 });
    cache.set("a", "u1", "A", 0, cache.epoch());
    cache.set("b", "u1", "B", 0, cache.epoch(), 500);
    expect(cache.get("a", 999)).toBe("A");
    expect(cache.get("a", 1000)).toBeUndefined();
    expect(cache.get("b", 499)).toBe("B");
    expect(cache.get("b", 500)).toBeUndefined();
  });

  it("drops the oldest stored past its bound, a user's entries, and reads older than a drop", () => {
    const cache = new ShortCache<string>({ ttlMs: 1000, max: 2 });
    cache.set("a", "u1", "A", 0, cache.epoch());
    cache.set("b", "u2", "B", 0, cache.epoch());
    cache.set("c", "u2", "C", 1, cache.epoch());
    expect(cache.get("a", 2)).toBeUndefined();
    expect(cache.get("b", 2)).toBe("B");
    cache.set("a", "u1", "A", 2, cache.epoch());
    expect(cache.get("b", 2)).toBeUndefined();
    const group = new CacheGroup();
    group.add(cache);
    const before = cache.epoch();
    group.forgetUser("u1");
    expect(cache.get("a", 3)).toBeUndefined();
    expect(cache.get("c", 3)).toBe("C");
    cache.set("a", "u1", "stale", 3, before);
    expect(cache.get("a", 4)).toBeUndefined();
    group.forgetAll();
    expect(cache.size).toBe(0);
  });

  it("refuses a ttl above the documented bound", () => {
    expect(() => new ShortCache({ ttlMs: CACHE_TTL_MS + 1, max: 1 })).toThrow();
  });
});
