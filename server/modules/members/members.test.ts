// Tests of the owner set-up link, the admin console's "Add user" and invitations (product.md §2), their mails and the origin of their links.
import fs from "node:fs";
import path from "node:path";
import PostalMime from "postal-mime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, describeEachDatabase } from "../../testing/api";
import { createTestApp, createTestStack, type TestApp } from "../../testing/server";

/** The parsed mails in the app's outbox (no SMTP_URL) whose file names end with `-<to>.eml`. */
async function outboxMailsTo(t: TestApp, to: string) {
  await t.jobs.idle();
  const dir = path.join(t.dataDir, "outbox");
  const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith(`-${to}.eml`)) : [];
  return Promise.all(files.map((f) => PostalMime.parse(fs.readFileSync(path.join(dir, f)))));
}

describeEachDatabase("owner set-up link", (dialect) => {
  it("is made at each start while no admin exists, works once, and never after", async () => {
    const stack = await createTestStack({ dialect, env: { PUBLIC_URL: "http://owner.test" } });
    try {
      const first = await stack.start();
      const token = /^\/setup\/([\w-]{40,})$/.exec(first.setupPath ?? "")?.[1];
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

      const second = await stack.start();
      expect(second.setupPath).toBeUndefined();
      await second.close();
    } finally {
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

describe("invitations made for an e-mail", () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: "http://companion.test" } });
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

  it("are mailed to that address (the outbox without SMTP) with the link; one for anyone is mailed nowhere", async () => {
    const made = await call(t.app, "POST", "/api/admin/invitations", {
      token: admin,
      form: { email: "Invitee@Example.com", days: "3" },
    });
    const { link } = made.body.data as { link: string };
    const mails = await outboxMailsTo(t, "invitee@example.com");
    expect(mails).toHaveLength(1);
    expect(mails[0]!.to?.[0]?.address).toBe("invitee@example.com");
    expect(mails[0]!.subject).toBe("You are invited to create an account");
    expect(mails[0]!.text).toContain(link);
    expect(mails[0]!.text).toContain("for 3 days");

    const before = fs.readdirSync(path.join(t.dataDir, "outbox")).length;
    await call(t.app, "POST", "/api/admin/invitations", { token: admin, form: { days: "3" } });
    await t.jobs.idle();
    expect(fs.readdirSync(path.join(t.dataDir, "outbox"))).toHaveLength(before);
  });
});

describe("links shown in the browser, without PUBLIC_URL", () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { PUBLIC_URL: "", PORT: "3000" } });
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

  /** An admin call with these request headers (Host, X-Forwarded-*). */
  const adminCall = async (
    method: "GET" | "POST",
    url: string,
    headers: Record<string, string>,
    form?: object,
  ) => {
    const response = await t.app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${admin}`,
        ...headers,
        ...(form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      },
      payload: form ? new URLSearchParams(form as Record<string, string>).toString() : undefined,
    });
    return response.json() as { data: unknown };
  };

  it("start with the origin the browser used, in the console's list and in the mail made then", async () => {
    const lan = { host: "192.168.1.50:3000" };
    const made = (
      await adminCall("POST", "/api/admin/invitations", lan, { email: "far@example.com", days: "2" })
    ).data as { id: string; link: string };
    expect(made.link).toMatch(/^http:\/\/192\.168\.1\.50:3000\/signup\?invite=[\w.%-]+$/);
    const mails = await outboxMailsTo(t, "far@example.com");
    expect(mails[0]!.text).toContain(made.link);

    // The same invitation listed from another name of the server: its link follows that browser.
    const listed = (await adminCall("GET", "/api/admin/invitations", { host: "companion.lan:8080" }))
      .data as Array<{
      id: string;
      link: string;
    }>;
    const path = made.link.slice("http://192.168.1.50:3000".length);
    expect(listed.find((i) => i.id === made.id)?.link).toBe(`http://companion.lan:8080${path}`);

    const site = (await adminCall("GET", "/api/admin/site", { host: "[fd00::5]:3000" })).data as {
      demoLink: string;
    };
    expect(site.demoLink).toBe("http://[fd00::5]:3000/login/demo");
  });

  it("ignore X-Forwarded-Host and -Proto unless the proxy is trusted (TRUST_PROXY); a bad Host falls back", async () => {
    const forged = {
      host: "companion.lan",
      "x-forwarded-host": "evil.example",
      "x-forwarded-proto": "https",
    };
    const listed = (await adminCall("POST", "/api/admin/invitations", forged, { days: "1" })).data as {
      link: string;
    };
    expect(listed.link).toMatch(/^http:\/\/companion\.lan\/signup\?invite=/);
    const bad = (await adminCall("POST", "/api/admin/invitations", { host: "a b<c>" }, { days: "1" }))
      .data as {
      link: string;
    };
    expect(bad.link).toMatch(/^http:\/\/localhost:3000\/signup\?invite=/);

    const proxied = await createTestApp({ env: { PUBLIC_URL: "", TRUST_PROXY: "1" } });
    try {
      const { user } = await proxied.accounts.members.add({
        email: "boss@example.com",
        password: "boss-password-1",
        admin: true,
      });
      const token = (await proxied.auth.signInAs(user)).token;
      const response = await proxied.app.inject({
        method: "GET",
        url: "/api/admin/site",
        headers: { authorization: `Bearer ${token}`, ...forged },
      });
      expect((response.json() as { data: { demoLink: string } }).data.demoLink).toBe(
        "https://evil.example/login/demo",
      );
    } finally {
      await proxied.dispose();
    }
  });
});
