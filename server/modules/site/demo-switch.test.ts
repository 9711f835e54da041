// Tests of the guest demo's switch: its default follows REGISTRATION, DEMO_LOGIN sets it at the first start only, an admin changes it without a restart, and a refused demo sign-in creates nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app";
import { call, describeEachDatabase } from "../../testing/api";
import { createTestApp, createTestStack, type TestApp, testConfig } from "../../testing/server";

const REFUSAL = "The guest demo is turned off on this site. Sign in, or ask the site's owner for an account.";

/** How many accounts the database holds (members and guests). */
async function userCount(t: Pick<TestApp, "db">): Promise<number> {
  const row = await t.db.db
    .selectFrom("users")
    .select((eb) => eb.fn.countAll().as("n"))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** An admin's bearer token on `t`. */
async function adminToken(t: TestApp): Promise<string> {
  const { user } = await t.accounts.members.add({
    email: "owner@example.com",
    password: "owner-password-1",
    admin: true,
  });
  return (await t.auth.signInAs(user)).token;
}

const demoLogin = (t: TestApp, id = "demo") => call(t.app, "POST", "/api/auth/demo-login", { form: { id } });

describe("the guest demo's default", () => {
  for (const [registration, demo] of [
    ["closed", false],
    ["invite", false],
    ["open", true],
  ] as const) {
    it(`follows REGISTRATION=${registration}: ${demo ? "on" : "off"} (GET /api/site says so, publicly)`, async () => {
      const t = await createTestApp({ env: { REGISTRATION: registration, DEMO_LOGIN: "" } });
      try {
        const site = await call(t.app, "GET", "/api/site");
        expect(site.status).toBe(200);
        expect(site.body.data).toEqual({ demo, registration });
        expect((await demoLogin(t)).body.success).toBe(demo ? 1 : 0);
      } finally {
        await t.dispose();
      }
    });
  }

  it("DEMO_LOGIN sets it at the first start only; afterwards the stored setting wins", async () => {
    const stack = await createTestStack({ env: { REGISTRATION: "open", DEMO_LOGIN: "0" } });
    try {
      const first = await stack.start();
      expect(await first.siteSettings.demoOpen()).toBe(false);
      await first.close();
      // The same data, started again with DEMO_LOGIN=1: still off (an admin's choice would stay too).
      const config = testConfig(stack.dataDir, stack.config.DATABASE_URL, {
        REGISTRATION: "open",
        DEMO_LOGIN: "1",
      });
      const again = await buildApp(config);
      try {
        expect(await again.siteSettings.demoOpen()).toBe(false);
        const site = await call(again.app, "GET", "/api/site");
        expect(site.body.data).toEqual({ demo: false, registration: "open" });
      } finally {
        await again.close();
      }
    } finally {
      await stack.dispose();
    }
  });
});

describeEachDatabase("the guest demo turned off", (dialect) => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ dialect, env: { DEMO_LOGIN: "0", PUBLIC_URL: "" } });
    admin = await adminToken(t);
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it("refuses every demo sign-in with the sentence, whatever the id, and creates no account", async () => {
    const before = await userCount(t);
    for (const id of ["demo", "someone-else"]) {
      const res = await demoLogin(t, id);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ success: 0, message: REFUSAL, code: "demo_off" });
    }
    expect(await userCount(t)).toBe(before);
  });

  it("an admin turns it on and off again, taking effect at once (no restart), each change audited", async () => {
    const read = await call(t.app, "GET", "/api/admin/site", { token: admin });
    expect(read.body.data).toEqual({
      demo: false,
      registration: "closed",
      demoLink: "http://localhost:80/login/demo",
    });

    const on = await call(t.app, "POST", "/api/admin/site", { token: admin, form: { demo: "1" } });
    expect(on.body).toMatchObject({ success: 1, message: "The guest demo is on.", data: { demo: true } });
    const before = await userCount(t);
    const guest = await demoLogin(t);
    expect(guest.body.success).toBe(1);
    expect(await userCount(t)).toBe(before + 1);
    expect((await call(t.app, "GET", "/api/site")).body.data).toEqual({ demo: true, registration: "closed" });

    const off = await call(t.app, "POST", "/api/admin/site", { token: admin, form: { demo: "0" } });
    expect(off.body).toMatchObject({ success: 1, data: { demo: false } });
    expect((await demoLogin(t)).body).toMatchObject({ success: 0, code: "demo_off" });
    expect(await userCount(t)).toBe(before + 1);

    const audit = (await call(t.app, "GET", "/api/admin/audit", { token: admin })).body.data as Array<{
      action: string;
      details: string;
    }>;
    const changes = audit.filter((a) => a.action === "site.demo").map((a) => JSON.parse(a.details));
    expect(changes).toEqual([{ demo: false }, { demo: true }]);
  });

  it("refuses a change that is not 0 or 1, and a non-admin", async () => {
    const bad = await call(t.app, "POST", "/api/admin/site", { token: admin, form: { demo: "yes" } });
    expect(bad.status).toBe(400);
    const { user } = await t.accounts.members.add({
      email: "member@example.com",
      password: "member-password-1",
    });
    const member = (await t.auth.signInAs(user)).token;
    const refused = await call(t.app, "POST", "/api/admin/site", { token: member, form: { demo: "1" } });
    expect(refused.status).toBe(403);
    expect(await t.siteSettings.demoOpen()).toBe(false);
  });
});
