import { afterAll, beforeAll, expect, it } from "vitest";
import { call, describeEachDatabase } from "../../testing/api";
import { startMailCatcher } from "../../testing/mail";
import { createTestApp, type TestApp } from "../../testing/server";

/**
 * A default install has no video for the free subscription: the server says it is not offered
 * and refuses a request with `free_subscribe_off`, storing and mailing nothing.
 */
describeEachDatabase("free subscription without a configured video", (dialect) => {
  let t: TestApp;
  let mail: Awaited<ReturnType<typeof startMailCatcher>>;
  beforeAll(async () => {
    mail = await startMailCatcher();
    t = await createTestApp({
      dialect,
      env: { SMTP_URL: mail.smtpUrl, YOUTUBE_API_KEY: "yt-key", FREE_SUBSCRIBE_VIDEO_ID: "" },
    });
  });
  afterAll(async () => {
    await t?.dispose();
    await mail?.close();
  });

  it("says it is not offered", async () => {
    const res = await call(t.app, "GET", "/api/users/free/subscribe");
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: 1, data: { offered: false } });
  });

  it("refuses a request with a stable code: nothing stored, nothing mailed", async () => {
    const res = await call(t.app, "POST", "/api/users/free/subscribe/process", {
      form: { email: "someone@example.com" },
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      success: 0,
      message: "The free subscription is not offered on this server.",
      code: "free_subscribe_off",
    });
    await t.jobs.idle();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await t.db.db.selectFrom("free_subscriptions").selectAll().execute()).toHaveLength(0);
    expect(mail.messages).toHaveLength(0);
  });
});
