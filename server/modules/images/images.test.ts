import sharp from "sharp";
import { afterEach, expect, it } from "vitest";
import type { ChatHistoryEntry, MessageReply, PhotoHistoryEntry } from "../../../common/api";
import type { App } from "../../app";
import { call, callMultipart, demoWithCharacter, describeEachDatabase } from "../../testing/api";
import { startScriptedCompletions } from "../../testing/completions-server";
import { ScriptedLlm } from "../../testing/fake-llm";
import { type ImageDouble, makeImage, startImageDouble } from "../../testing/image-servers";
import { allowPictures, contentCookie } from "../../testing/images";
import { createTestApp, createTestStack, type TestApp } from "../../testing/server";
import { IMAGE_FAILED_TEXT } from "./image-worker";

/**
 * Pictures on request and photos from the user through the API, on SQLite and
 * PostgreSQL: capabilities, the il flag, ownership of every id, the quota, the content rules,
 * the photo flow with and without a vision model, genimage from the user's words, the photo list,
 * and durable jobs across a restart and a timeout.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function imageApp(
  dialect: "sqlite" | "postgres",
  options: {
    double?: Parameters<typeof startImageDouble>[1];
    env?: Record<string, string>;
    llm?: ScriptedLlm;
    provider?: boolean;
  } = {},
): Promise<{ app: TestApp; double?: ImageDouble; llm: ScriptedLlm }> {
  const double =
    options.provider === false ? undefined : await startImageDouble("automatic1111", options.double);
  if (double) cleanups.push(() => double.close());
  const llm = options.llm ?? new ScriptedLlm(() => "What a nice photo!");
  const app = await createTestApp({
    dialect,
    llm,
    env: {
      ...(double ? { IMAGE_PROVIDER: "automatic1111", IMAGE_BASE_URL: double.baseUrl } : {}),
      IMAGE_PORTRAIT_SIZE: "256x384",
      IMAGE_LANDSCAPE_SIZE: "384x256",
      ...options.env,
    },
  });
  cleanups.push(() => app.dispose());
  return { app, double, llm };
}

async function member(app: TestApp | App, pictures = true) {
  const session = await demoWithCharacter(app.app);
  if (pictures) await allowPictures(app, session.userId);
  return session;
}

const history = async (app: TestApp | App, token: string, chatId: string) => {
  const answer = await call(app.app, "GET", `/api/chat/history?id=${chatId}`, { token });
  return (answer.body.data as { data: ChatHistoryEntry[] }).data;
};
const chatCount = async (app: TestApp | App, userId: string) =>
  (
    await app.db.db
      .selectFrom("users")
      .select("chat_count")
      .where("id", "=", userId)
      .executeTakeFirstOrThrow()
  ).chat_count;
const jobCount = async (app: TestApp | App) =>
  Number(
    (
      await app.db.db
        .selectFrom("image_jobs")
        .select((eb) => eb.fn.countAll().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );
const requestPhoto = (
  app: TestApp | App,
  token: string,
  id: string,
  message = "Send a portrait photo",
  type = "1",
) =>
  callMultipart(app.app, "/api/chat/request-photo", {
    token,
    fields: { message, id, cid: id, mute: "1", type },
  });
const sendPhoto = async (app: TestApp | App, token: string, id: string, message = "", bytes?: Buffer) =>
  callMultipart(app.app, "/api/chat/photo-process", {
    token,
    fields: { id, message },
    files: {
      photo: { bytes: bytes ?? (await makeImage(640, 480, "jpeg")), filename: "me.jpg", type: "image/jpeg" },
    },
  });

describeEachDatabase("images API", (dialect) => {
  it("capabilities follow the configured provider and the user's il flag", async () => {
    const { app } = await imageApp(dialect);
    const withoutPlan = await member(app, false);
    const caps = async (token: string) =>
      (await call(app.app, "GET", "/api/chat/capabilities", { token })).body.data as Record<
        string,
        { enabled: boolean; reason: string }
      >;
    const off = await caps(withoutPlan.token);
    expect(off.imageRequests).toEqual({
      enabled: false,
      reason: "Your plan does not include pictures. Premium Plus does.",
    });
    expect(off.photoUpload?.enabled).toBe(false);
    const withPlan = await member(app);
    const on = await caps(withPlan.token);
    expect(on.imageRequests).toEqual({ enabled: true, reason: "" });
    expect(on.photoUpload).toEqual({ enabled: true, reason: "" });

    const { app: bare } = await imageApp(dialect, { provider: false });
    const user = await member(bare);
    const none = (await call(bare.app, "GET", "/api/chat/capabilities", { token: user.token })).body
      .data as Record<string, { enabled: boolean; reason: string }>;
    expect(none.imageRequests?.enabled).toBe(false);
    expect(none.imageRequests?.reason).toMatch(/no image generator is configured/);
    // With no provider the calls answer success 0 with the reason, and nothing is stored or counted.
    const before = await chatCount(bare, user.userId);
    const answer = await requestPhoto(bare, user.token, user.characterId);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ success: 0, message: none.imageRequests?.reason });
    expect(await jobCount(bare)).toBe(0);
    expect(await chatCount(bare, user.userId)).toBe(before);
    expect(
      (await history(bare, user.token, user.characterId)).some((e) => e.chatHistoryImageLoading === 1),
    ).toBe(false);
  }, 30_000);

  it("il '0' cannot request pictures, ask for a reply's picture or send photos", async () => {
    const { app } = await imageApp(dialect);
    const user = await member(app, false);
    const asked = await requestPhoto(app, user.token, user.characterId);
    expect(asked.status).toBe(403);
    expect(asked.body.success).toBe(0);
    const photo = await sendPhoto(app, user.token, user.characterId, "look");
    expect(photo.status).toBe(403);
    const [greeting] = await history(app, user.token, user.characterId);
    const image = await call(app.app, "POST", "/api/chat/image", {
      token: user.token,
      form: { id: greeting!.chatHistoryUUID, description: "at the beach", ratio: "1" },
    });
    expect(image.status).toBe(403);
    expect(await jobCount(app)).toBe(0);
    expect(await chatCount(app, user.userId)).toBe(0);
    expect(await app.storage.list(user.characterId)).toEqual([]);
  }, 30_000);

  it("another user's character, group, message, job and photos give nothing and change nothing", async () => {
    const { app } = await imageApp(dialect);
    const alice = await member(app);
    const bob = await member(app);
    const asked = await requestPhoto(app, alice.token, alice.characterId);
    const aliceEntry = (asked.body as unknown as MessageReply).history![0]!.chatHistoryUUID;
    const sent = await sendPhoto(app, alice.token, alice.characterId, "my cat");
    expect(sent.body.success).toBe(1);
    await app.images.idle();
    const group = await call(app.app, "GET", `/api/chat/group/new?cId=${alice.characterId}`, {
      token: alice.token,
    });
    const groupId = String(group.body.page).split("/").pop()!;
    const aliceBefore = await history(app, alice.token, alice.characterId);
    const jobsBefore = await jobCount(app);
    const bobCount = await chatCount(app, bob.userId);

    for (const id of [alice.characterId, groupId]) {
      expect((await requestPhoto(app, bob.token, id)).status).toBe(404);
      expect((await sendPhoto(app, bob.token, id)).status).toBe(404);
      expect(
        (await call(app.app, "GET", `/api/chat/history/photos?id=${id}`, { token: bob.token })).status,
      ).toBe(404);
    }
    // Alice's character named as the replier in Bob's own chat.
    const crossed = await callMultipart(app.app, "/api/chat/request-photo", {
      token: bob.token,
      fields: { message: "Send a portrait photo", id: bob.characterId, cid: alice.characterId, type: "1" },
    });
    expect(crossed.status).toBe(404);
    // Alice's message (the job's handle) through chat/image.
    const image = await call(app.app, "POST", "/api/chat/image", {
      token: bob.token,
      form: { id: aliceEntry, description: "anything", ratio: "1" },
    });
    expect(image.status).toBe(404);
    expect(image.body).not.toHaveProperty("image");
    // Bob's uId on Alice's photo list.
    const photos = await call(
      app.app,
      "GET",
      `/api/chat/history/photos?id=${alice.characterId}&uId=${alice.userId}`,
      {
        token: bob.token,
      },
    );
    expect(photos.status).toBe(404);
    // Alice's photo URL: served to Alice's browser only; Bob's cookie, no cookie or a forged one get 404.
    const alicePhoto = aliceBefore.find((e) => e.chatHistoryMessageImage)!.chatHistoryMessageImage;
    const alicePicture = aliceBefore.find((e) => e.chatHistoryReplyImage)!.chatHistoryReplyImage;
    const real = (await app.storage.read(`${alice.characterId}/user_photo/${alicePhoto}`))!;
    expect(real.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    const urls = [
      `/content/${alice.characterId}/user_photo/${alicePhoto}`,
      `/content/${alice.characterId}/${alicePicture}`,
    ];
    const aliceCookie = await contentCookie(app, alice.token);
    const bobCookie = await contentCookie(app, bob.token);
    const [bobId, expires] = decodeURIComponent(bobCookie.split("=")[1]!).split(".");
    expect(bobId).toBe(bob.userId);
    const forged = `chat_content=${encodeURIComponent(`${alice.userId}.${expires}.${"A".repeat(43)}`)}`;
    const own = await app.app.inject({ url: urls[0]!, headers: { cookie: aliceCookie } });
    expect(own.statusCode).toBe(200);
    expect(own.rawPayload.equals(real)).toBe(true);
    expect((await app.app.inject({ url: urls[1]!, headers: { cookie: aliceCookie } })).statusCode).toBe(200);
    for (const url of urls) {
      for (const cookie of [bobCookie, forged, undefined]) {
        const other = await app.app.inject({ url, headers: cookie ? { cookie } : {} });
        expect(other.statusCode).toBe(404);
        expect(other.rawPayload.includes(real.subarray(0, 64))).toBe(false);
        expect(other.json()).toEqual({ success: 0, message: "Not found.", code: "not_found" });
      }
    }
    // Alice's group chat folder is hers too.
    expect(
      (await app.app.inject({ url: `/content/${groupId}/x.jpg`, headers: { cookie: bobCookie } })).statusCode,
    ).toBe(404);

    expect(await history(app, alice.token, alice.characterId)).toEqual(aliceBefore);
    expect(await jobCount(app)).toBe(jobsBefore);
    expect(await chatCount(app, bob.userId)).toBe(bobCount);
    // Logout clears the picture cookie.
    const out = await app.app.inject({
      method: "POST",
      url: "/api/auth/logout",
      headers: {
        authorization: `Bearer ${alice.token}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      payload: `token=${alice.token}`,
    });
    expect(String(out.headers["set-cookie"])).toContain("chat_content=; Path=/content/");
  }, 60_000);

  it("two accounts in two tabs of one browser each see their own pictures", async () => {
    const { app } = await imageApp(dialect);
    const alice = await member(app);
    const bob = await member(app);
    for (const who of [alice, bob]) await requestPhoto(app, who.token, who.characterId);
    await app.images.idle();
    const pictureOf = async (who: typeof alice) =>
      `/content/${who.characterId}/${
        (await history(app, who.token, who.characterId)).find((e) => e.chatHistoryReplyImage)!
          .chatHistoryReplyImage
      }`;
    const urls = { alice: await pictureOf(alice), bob: await pictureOf(bob) };

    /**
     * One browser's cookie jar: a Set-Cookie replaces the cookie of that name and path (Max-Age=0
     * removes it), and a request carries the cookies whose path prefixes its URL.
     */
    const jar = new Map<string, { path: string; pair: string }>();
    const cookieHeader = (url: string) =>
      [...jar.values()]
        .filter((cookie) => url.startsWith(cookie.path))
        .map((cookie) => cookie.pair)
        .join("; ");
    const store = (header: string | string[] | undefined) => {
      for (const line of Array.isArray(header) ? header : header ? [header] : []) {
        const [pair, ...attributes] = line.split(";").map((part) => part.trim());
        const name = pair!.slice(0, pair!.indexOf("="));
        const path = attributes.find((a) => a.toLowerCase().startsWith("path="))?.slice(5) ?? "/";
        if (/max-age=0/i.test(line)) jar.delete(`${name} ${path}`);
        else jar.set(`${name} ${path}`, { path, pair: pair! });
      }
    };
    const apiCall = async (token: string) => {
      const url = "/api/chat/capabilities";
      const answer = await app.app.inject({
        url,
        headers: { authorization: `Bearer ${token}`, cookie: cookieHeader(url) },
      });
      store(answer.headers["set-cookie"]);
    };
    const status = async (url: string) =>
      (await app.app.inject({ url, headers: { cookie: cookieHeader(url) } })).statusCode;

    await apiCall(alice.token); // tab 1
    await apiCall(bob.token); // tab 2, the same browser
    await apiCall(alice.token); // tab 1 again, then tab 2's <img> tags load
    await apiCall(bob.token);
    expect(await status(urls.alice)).toBe(200);
    expect(await status(urls.bob)).toBe(200);

    // Bob signs out in tab 2: his pictures close to this browser, Alice's stay open.
    const out = await app.app.inject({
      method: "POST",
      url: "/api/auth/logout",
      headers: {
        authorization: `Bearer ${bob.token}`,
        "content-type": "application/x-www-form-urlencoded",
        cookie: cookieHeader("/api/auth/logout"),
      },
      payload: `token=${bob.token}`,
    });
    store(out.headers["set-cookie"]);
    expect(await status(urls.alice)).toBe(200);
    expect(await status(urls.bob)).toBe(404);
  }, 60_000);

  it("a group chat offers pictures: request-photo for a group entry", async () => {
    const { app, double } = await imageApp(dialect);
    const user = await member(app);
    const group = await call(app.app, "GET", `/api/chat/group/new?cId=${user.characterId}`, {
      token: user.token,
    });
    const groupId = String(group.body.page).split("/").pop()!;
    const profile = await call(app.app, "GET", `/api/chat/profile/?id=${groupId}`, { token: user.token });
    const members = (profile.body.info as { characters: Array<{ id: string; gId: string }> }).characters;
    expect(members[0]).toMatchObject({ id: user.characterId, gId: groupId });
    const caps = await call(app.app, "GET", `/api/chat/capabilities?id=${groupId}`, { token: user.token });
    expect((caps.body.data as { imageRequests: { enabled: boolean } }).imageRequests.enabled).toBe(true);

    // As the chat screen sends it (id = the group, cid = the member who answers), and without cid.
    for (const cid of [members[0]!.id, ""]) {
      const asked = await callMultipart(app.app, "/api/chat/request-photo", {
        token: user.token,
        fields: { message: "Send a portrait photo", id: groupId, cid, mute: "1", type: "1" },
      });
      expect(asked.status).toBe(200);
      const reply = asked.body as unknown as MessageReply;
      expect(reply).toMatchObject({ success: 1, genimage: 1 });
      expect(reply.history?.[0]).toMatchObject({
        characterUUID: user.characterId,
        chatHistoryImageLoading: 1,
      });
    }
    await app.images.idle();
    expect(double!.drawn).toHaveLength(2);
    const entries = (await call(app.app, "GET", `/api/chat/history?id=${groupId}`, { token: user.token }))
      .body.data as { data: ChatHistoryEntry[] };
    const pictures = entries.data.filter((e) => e.chatHistoryReplyImage);
    expect(pictures).toHaveLength(2);
    const cookie = await contentCookie(app, user.token);
    const served = await app.app.inject({
      url: `/content/${groupId}/${pictures[0]!.chatHistoryReplyImage}`,
      headers: { cookie },
    });
    expect(served.statusCode).toBe(200);
  }, 60_000);

  it("each picture counts as one message of the quota; at the limit the answer names /pricing", async () => {
    const { app } = await imageApp(dialect);
    const user = await member(app);
    const limit = (
      await app.db.db
        .selectFrom("users")
        .select("chat_limit")
        .where("id", "=", user.userId)
        .executeTakeFirstOrThrow()
    ).chat_limit;
    await app.db.db
      .updateTable("users")
      .set({ chat_count: limit - 2 })
      .where("id", "=", user.userId)
      .execute();
    expect((await requestPhoto(app, user.token, user.characterId)).body.success).toBe(1);
    expect(await chatCount(app, user.userId)).toBe(limit - 1);
    expect(
      (await requestPhoto(app, user.token, user.characterId, "Send a landscape photo", "2")).body.success,
    ).toBe(1);
    expect(await chatCount(app, user.userId)).toBe(limit);
    const refused = await requestPhoto(app, user.token, user.characterId);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ success: 0, page: "/pricing" });
    await app.images.idle();
    expect(await jobCount(app)).toBe(2);
  }, 30_000);

  it("a picture that fails after the day changed is given back to the day it was charged to", async () => {
    const { app, double } = await imageApp(dialect, { double: { hold: true, fail: true } });
    const user = await member(app);
    const today = new Date().toISOString().slice(0, 10);
    expect((await requestPhoto(app, user.token, user.characterId)).body.success).toBe(1);
    const job = await app.db.db.selectFrom("image_jobs").selectAll().executeTakeFirstOrThrow();
    expect(job.quota_bucket).toBe(`plan:${today}`);
    await double!.received(1);
    // Midnight passes while the picture is drawn, and the new day has one message of its own.
    await app.db.db
      .updateTable("users")
      .set({ chat_period: "2999-01-01", chat_count: 1 })
      .where("id", "=", user.userId)
      .execute();
    double!.release();
    await app.images.idle();
    expect((await app.db.db.selectFrom("image_jobs").select("status").executeTakeFirstOrThrow()).status).toBe(
      "failed",
    );
    expect(await chatCount(app, user.userId)).toBe(1);
  }, 30_000);

  it("a picture whose entry New Chat deleted gives its message back", async () => {
    const { app, double } = await imageApp(dialect, { double: { hold: true } });
    const user = await member(app);
    expect((await requestPhoto(app, user.token, user.characterId)).body.success).toBe(1);
    expect(await chatCount(app, user.userId)).toBe(1);
    await double!.received(1);
    const cleared = await call(app.app, "GET", `/api/chat/new?id=${user.characterId}`, { token: user.token });
    expect(cleared.body.success).toBe(1);
    double!.release();
    await app.images.idle();
    const job = await app.db.db.selectFrom("image_jobs").selectAll().executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: "failed", error: "the history entry was deleted" });
    expect(await chatCount(app, user.userId)).toBe(0);
    expect(await app.storage.list(user.characterId)).toEqual([]);

    // A job still queued when its entry goes is not drawn at all, and is given back too.
    await app.images.stop();
    expect((await requestPhoto(app, user.token, user.characterId)).body.success).toBe(1);
    expect(await chatCount(app, user.userId)).toBe(1);
    await call(app.app, "GET", `/api/chat/new?id=${user.characterId}`, { token: user.token });
    const { ImageWorker } = await import("./image-worker");
    const { ImagesRepo } = await import("./images.repo");
    const { QuotaRepo } = await import("../quota/quota.repo");
    const { QuotaService } = await import("../quota/quota.service");
    let drawn = 0;
    const worker = new ImageWorker(
      new ImagesRepo(app.db.db),
      new QuotaService(new QuotaRepo(app.db.db)),
      {
        name: "x",
        status: () => ({ ready: true, message: "" }),
        generate: async () => {
          drawn += 1;
          return { bytes: await makeImage(64, 64, "png") };
        },
      },
      app.storage,
      { concurrency: 1, timeoutMs: 10_000, log: () => {} },
    );
    worker.start();
    await worker.idle();
    await worker.stop();
    expect(drawn).toBe(0);
    expect(await chatCount(app, user.userId)).toBe(0);
  }, 30_000);

  it("ComfyUI prompts of timed-out jobs are taken off the ComfyUI server", async () => {
    const double = await startImageDouble("comfyui", { hold: true });
    cleanups.push(() => double.close());
    const app = await createTestApp({
      dialect,
      llm: new ScriptedLlm(),
      env: {
        IMAGE_PROVIDER: "comfyui",
        IMAGE_BASE_URL: double.baseUrl,
        COMFYUI_POLL_MS: "20",
        IMAGE_CONCURRENCY: "2",
        IMAGE_TIMEOUT_MS: "2000",
        IMAGE_PORTRAIT_SIZE: "256x384",
      },
    });
    cleanups.push(() => app.dispose());
    const user = await member(app);
    // ComfyUI runs one prompt at a time: the first runs, the second waits in its queue.
    expect((await requestPhoto(app, user.token, user.characterId)).body.success).toBe(1);
    expect((await requestPhoto(app, user.token, user.characterId)).body.success).toBe(1);
    await double.received(2);
    await app.images.idle();
    await expect
      .poll(() => [...double.cancelled].sort(), { timeout: 15_000 })
      .toEqual(["prompt-1", "prompt-2"]);
    const posted = (path: string) => double.requests.filter((r) => r.method === "POST" && r.path === path);
    // Each job names its own prompt: a waiting one is deleted from the queue, a running one is
    // interrupted by id (which one runs when the second times out depends on timing).
    expect(posted("/queue").map((r) => r.body)).toEqual(
      expect.arrayContaining([{ delete: ["prompt-1"] }, { delete: ["prompt-2"] }]),
    );
    expect(posted("/interrupt").map((r) => r.body)).toContainEqual({ prompt_id: "prompt-1" });
    for (const interrupt of posted("/interrupt")) expect(interrupt.body).toHaveProperty("prompt_id");
    const jobs = await app.db.db.selectFrom("image_jobs").select("status").execute();
    expect(jobs.map((j) => j.status)).toEqual(["failed", "failed"]);
    expect(await chatCount(app, user.userId)).toBe(0);
  }, 60_000);

  it("content rules apply to picture prompts; explicit pictures only on uncensored plans", async () => {
    const { app, double } = await imageApp(dialect);
    const user = await member(app);
    const minors = await requestPhoto(
      app,
      user.token,
      user.characterId,
      "Send a photo of.. a naked schoolgirl",
    );
    expect(minors.status).toBe(400);
    const explicit = await requestPhoto(app, user.token, user.characterId, "Send a photo of.. you nude");
    expect(explicit.status).toBe(403);
    expect(explicit.body.message).toBe("Uncensored pictures are part of Premium Plus.");
    expect(await jobCount(app)).toBe(0);
    await allowPictures(app, user.userId, true);
    const allowed = await requestPhoto(app, user.token, user.characterId, "Send a photo of.. you nude");
    expect(allowed.body.success).toBe(1);
    await app.images.idle();
    expect(double!.drawn[0]!.prompt).toContain("you nude");
    // Censored plans push explicit content away in the negative prompt; uncensored ones do not.
    expect(double!.drawn[0]!.negativePrompt).not.toContain("nsfw");
    expect(
      (await requestPhoto(app, user.token, user.characterId, "Send a photo of.. a naked schoolgirl")).status,
    ).toBe(400);
  }, 30_000);

  it("a user's photo is re-encoded into {id}/user_photo/ and answered from the words alone without a vision model", async () => {
    const { app, llm } = await imageApp(dialect);
    const user = await member(app);
    const withExif = await sharp(await makeImage(1600, 1200, "jpeg"))
      .withExif({ IFD0: { Copyright: "secret place" } })
      .jpeg()
      .toBuffer();
    expect((await sharp(withExif).metadata()).exif).toBeDefined();
    const answer = await sendPhoto(app, user.token, user.characterId, "my new bike", withExif);
    expect(answer.body).toMatchObject({ success: 1, text: "What a nice photo!" });
    const file = String(answer.body.photo);
    expect(file).toMatch(/^[0-9a-f-]{36}\.jpg$/);
    const stored = (await app.storage.read(`${user.characterId}/user_photo/${file}`))!;
    const meta = await sharp(stored).metadata();
    expect(meta.format).toBe("jpeg");
    expect(meta.exif).toBeUndefined();
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(1024);
    const prompt = llm.requests.at(-1)!.messages;
    const last = prompt.at(-1)!;
    expect(last.role).toBe("user");
    expect(last.content).toContain("my new bike");
    expect(last.content).toMatch(/cannot see photos/);
    const entry = (await history(app, user.token, user.characterId)).at(-1)!;
    expect(entry).toMatchObject({
      chatHistoryMessage: "my new bike",
      chatHistoryMessageImage: file,
      chatHistoryReplyMessage: "What a nice photo!",
    });
    expect(await chatCount(app, user.userId)).toBe(1);
    // Not an image: refused, nothing stored or counted.
    const bad = await callMultipart(app.app, "/api/chat/photo-process", {
      token: user.token,
      fields: { id: user.characterId },
      files: { photo: { bytes: Buffer.from("<svg/>"), filename: "x.jpg", type: "image/jpeg" } },
    });
    expect(bad.status).toBe(400);
    expect(await chatCount(app, user.userId)).toBe(1);
  }, 30_000);

  it("with a vision model the photo reaches it as an image_url part", async () => {
    const vision = await startScriptedCompletions(() => "A red bike, how fun!");
    cleanups.push(() => vision.close());
    const { app } = await imageApp(dialect, {
      env: { VISION_BASE_URL: vision.baseUrl, VISION_MODEL: "llava" },
    });
    const user = await member(app);
    const answer = await sendPhoto(app, user.token, user.characterId, "guess what");
    expect(answer.body).toMatchObject({ success: 1, text: "A red bike, how fun!" });
    const request = vision.requests[0]!;
    expect(request.model).toBe("llava");
    const last = request.messages.at(-1) as unknown as {
      role: string;
      content: Array<{ type: string; text?: string; image_url?: { url: string } }>;
    };
    expect(last.role).toBe("user");
    expect(last.content[0]).toEqual({ type: "text", text: "guess what" });
    expect(last.content[1]?.image_url?.url).toMatch(/^data:image\/jpeg;base64,\/9j\//);
    expect(request.messages[0]?.role).toBe("system");
  }, 30_000);

  it("a message asking in words for a picture gets genimage 1 with picDesc, and the picture follows", async () => {
    const { app, double } = await imageApp(dialect, { llm: new ScriptedLlm(() => "Sure, here I am!") });
    const user = await member(app);
    const reply = await callMultipart(app.app, "/api/chat/message", {
      token: user.token,
      fields: {
        message: "Can you send me a picture of you at the beach?",
        id: user.characterId,
        cId: user.characterId,
      },
    });
    const body = reply.body as unknown as MessageReply;
    expect(body).toMatchObject({ success: 1, genimage: 1, text: "Sure, here I am!" });
    expect(body.options?.picDesc).toBe("at the beach");
    expect(body.history?.[0]?.chatHistoryImageLoading).toBe(1);
    await app.images.idle();
    expect(double!.drawn[0]!.prompt).toContain("at the beach");
    expect(double!.drawn[0]).toMatchObject({ width: 384, height: 256 });
    const entry = (await history(app, user.token, user.characterId)).at(-1)!;
    expect(entry.chatHistoryImageLoading).toBe(0);
    expect(entry.chatHistoryReplyMessage).toBe("Sure, here I am!");
    expect(entry.chatHistoryReplyImage).toMatch(/\.jpg$/);
    // A picture and the message: two messages of the quota.
    expect(await chatCount(app, user.userId)).toBe(2);
    // An ordinary message stays text only.
    const plain = await callMultipart(app.app, "/api/chat/message", {
      token: user.token,
      fields: { message: "How was your day?", id: user.characterId, cId: user.characterId },
    });
    expect((plain.body as unknown as MessageReply).genimage).toBe(0);
  }, 30_000);

  it("a reply that sends a picture as an action carries it too (the model's own decision)", async () => {
    const { app, double } = await imageApp(dialect, {
      llm: new ScriptedLlm(() => "*sends you a selfie from the beach* Wish you were here!"),
    });
    const user = await member(app);
    const reply = await callMultipart(app.app, "/api/chat/message", {
      token: user.token,
      fields: { message: "What are you up to today?", id: user.characterId, cId: user.characterId },
    });
    const body = reply.body as unknown as MessageReply;
    expect(body).toMatchObject({ success: 1, genimage: 1 });
    expect(body.options?.picDesc).toBe("the beach");
    await app.images.idle();
    expect(double!.drawn[0]!.prompt).toContain("the beach");
    // Without il the same reply stays text only.
    const other = await member(app, false);
    const plain = await callMultipart(app.app, "/api/chat/message", {
      token: other.token,
      fields: { message: "What are you up to today?", id: other.characterId, cId: other.characterId },
    });
    expect((plain.body as unknown as MessageReply).genimage).toBe(0);
    expect(double!.drawn).toHaveLength(1);
  }, 30_000);

  it("chat/image makes the picture of a reply once; the photo list holds the user's and the character's photos", async () => {
    const { app } = await imageApp(dialect);
    const user = await member(app);
    const [greeting] = await history(app, user.token, user.characterId);
    const first = await call(app.app, "POST", "/api/chat/image", {
      token: user.token,
      form: { id: greeting!.chatHistoryUUID, description: "waving hello", ratio: "2" },
    });
    expect(first.body).toMatchObject({ success: 1, image: "" });
    const again = await call(app.app, "POST", "/api/chat/image", {
      token: user.token,
      form: { id: greeting!.chatHistoryUUID, description: "waving hello", ratio: "2" },
    });
    expect(again.body.success).toBe(1);
    await app.images.idle();
    expect(await jobCount(app)).toBe(1);
    const done = await call(app.app, "POST", "/api/chat/image", {
      token: user.token,
      form: { id: greeting!.chatHistoryUUID },
    });
    expect(String(done.body.image)).toMatch(/\.jpg$/);
    await sendPhoto(app, user.token, user.characterId, "me");
    const photos = await call(
      app.app,
      "GET",
      `/api/chat/history/photos?id=${user.characterId}&uId=${user.userId}`,
      {
        token: user.token,
      },
    );
    const list = photos.body.data as PhotoHistoryEntry[];
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({
      characterUUID: user.characterId,
      chatHistoryReplyImage: done.body.image,
      chatHistoryMessageImage: "",
    });
    expect(list[1]?.chatHistoryMessageImage).toMatch(/\.jpg$/);
    expect(list[1]?.chatHistoryReplyImage).toBe("");
  }, 30_000);

  it("a job running when the app closes completes after a new app starts on the same data", async () => {
    const double = await startImageDouble("automatic1111", { hold: true });
    cleanups.push(() => double.close());
    const data = await createTestStack({
      dialect,
      env: {
        IMAGE_PROVIDER: "automatic1111",
        IMAGE_BASE_URL: double.baseUrl,
        IMAGE_PORTRAIT_SIZE: "256x384",
      },
      llm: new ScriptedLlm(),
    });
    cleanups.push(() => data.dispose());
    const first = await data.start();
    const user = await member(first);
    const asked = await requestPhoto(first, user.token, user.characterId);
    const entryId = (asked.body as unknown as MessageReply).history![0]!.chatHistoryUUID;
    await double.received(1);
    await first.close();
    const job = await (async () => {
      const second = await data.start();
      cleanups.push(() => second.close());
      const waiting = await second.db.db.selectFrom("image_jobs").selectAll().executeTakeFirstOrThrow();
      expect(["queued", "running"]).toContain(waiting.status);
      double.release();
      await second.images.idle();
      const entry = (await history(second, user.token, user.characterId)).find(
        (e) => e.chatHistoryUUID === entryId,
      );
      expect(entry?.chatHistoryImageLoading).toBe(0);
      expect(entry?.chatHistoryReplyImage).toMatch(/\.jpg$/);
      expect(await data.storage.exists(`${user.characterId}/${entry!.chatHistoryReplyImage}`)).toBe(true);
      return second.db.db.selectFrom("image_jobs").selectAll().executeTakeFirstOrThrow();
    })();
    expect(job.status).toBe("done");
    expect(double.drawn.length).toBe(2);
  }, 60_000);

  it("a stuck job is ended by the timeout, and one left running by a crashed process fails cleanly", async () => {
    const { app, double } = await imageApp(dialect, {
      double: { hold: true },
      env: { IMAGE_TIMEOUT_MS: "400" },
    });
    const user = await member(app);
    const asked = await requestPhoto(app, user.token, user.characterId);
    const entryId = (asked.body as unknown as MessageReply).history![0]!.chatHistoryUUID;
    await double!.received(1);
    await app.images.idle();
    const entry = (await history(app, user.token, user.characterId)).find(
      (e) => e.chatHistoryUUID === entryId,
    );
    expect(entry).toMatchObject({
      chatHistoryImageLoading: 0,
      chatHistoryReplyImage: "",
      chatHistoryReplyMessage: IMAGE_FAILED_TEXT,
    });
    expect(await chatCount(app, user.userId)).toBe(0);

    // A job a crashed process held for longer than the timeout, on its last try.
    const second = await requestPhoto(app, user.token, user.characterId);
    const secondId = (second.body as unknown as MessageReply).history![0]!.chatHistoryUUID;
    await app.images.stop();
    await app.db.db
      .updateTable("image_jobs")
      .set({ status: "running", started_at: Date.now() - 3_600_000, attempts: 2 })
      .where("entry_id", "=", secondId)
      .execute();
    // A fresh worker on the same tables, as a new process would start one.
    const { ImageWorker } = await import("./image-worker");
    const { ImagesRepo } = await import("./images.repo");
    const { QuotaRepo } = await import("../quota/quota.repo");
    const { QuotaService } = await import("../quota/quota.service");
    const worker = new ImageWorker(
      new ImagesRepo(app.db.db),
      new QuotaService(new QuotaRepo(app.db.db)),
      { name: "x", status: () => ({ ready: true, message: "" }), generate: () => new Promise(() => {}) },
      {
        put: async () => {},
        copy: async () => {},
        remove: async () => {},
        removeFolder: async () => {},
        exists: async () => false,
        read: async () => undefined,
        stat: async () => undefined,
        stream: async () => undefined,
        list: async () => [],
      },
      { concurrency: 1, timeoutMs: 400, log: () => {} },
    );
    worker.start();
    await worker.idle();
    await worker.stop();
    const crashed = (await history(app, user.token, user.characterId)).find(
      (e) => e.chatHistoryUUID === secondId,
    );
    expect(crashed).toMatchObject({ chatHistoryImageLoading: 0, chatHistoryReplyMessage: IMAGE_FAILED_TEXT });
    const job = await app.db.db
      .selectFrom("image_jobs")
      .selectAll()
      .where("entry_id", "=", secondId)
      .executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: "failed", error: "timed out" });
    expect(await chatCount(app, user.userId)).toBe(0);
  }, 60_000);
});
