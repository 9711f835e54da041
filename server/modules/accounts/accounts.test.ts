// Tests of the owner set-up link, the admin console's "Add user" and invitations (product.md §2).
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { call, describeEachDatabase } from "../../testing/api";
import { createTestApp, createTestStack, type TestApp } from "../../testing/server";

describeEachDatabase("owner set-up link", (dialect) => {
  it("is printed at each start while no admin exists, works once, and never after", async () => {
    const stack = await createTestStack({
      dialect,
      env: { LOG_LEVEL: "warn", PUBLIC_URL: "http://owner.test" },
    });
    const lines: string[] = [];
    const spy = vi.spyOn(console, "log").mockImplementation((line: unknown) => void lines.push(String(line)));
    try {
      const first = await stack.start();
      const printed = lines.filter((l) => l.startsWith("Set up the owner account: "));
      expect(printed).toHaveLength(1);
      const token = /^Set up the owner account: http:\/\/owner\.test\/setup\/([\w-]{40,})$/.exec(
        printed[0]!,
      )?.[1];
      expect(token).toBeDefined();
      // only the hash is stored
      const stored = await first.db.db.selectFrom("setup_tokens").select("token_hash").execute();
      expect(stored.map((s) => s.token_hash)).not.toContain(token);
      expect((await call(first.app, "GET", `/api/setup/${token}`)).body.data).toEqual({ valid: true });
      expect((await call(first.app, "GET", "/api/setup/not-a-token")).body.data).toEqual({ valid: false });

      const form = { token: token!, email: "Owner@Example.com", password: "owner-password-1", name: "Olive" };
      const done = await call(first.app, "POST", "/api/setup", { form });
      expect(done.status).toBe(200);
      expect(done.body).toMatchObject({ success: 1, page: "/characters/selection" });
      const data = done.body.data as { token: string; user: { isAdmin: boolean; name: string } };
      expect(data.user).toMatchObject({ isAdmin: true, name: "Olive" });
      expect((await call(first.app, "GET", "/api/admin/me", { token: data.token })).status).toBe(200);
      const login = await call(first.app, "POST", "/api/auth/login", {
        form: { email: "owner@example.com", password: "owner-password-1" },
      });
      expect(login.body.success).toBe(1);

      // a used token is gone; a second owner cannot be made
      const again = await call(first.app, "POST", "/api/setup", {
        form: { ...form, email: "two@example.com" },
      });
      expect(again.status).toBe(404);
      expect(again.body.code).toBe("setup_token");
      expect((await call(first.app, "GET", `/api/setup/${token}`)).body.data).toEqual({ valid: false });
      await first.close();

      lines.length = 0;
      const second = await stack.start();
      expect(lines.filter((l) => l.includes("Set up the owner account"))).toEqual([]);
      await second.close();
    } finally {
      spy.mockRestore();
      await stack.dispose();
    }
  }, 60_000);
});

describeEachDatabase("owner set-up tokens", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t?.dispose();
  });
  const setup = (token: string, email = "owner@example.com") =>
    call(t.app, "POST", "/api/setup", { form: { token, email, password: "owner-password-1" } });

  it("refuses a wrong and an expired token, and checks the fields", async () => {
    expect((await setup("wrong-token")).body).toMatchObject({ success: 0, code: "setup_token" });
    const link = await t.accounts.setup.freshLink();
    const token = link.split("/setup/")[1]!;
    await t.db.db
      .updateTable("setup_tokens")
      .set({ expires_at: Date.now() - 1 })
      .execute();
    expect((await setup(token)).status).toBe(404);
    const fresh = (await t.accounts.setup.freshLink()).split("/setup/")[1]!;
    const weak = await call(t.app, "POST", "/api/setup", {
      form: { token: fresh, email: "owner@example.com", password: "short" },
    });
    expect(weak.status).toBe(400);
    const bad = await call(t.app, "POST", "/api/setup", {
      form: { token: fresh, email: "not-an-address", password: "owner-password-1" },
    });
    expect(bad.body.message).toBe("The e-mail address is not valid.");
    // the field errors did not use the token up
    expect((await setup(fresh)).body.success).toBe(1);
  });
});

describeEachDatabase("admin accounts and invitations", (dialect) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ dialect, env: { PUBLIC_URL: "http://companion.test" } });
    const { user } = await t.accounts.members.add({
      email: "boss@example.com",
      password: "boss-password-1",
      admin: true,
    });
    admin = (await t.auth.signInAs(user)).token;
  });
  afterAll(async () => {
    await t?.dispose();
  });
  const login = (email: string, password: string) =>
    call(t.app, "POST", "/api/auth/login", { form: { email, password } });

  it("adds a user with a given password, who then signs in", async () => {
    const res = await call(t.app, "POST", "/api/admin/accounts", {
      token: admin,
      form: { email: "Given@Example.com", name: "Gina", password: "given-password-1" },
    });
    expect(res.body).toMatchObject({ success: 1, data: { email: "given@example.com", name: "Gina" } });
    expect((res.body.data as { password?: string }).password).toBeUndefined();
    expect((await login("given@example.com", "given-password-1")).body.success).toBe(1);
    const twice = await call(t.app, "POST", "/api/admin/accounts", {
      token: admin,
      form: { email: "given@example.com", password: "other-password-1" },
    });
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe("email_taken");
  });

  it("adds a user with a generated password shown once", async () => {
    const res = await call(t.app, "POST", "/api/admin/accounts", {
      token: admin,
      form: { email: "gen@example.com", password: "" },
    });
    const password = (res.body.data as { password: string }).password;
    expect(password).toMatch(/^[\w-]{16}$/);
    expect((await login("gen@example.com", password)).body.success).toBe(1);
  });

  it("lists, copies and revokes invitations", async () => {
    const made = await call(t.app, "POST", "/api/admin/invitations", {
      token: admin,
      form: { email: "Friend@Example.com", days: "7" },
    });
    const invitation = made.body.data as { id: string; email: string; link: string; expiresAt: number };
    expect(invitation.email).toBe("friend@example.com");
    expect(invitation.link).toMatch(/^http:\/\/companion\.test\/signup\?invite=[\w.%-]+$/);
    expect(invitation.expiresAt - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
    const listed = await call(t.app, "GET", "/api/admin/invitations", { token: admin });
    expect(listed.body.data).toEqual(
      expect.arrayContaining([expect.objectContaining({ link: invitation.link })]),
    );
    const revoked = await call(t.app, "POST", `/api/admin/invitations/${invitation.id}/revoke`, {
      token: admin,
    });
    expect(revoked.body.success).toBe(1);
    const after = (await call(t.app, "GET", "/api/admin/invitations", { token: admin })).body
      .data as unknown[];
    expect(after).not.toEqual(expect.arrayContaining([expect.objectContaining({ id: invitation.id })]));
    const audit = await call(t.app, "GET", "/api/admin/audit", { token: admin });
    const actions = (audit.body.data as Array<{ action: string }>).map((a) => a.action);
    expect(actions).toEqual(
      expect.arrayContaining(["user.create", "invitation.create", "invitation.revoke"]),
    );
    const tooLong = await call(t.app, "POST", "/api/admin/invitations", {
      token: admin,
      form: { days: "31" },
    });
    expect(tooLong.status).toBe(400);
  });
});
