import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { PresetCharacter } from "../../../common/api";
import { call, confirmAge, describeEachDatabase } from "../../testing/api";
import { ScriptedLlm } from "../../testing/fake-llm";
import { startMailCatcher } from "../../testing/mail";
import { createTestApp, type TestApp } from "../../testing/server";

/** A local server speaking the YouTube Data API's commentThreads.list JSON, two comments a page. */
function startYouTubeDouble(comments: string[], requests: URL[]) {
  return http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    requests.push(url);
    res.setHeader("content-type", "application/json");
    if (url.pathname !== "/youtube/v3/commentThreads" || url.searchParams.get("key") !== "yt-key") {
      res.statusCode = 403;
      res.end(JSON.stringify({ error: { code: 403, message: "The request cannot be completed." } }));
      return;
    }
    const start = Number(url.searchParams.get("pageToken") || 0);
    const page = comments.slice(start, start + 2);
    res.end(
      JSON.stringify({
        kind: "youtube#commentThreadListResponse",
        ...(start + 2 < comments.length ? { nextPageToken: String(start + 2) } : {}),
        items: page.map((text, i) => ({
          kind: "youtube#commentThread",
          id: `t${start + i}`,
          snippet: {
            videoId: url.searchParams.get("videoId"),
            topLevelComment: { kind: "youtube#comment", snippet: { textDisplay: text, textOriginal: text } },
          },
        })),
      }),
    );
  });
}

describeEachDatabase("free subscription through a video comment", (dialect) => {
  let t: TestApp;
  let mail: Awaited<ReturnType<typeof startMailCatcher>>;
  const comments = ["first!", "love this video"];
  const requests: URL[] = [];
  const youtube = startYouTubeDouble(comments, requests);
  beforeAll(async () => {
    mail = await startMailCatcher();
    await new Promise<void>((resolve) => youtube.listen(0, "127.0.0.1", resolve));
    const { port } = youtube.address() as AddressInfo;
    t = await createTestApp({
      dialect,
      llm: new ScriptedLlm(() => "Nice to meet you!"),
      env: {
        SMTP_URL: mail.smtpUrl,
        PUBLIC_URL: "http://companion.test",
        YOUTUBE_API_BASE_URL: `http://127.0.0.1:${port}/youtube/v3`,
        YOUTUBE_API_KEY: "yt-key",
        FREE_SUBSCRIBE_VIDEO_ID: "vid123",
        FREE_SUBSCRIBE_POLL_SECONDS: "3600",
      },
    });
  });
  afterAll(async () => {
    await t?.dispose();
    await mail?.close();
    youtube.close();
  });

  it("request → code mail → comment appears → account and login mail → sign in → 16th message refused", async () => {
    const email = `free-${dialect}@example.com`;
    const res = await call(t.app, "POST", "/api/users/free/subscribe/process", {
      form: { email: ` ${email.toUpperCase()} ` },
    });
    expect(res.body.success).toBe(1);
    const codeMail = await mail.waitFor((m) => m.to === email && m.subject === "Your free chat code");
    const code = /CMP-[A-Z0-9]{8}/.exec(codeMail.text)![0];
    expect(codeMail.text).toContain("https://www.youtube.com/watch?v=vid123");

    // Not commented yet: the job looks and finds nothing.
    await t.db.db.updateTable("free_subscriptions").set({ next_check_at: 0 }).execute();
    expect(await t.subscribe.runDue()).toBe(0);
    expect(requests.at(-1)!.searchParams.get("videoId")).toBe("vid123");

    comments.push("great stuff", `here is my code ${code} thanks`);
    await t.db.db.updateTable("free_subscriptions").set({ next_check_at: 0 }).execute();
    expect(await t.subscribe.runDue()).toBe(1);
    const details = await mail.waitFor((m) => m.to === email && m.subject === "Your login details");
    const password = /Password: (\S+)/.exec(details.text)![1]!;

    const login = await call(t.app, "POST", "/api/auth/login", { form: { email, password } });
    expect(login.body.success).toBe(1);
    const token = (login.body.data as { token: string }).token;
    await confirmAge(t.app, token);
    const presets = (await call(t.app, "GET", "/api/characters/selection", { token })).body
      .data as PresetCharacter[];
    const created = await call(t.app, "POST", "/api/characters/create-preselect", {
      token,
      form: { id: presets[0]!.characterPreDefinedUUID },
    });
    const characterId = (created.body.data as { characterUUID: string }).characterUUID;
    for (let i = 1; i <= 15; i++) {
      const sent = await call(t.app, "POST", "/api/chat/message", {
        token,
        form: { message: `msg ${i}`, id: characterId },
      });
      expect(sent.body.success).toBe(1);
    }
    const sixteenth = await call(t.app, "POST", "/api/chat/message", {
      token,
      form: { message: "one more", id: characterId },
    });
    expect(sixteenth.status).toBe(429);
    expect(sixteenth.body).toEqual({
      success: 0,
      message: "You have reached your limit of 15 messages for today. Upgrade your plan to chat more.",
      code: "quota_reached",
      page: "/pricing",
    });
  });

  it("does not tell whether an address has an account, and never creates a second one", async () => {
    await t.auth.createAccount({
      email: "taken@example.com",
      password: "p-12345678",
      fullName: "",
      planName: "Free",
    });
    const a = await call(t.app, "POST", "/api/users/free/subscribe/process", {
      form: { email: "taken@example.com" },
    });
    const b = await call(t.app, "POST", "/api/users/free/subscribe/process", {
      form: { email: "fresh@example.com" },
    });
    expect(a.body).toEqual(b.body);
    const note = await mail.waitFor((m) => m.to === "taken@example.com");
    expect(note.subject).toBe("You already have an account");
    const rows = await t.db.db
      .selectFrom("free_subscriptions")
      .select("email")
      .where("email", "=", "taken@example.com")
      .execute();
    expect(rows).toHaveLength(0);
  });

  it("expires a request whose code never appears", async () => {
    await call(t.app, "POST", "/api/users/free/subscribe/process", { form: { email: "late@example.com" } });
    await mail.waitFor((m) => m.to === "late@example.com");
    await t.db.db
      .updateTable("free_subscriptions")
      .set({ expires_at: Date.now() - 1, next_check_at: 0 })
      .where("email", "=", "late@example.com")
      .execute();
    await t.subscribe.runDue();
    const row = await t.db.db
      .selectFrom("free_subscriptions")
      .select("status")
      .where("email", "=", "late@example.com")
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("expired");
  });
});
