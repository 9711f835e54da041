import { afterAll, beforeAll, expect, it } from "vitest";
import { call, describeEachDatabase } from "../../testing/api";
import { startMailCatcher } from "../../testing/mail";
import { createTestApp, type TestApp } from "../../testing/server";

describeEachDatabase("public pages' calls", (dialect) => {
  let t: TestApp;
  let mail: Awaited<ReturnType<typeof startMailCatcher>>;
  beforeAll(async () => {
    mail = await startMailCatcher();
    t = await createTestApp({
      dialect,
      env: { SMTP_URL: mail.smtpUrl, ADMIN_EMAIL: "admin@companion.test" },
    });
  });
  afterAll(async () => {
    await t?.dispose();
    await mail?.close();
  });

  it("lists the four plans with the spec's fields and a served image", async () => {
    const res = await call(t.app, "GET", "/api/payment/pricing");
    const plans = res.body.data as Array<Record<string, string>>;
    expect(plans.map((p) => p.pricingPlanName)).toEqual(["Free", "Basic Plan", "Premium", "Premium Plus"]);
    expect(plans[1]).toMatchObject({ pricingPrice: "9.99", pricingUrl: expect.any(String) });
    expect(Object.keys(plans[0]!).sort()).toEqual(
      [
        "pricingDescription",
        "pricingImage",
        "pricingPlanName",
        "pricingPrice",
        "pricingUrl",
        // Ours: the plan's id, sold through checkout here, the signed-in user's plan.
        "pricingPlanUUID",
        "pricingCheckout",
        "pricingCurrent",
      ].sort(),
    );
    const image = await t.app.inject({ method: "GET", url: `/content/pricing/${plans[0]!.pricingImage}` });
    expect(image.headers["content-type"]).toBe("image/jpeg");
  });

  it("stores a contact message and mails it to the admin", async () => {
    const form = { name: "Ana", email: "Ana@Example.com", subject: "Hello", message: "I love it" };
    const res = await call(t.app, "POST", "/api/contact", { form });
    expect(res.body.success).toBe(1);
    const stored = await t.db.db.selectFrom("contact_messages").selectAll().execute();
    expect(stored).toEqual([
      expect.objectContaining({ name: "Ana", email: "ana@example.com", message: "I love it" }),
    ]);
    const message = await mail.waitFor((m) => m.to === "admin@companion.test");
    expect(message.subject).toBe("Contact: Hello");
    expect(message.text).toContain("I love it");
  });

  it("refuses a contact message with a blank field or a bad address, storing nothing", async () => {
    const before = await t.db.db.selectFrom("contact_messages").select("id").execute();
    const blank = await call(t.app, "POST", "/api/contact", {
      form: { name: "  ", email: "a@b.co", subject: "s", message: "m" },
    });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toBe("Your name is required.");
    const bad = await call(t.app, "POST", "/api/contact", {
      form: { name: "A", email: "nope", subject: "s", message: "m" },
    });
    expect(bad.status).toBe(400);
    expect(await t.db.db.selectFrom("contact_messages").select("id").execute()).toHaveLength(before.length);
  });
});
