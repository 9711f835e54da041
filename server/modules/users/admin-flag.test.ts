import { afterAll, beforeAll, expect, it } from "vitest";
import type { SessionUser } from "../../../common/api";
import { call, callMultipart, describeEachDatabase } from "../../testing/api";
import { createTestApp, type TestApp } from "../../testing/server";

/**
 * The session user and the profile carry `isAdmin`, computed by the server from the account's
 * role: true for an admin, false for a user, and no profile update can set it.
 */
describeEachDatabase("admin flag in the session user and the profile", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  /** A Free account signed in with its password; `admin` gives it the admin role first. */
  async function account(email: string, admin = false) {
    const user = await t.auth.createAccount({
      email,
      password: "secret-pass-1",
      fullName: email,
      planName: "Free",
    });
    if (admin) await t.db.db.updateTable("users").set({ role: "admin" }).where("id", "=", user.id).execute();
    const login = await call(t.app, "POST", "/api/auth/login", {
      form: { email, password: "secret-pass-1" },
    });
    const data = login.body.data as { token: string; user: SessionUser };
    return { userId: user.id, token: data.token, user: data.user };
  }
  const profile = async (token: string) =>
    (await call(t.app, "GET", "/api/users/profile/", { token })).body.data as { isAdmin: boolean };
  const extended = async (token: string) =>
    ((await call(t.app, "POST", "/api/auth/extend", { token })).body.data as { user: SessionUser }).user;

  it("is true for an admin and false for a user, in the login answer, extend and the profile", async () => {
    const admin = await account("flag-admin@example.com", true);
    const user = await account("flag-user@example.com");
    expect(admin.user.isAdmin).toBe(true);
    expect(user.user.isAdmin).toBe(false);
    expect((await profile(admin.token)).isAdmin).toBe(true);
    expect((await profile(user.token)).isAdmin).toBe(false);
    expect((await extended(admin.token)).isAdmin).toBe(true);
    expect((await extended(user.token)).isAdmin).toBe(false);
  });

  it("a user cannot set it through the profile update", async () => {
    const user = await account("flag-climber@example.com");
    const res = await callMultipart(t.app, "/api/users/update", {
      token: user.token,
      fields: { fname: "Climber", name: "climber", isAdmin: "true", role: "admin" },
    });
    expect(res.body.success).toBe(1);
    expect((res.body.data as SessionUser).isAdmin).toBe(false);
    expect((await profile(user.token)).isAdmin).toBe(false);
    const row = await t.db.db
      .selectFrom("users")
      .select("role")
      .where("id", "=", user.userId)
      .executeTakeFirstOrThrow();
    expect(row.role).toBe("user");
    const admin = await call(t.app, "GET", "/api/admin/users", { token: user.token });
    expect(admin.status).toBe(403);
  });
});
