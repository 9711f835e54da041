// Attack tests of the guest demo turned off: no route, public or signed in as a member, makes a guest (or any) account.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeEachDatabase } from "../server/testing/api";
import { http, type Part, PUBLIC_ROUTES, routeTable, type Session, signInMember } from "./support/fixtures";
import { type ListeningApp, startListening } from "./support/server";

const REFUSAL = "The guest demo is turned off on this site. Sign in, or ask the site's owner for an account.";

/** Demo ids an attacker may try: the configured one in other shapes, others, and junk. */
const DEMO_IDS = [
  "demo",
  "DEMO",
  " demo ",
  "demo\u0000",
  "demo/../demo",
  "%64emo",
  "someone-else",
  randomUUID(),
  "x".repeat(100),
];

describeEachDatabase("the guest demo turned off: no way in for a guest", (dialect) => {
  let t: ListeningApp;
  let member: Session;

  /** Accounts in the database: all of them, and guests (is_demo). */
  const counts = async () => {
    const rows = await t.db.db.selectFrom("users").select(["is_demo"]).execute();
    return { users: rows.length, guests: rows.filter((r) => r.is_demo === 1).length };
  };

  beforeAll(async () => {
    // A closed site with the demo switched off; rate limits on, as in production.
    t = await startListening({
      dialect,
      env: { DEMO_LOGIN: "0", REGISTRATION: "closed", RATE_LIMIT_ENABLED: "1" },
    });
    member = await signInMember(t, "member@example.com", "member-password-1");
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it("POST /api/auth/demo-login refuses every id, in every body shape, with the sentence; no account is made", async () => {
    const before = await counts();
    for (const id of DEMO_IDS) {
      const answer = await http(t.url, "POST", "/api/auth/demo-login", { form: { id } });
      expect([403, 400], id).toContain(answer.status);
      if (answer.status === 403)
        expect(answer.json).toEqual({ success: 0, message: REFUSAL, code: "demo_off" });
    }
    // A query string, multipart, a signed-in member's token, JSON.
    const shapes: Array<{ target?: string; form?: Record<string, string>; token?: string; parts?: Part[] }> =
      [
        { target: "/api/auth/demo-login?id=demo" },
        { parts: [{ name: "id", value: "demo" }] },
        { token: member.token, form: { id: "demo" } },
      ];
    for (const shape of shapes) {
      const answer = await http(t.url, "POST", shape.target ?? "/api/auth/demo-login", shape);
      expect(answer.status, JSON.stringify(shape)).not.toBe(200);
    }
    const json = await fetch(`${t.url}/api/auth/demo-login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id: "demo" }),
    });
    expect(json.status).not.toBe(200);
    expect(await counts()).toEqual(before);
  });

  it("the /login/{id} page creates nothing by itself", async () => {
    const before = await counts();
    for (const id of ["demo", "someone-else"]) {
      const page = await http(t.url, "GET", `/login/${id}`);
      expect(page.status).toBeLessThan(500);
    }
    expect(await counts()).toEqual(before);
  });

  it("no other public route makes an account (every one of them tried with a guest's fields)", async () => {
    const before = await counts();
    const form = {
      id: "demo",
      email: "guest@example.com",
      password: "guest-password-1",
      name: "Guest",
      code: "123456",
      token: "demo",
      state: "demo",
      invite: "demo",
    };
    const tried: string[] = [];
    for (const route of routeTable(t.app)) {
      if (!PUBLIC_ROUTES.has(`${route.method} ${route.url}`)) continue;
      const url = route.url.replace(":platform", "youtube").replace(/:\w+/g, "demo");
      await http(t.url, route.method, url, route.method === "GET" ? {} : { form });
      tried.push(`${route.method} ${route.url}`);
    }
    expect(tried).toEqual(
      expect.arrayContaining(["POST /api/auth/demo-login", "POST /api/auth/signup/start"]),
    );
    expect(await counts()).toEqual(before);
    expect((await counts()).guests).toBe(0);
  });

  it("GET /api/site tells the SPA the demo is off, and the sign-up mode", async () => {
    const site = await http(t.url, "GET", "/api/site");
    expect(site.json).toMatchObject({ success: 1, data: { demo: false, registration: "closed" } });
  });
});

describe("the switch itself is the admin's", () => {
  let t: ListeningApp;
  beforeAll(async () => {
    t = await startListening({ env: { DEMO_LOGIN: "0" } });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it("a member, a forged token and no token cannot turn the demo on", async () => {
    const member = await signInMember(t, "m@example.com", "member-password-1");
    for (const token of [member.token, "forged-token", undefined]) {
      const answer = await http(t.url, "POST", "/api/admin/site", { token, form: { demo: "1" } });
      expect([401, 403]).toContain(answer.status);
    }
    expect(await t.siteSettings.demoOpen()).toBe(false);
    const demo = await http(t.url, "POST", "/api/auth/demo-login", { form: { id: "demo" } });
    expect(demo.status).toBe(403);
  });
});
