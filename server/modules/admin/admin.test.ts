import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { SessionUser } from "../../../common/api";
import { type CallResult, call, callMultipart, demoLogin, describeEachDatabase } from "../../testing/api";
import { createTestApp, type TestApp } from "../../testing/server";
import { ADMIN_ROUTES } from "./admin.routes";

/** The admin console's API: what an admin can do, 403 for everyone else, the audit log. */

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../../..");

describeEachDatabase("admin console API", (dialect) => {
  let t: TestApp;
  let admin: { token: string; userId: string };
  let member: { token: string; userId: string; email: string };
  const plans: Record<string, string> = {};

  async function account(email: string) {
    const user = await t.auth.createAccount({
      email,
      password: "secret-pass-1",
      fullName: email,
      planName: "Free",
    });
    const login = await call(t.app, "POST", "/api/auth/login", {
      form: { email, password: "secret-pass-1" },
    });
    return { userId: user.id, email, token: (login.body.data as { token: string }).token };
  }

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    const owner = await account("owner@example.com");
    if (dialect === "sqlite") {
      // The documented command (README): npm run make-admin -- <email>, on the server's data dir
      // and database (PostgreSQL on the shared stack).
      const { stdout } = await run("npx", ["tsx", "server/cli/make-admin.ts", "owner@example.com"], {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: t.dataDir, DATABASE_URL: t.config.DATABASE_URL },
      });
      expect(stdout).toContain("owner@example.com is now an admin");
      const missing = await run("npx", ["tsx", "server/cli/make-admin.ts", "nobody@example.com"], {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: t.dataDir, DATABASE_URL: t.config.DATABASE_URL },
      }).catch((error: { code: number; stderr: string }) => error);
      expect(missing).toMatchObject({ code: 1, stderr: expect.stringContaining("No account") });
    } else {
      await t.db.db.updateTable("users").set({ role: "admin" }).where("id", "=", owner.userId).execute();
    }
    admin = owner;
    member = await account("member@example.com");
    for (const plan of await t.db.db.selectFrom("plans").select(["id", "name"]).execute())
      plans[plan.name] = plan.id;
  }, 120_000);
  afterAll(async () => {
    await t?.dispose();
  });

  const audit = async () =>
    (await call(t.app, "GET", "/api/admin/audit", { token: admin.token })).body.data as Array<{
      action: string;
      target: string;
      adminEmail: string;
      details: string;
    }>;
  const sessionUser = async (token: string) =>
    ((await call(t.app, "POST", "/api/auth/extend", { token })).body.data as { user: SessionUser }).user;

  it("a non-admin gets 403 with the envelope from every admin route; no session gets 401", async () => {
    expect(ADMIN_ROUTES.length).toBeGreaterThanOrEqual(14);
    const demo = await demoLogin(t.app);
    const someId = "00000000-0000-4000-8000-000000000000";
    for (const route of ADMIN_ROUTES) {
      const url = route.url.replace(":id", someId);
      for (const token of [member.token, demo.token]) {
        const res: CallResult = await call(t.app, route.method, url, {
          token,
          form: route.method === "POST" ? { plan: someId, blocked: "1", name: "x" } : undefined,
        });
        expect({ url, status: res.status, body: res.body }).toEqual({
          url,
          status: 403,
          body: { success: 0, message: "This area is for administrators only.", code: "not_admin" },
        });
      }
      expect((await call(t.app, route.method, url)).status).toBe(401);
    }
    expect(await audit()).toEqual([]);
  });

  it("edits a plan's price and grants: the pricing page and the plan's users follow at once", async () => {
    const res = await call(t.app, "POST", `/api/admin/plans/${plans.Free}`, {
      token: admin.token,
      form: { price: "1.50", pl: "1", cl: "4", messageLimit: "20", stripePriceId: "" },
    });
    expect(res.body).toMatchObject({
      success: 1,
      data: { price: "1.50", pl: true, cl: 4, messageLimit: 20 },
    });
    const pricing = (await call(t.app, "GET", "/api/payment/pricing")).body.data as Array<
      Record<string, string>
    >;
    expect(pricing.find((p) => p.pricingPlanName === "Free")?.pricingPrice).toBe("1.50");
    // A member on Free gets the new grants without signing in again.
    expect(await sessionUser(member.token)).toMatchObject({ pl: "1", cl: 4 });
    const profile = await call(t.app, "GET", "/api/users/profile/", { token: member.token });
    expect(profile.body.data).toMatchObject({ pricingPlanName: "Free", chatLimit: 20 });
    const listed = (await call(t.app, "GET", "/api/admin/plans", { token: admin.token })).body.data as Array<{
      name: string;
      users: number;
    }>;
    expect(listed.find((p) => p.name === "Free")?.users).toBeGreaterThanOrEqual(2);
    expect((await audit())[0]).toMatchObject({
      action: "plan.update",
      target: plans.Free,
      adminEmail: "owner@example.com",
    });
    expect(JSON.parse((await audit())[0]!.details)).toMatchObject({ priceCents: 150, photoUpload: true });

    const bad = await call(t.app, "POST", `/api/admin/plans/${plans.Free}`, {
      token: admin.token,
      form: { price: "abc" },
    });
    expect(bad.status).toBe(400);
    await call(t.app, "POST", `/api/admin/plans/${plans.Free}`, {
      token: admin.token,
      form: { price: "0", pl: "0", cl: "3", messageLimit: "15" },
    });
    expect(await sessionUser(member.token)).toMatchObject({ pl: "0", cl: 3 });
  });

  it("creates and edits a preset character with a photo", async () => {
    const language = await t.db.db
      .selectFrom("languages")
      .select("id")
      .where("code", "=", "en")
      .executeTakeFirstOrThrow();
    const png = await sharp({ create: { width: 40, height: 40, channels: 3, background: "#a05" } })
      .png()
      .toBuffer();
    const created = await callMultipart(t.app, "/api/admin/presets", {
      token: admin.token,
      fields: {
        name: "Nova",
        sex: "0",
        voice: "English Female",
        languageId: language.id,
        description: "A stargazer.",
        greeting: "Hi {{user}}!",
      },
      files: { photo: { bytes: png, filename: "nova.png", type: "image/png" } },
    });
    expect(created.body).toMatchObject({
      success: 1,
      data: { name: "Nova", photo: expect.stringMatching(/\.jpg$/) },
    });
    const preset = created.body.data as { id: string; photo: string };
    const file = await t.app.inject({ method: "GET", url: `/content/predefined-characters/${preset.photo}` });
    expect(file.headers["content-type"]).toBe("image/jpeg");
    const selection = await call(t.app, "GET", "/api/characters/selection", { token: member.token });
    expect((selection.body.data as Array<{ characterName: string }>).map((p) => p.characterName)).toContain(
      "Nova",
    );

    const edited = await callMultipart(t.app, `/api/admin/presets/${preset.id}`, {
      token: admin.token,
      fields: { name: "Nova Prime", description: "A stargazer and a poet." },
    });
    expect(edited.body).toMatchObject({ success: 1, data: { name: "Nova Prime", photo: preset.photo } });
    const unknownVoice = await callMultipart(t.app, `/api/admin/presets/${preset.id}`, {
      token: admin.token,
      fields: { voice: "Klingon Male" },
    });
    expect(unknownVoice.status).toBe(400);
    const actions = (await audit()).map((a) => a.action);
    expect(actions.slice(0, 2)).toEqual(["preset.update", "preset.create"]);
  });

  it("uploads a plan's picture: admins only, JPEG or PNG only, re-encoded and shown on the pricing page", async () => {
    const png = await sharp({ create: { width: 64, height: 40, channels: 3, background: "#3a7" } })
      .png()
      .toBuffer();
    const file = { image: { bytes: png, filename: "plan.png", type: "image/png" } };
    const url = `/api/admin/plans/${plans.Premium}/image`;
    // Attack: a member and a guest get 403, no session 401; nothing is stored or audited.
    const before = await t.db.db
      .selectFrom("plans")
      .select("image")
      .where("id", "=", plans.Premium!)
      .executeTakeFirstOrThrow();
    for (const token of [member.token, (await demoLogin(t.app)).token]) {
      const refused = await callMultipart(t.app, url, { token, files: file });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ success: 0, code: "not_admin" });
    }
    expect((await callMultipart(t.app, url, { files: file })).status).toBe(401);
    const unchanged = await t.db.db
      .selectFrom("plans")
      .select("image")
      .where("id", "=", plans.Premium!)
      .executeTakeFirstOrThrow();
    expect(unchanged.image).toBe(before.image);

    const saved = await callMultipart(t.app, url, { token: admin.token, files: file });
    expect(saved.body).toMatchObject({
      success: 1,
      data: { image: expect.stringMatching(/^[0-9a-f-]{36}\.jpg$/) },
    });
    const image = (saved.body.data as { image: string }).image;
    const served = await t.app.inject({ method: "GET", url: `/content/pricing/${image}` });
    expect(served.statusCode).toBe(200);
    expect(served.headers["content-type"]).toBe("image/jpeg");
    const pricing = (await call(t.app, "GET", "/api/payment/pricing")).body.data as Array<{
      pricingPlanName: string;
      pricingImage: string;
    }>;
    expect(pricing.find((p) => p.pricingPlanName === "Premium")?.pricingImage).toBe(image);
    expect((await audit())[0]).toMatchObject({ action: "plan.image", target: plans.Premium });

    // Not a picture, no file, an unknown plan.
    const text = {
      image: { bytes: Buffer.from("<svg onload=alert(1)>"), filename: "x.png", type: "image/png" },
    };
    expect((await callMultipart(t.app, url, { token: admin.token, files: text })).status).toBe(400);
    expect((await callMultipart(t.app, url, { token: admin.token, fields: { name: "x" } })).status).toBe(400);
    const unknown = `/api/admin/plans/00000000-0000-4000-8000-000000000000/image`;
    expect((await callMultipart(t.app, unknown, { token: admin.token, files: file })).status).toBe(404);
  });

  it("finds users, changes the plan, limits, resets the count and blocks", async () => {
    const found = await call(t.app, "GET", "/api/admin/users?q=MEMBER@", { token: admin.token });
    const users = found.body.data as Array<{ id: string; email: string; planName: string }>;
    expect(users.map((u) => u.email)).toEqual(["member@example.com"]);
    expect(JSON.stringify(found.body)).not.toContain("password");

    await call(t.app, "POST", `/api/admin/users/${member.userId}/plan`, {
      token: admin.token,
      form: { plan: plans["Premium Plus"]! },
    });
    expect(await sessionUser(member.token)).toMatchObject({ pl: "1", il: "1", cl: 20 });
    const profile = await call(t.app, "GET", "/api/users/profile/", { token: member.token });
    expect(profile.body.data).toMatchObject({ pricingPlanName: "Premium Plus", chatLimit: 6000 });

    await call(t.app, "POST", `/api/admin/users/${member.userId}/limits`, {
      token: admin.token,
      form: { cl: "25", extraMessages: "40", il: "0" },
    });
    expect(await sessionUser(member.token)).toMatchObject({ cl: 25, il: "0" });
    await t.db.db.updateTable("users").set({ chat_count: 9 }).where("id", "=", member.userId).execute();
    await call(t.app, "POST", `/api/admin/users/${member.userId}/reset-count`, { token: admin.token });
    const row = await t.db.db
      .selectFrom("users")
      .selectAll()
      .where("id", "=", member.userId)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ chat_count: 0, extra_messages: 40, character_limit: 25 });

    const blocked = await call(t.app, "POST", `/api/admin/users/${member.userId}/block`, {
      token: admin.token,
      form: { blocked: "1" },
    });
    expect(blocked.body.success).toBe(1);
    // The session ends and signing in again is refused.
    expect((await call(t.app, "GET", "/api/users/profile/", { token: member.token })).status).toBe(401);
    expect((await call(t.app, "POST", "/api/auth/extend", { token: member.token })).status).toBe(401);
    const login = await call(t.app, "POST", "/api/auth/login", {
      form: { email: member.email, password: "secret-pass-1" },
    });
    expect(login.status).toBe(403);
    expect(login.body.success).toBe(0);
    await call(t.app, "POST", `/api/admin/users/${member.userId}/block`, {
      token: admin.token,
      form: { blocked: "0" },
    });
    member = await account2(member.email);
    expect(member.token).toBeTruthy();
    // An admin cannot lock themselves out.
    const self = await call(t.app, "POST", `/api/admin/users/${admin.userId}/block`, {
      token: admin.token,
      form: { blocked: "1" },
    });
    expect(self.status).toBe(403);

    const actions = (await audit()).map(
      (a) => `${a.action}:${a.target === member.userId ? "member" : "other"}`,
    );
    expect(actions.slice(0, 5)).toEqual([
      "user.unblock:member",
      "user.block:member",
      "user.reset_count:member",
      "user.limits:member",
      "user.plan:member",
    ]);
  });

  async function account2(email: string) {
    const login = await call(t.app, "POST", "/api/auth/login", {
      form: { email, password: "secret-pass-1" },
    });
    const data = login.body.data as { token: string; user: { id: string } };
    return { token: data.token, userId: data.user.id, email };
  }

  it("lists contact messages and approves a free-subscription request by hand", async () => {
    await call(t.app, "POST", "/api/contact", {
      form: { name: "Ana", email: "ana@example.com", subject: "Plans", message: "Which plan?" },
    });
    const messages = await call(t.app, "GET", "/api/admin/contact-messages", { token: admin.token });
    expect(messages.body.data).toEqual([
      expect.objectContaining({
        name: "Ana",
        email: "ana@example.com",
        subject: "Plans",
        message: "Which plan?",
      }),
    ]);

    await t.subscribe.request("newbie@example.com");
    // The request mail is a background job: done once the queue is idle.
    await t.jobs.idle();
    const requests = await call(t.app, "GET", "/api/admin/free-subscriptions", { token: admin.token });
    const pending = (
      requests.body.data as Array<{ id: string; email: string; status: string; code: string }>
    )[0]!;
    expect(pending).toMatchObject({
      email: "newbie@example.com",
      status: "pending",
      code: expect.stringMatching(/^CMP-/),
    });
    const approved = await call(t.app, "POST", `/api/admin/free-subscriptions/${pending.id}/approve`, {
      token: admin.token,
    });
    expect(approved.body.success).toBe(1);
    const user = await t.db.db
      .selectFrom("users")
      .innerJoin("plans", "plans.id", "users.plan_id")
      .select(["plans.name"])
      .where("email", "=", "newbie@example.com")
      .executeTakeFirst();
    expect(user?.name).toBe("Free");
    const again = await call(t.app, "POST", `/api/admin/free-subscriptions/${pending.id}/approve`, {
      token: admin.token,
    });
    expect(again.status).toBe(404);
    expect((await audit())[0]).toMatchObject({ action: "free_subscription.approve", target: pending.id });
  });
});
