import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { S3Storage } from "../../providers/storage/s3";
import { call, callMultipart, demoWithCharacter, describeEachDatabase } from "../../testing/api";
import { ScriptedLlm } from "../../testing/fake-llm";
import { makeImage } from "../../testing/image-servers";
import { allowPictures, contentCookie } from "../../testing/images";
import { startTestS3, type TestS3 } from "../../testing/s3-server";
import { createTestApp, localDiskOnly, type TestApp } from "../../testing/server";

/**
 * Content on S3-compatible object storage, through the API: with S3_BUCKET set the
 * seeded pictures, a copied preset photo and an uploaded chat photo live in the bucket (s3rver in
 * process, under S3_PREFIX) and nothing under the content folder, and /content/ serves them with
 * the same access rules and HTTP caching, HEAD and Range answers as from disk.
 */
describeEachDatabase("content on S3", (dialect) => {
  let s3: TestS3;
  let app: TestApp;
  let bucket: S3Storage;

  beforeAll(async () => {
    s3 = await startTestS3({ prefix: "companion" });
    app = await createTestApp({ dialect, llm: new ScriptedLlm(() => "What a nice photo!"), env: s3.env });
    bucket = new S3Storage(s3.config);
  });
  afterAll(async () => {
    await app?.dispose();
    await s3?.close();
  });

  const get = (url: string, headers: Record<string, string> = {}, method: "GET" | "HEAD" = "GET") =>
    app.app.inject({ method, url, headers });

  it("seeds the public pictures into the bucket and serves them, with the fallback picture", async () => {
    const fallback = await bucket.read("user.jpg");
    expect(fallback?.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    const { token } = await demoWithCharacter(app.app);
    const presets = await call(app.app, "GET", "/api/characters/selection", { token });
    const file = (presets.body.data as Array<{ characterPhoto: string }>)[0]!.characterPhoto;
    const preset = await get(`/content/predefined-characters/${file}`);
    expect(preset.statusCode).toBe(200);
    expect(preset.headers["content-type"]).toBe("image/jpeg");
    expect(preset.headers["cache-control"]).toBe("public, max-age=3600");
    expect(preset.rawPayload.equals((await bucket.read(`predefined-characters/${file}`))!)).toBe(true);
    // product.md §3: a missing public picture is user.jpg.
    const missing = await get("/content/characters/no-such-photo.jpg");
    expect(missing.statusCode).toBe(200);
    expect(missing.rawPayload.equals(fallback!)).toBe(true);
    expect(missing.headers["content-disposition"]).toBe('inline; filename="user.jpg"');
    expect((await get("/content/voice/no-such-voice.mp3")).statusCode).toBe(404);
    // Nothing went to the local content folder (made empty by the HTTP setup).
    const local = path.join(app.dataDir, "content");
    expect(fs.existsSync(local) ? fs.readdirSync(local) : []).toEqual([]);
  });

  it("stores an uploaded chat photo in the bucket and serves it to its owner only, with HEAD, 304 and Range", async () => {
    const owner = await demoWithCharacter(app.app);
    await allowPictures(app, owner.userId);
    const stranger = await demoWithCharacter(app.app);
    // The character's photo was copied from its preset inside the bucket.
    const list = await call(app.app, "GET", `/api/characters/list/?id=${owner.userId}`, {
      token: owner.token,
    });
    const characterPhoto = (list.body.data as Array<{ characterPhoto: string }>)[0]!.characterPhoto;
    expect(await bucket.exists(`characters/${characterPhoto}`)).toBe(true);
    expect((await get(`/content/characters/${characterPhoto}`)).statusCode).toBe(200);

    const upload = await callMultipart(app.app, "/api/chat/photo-process", {
      token: owner.token,
      fields: { id: owner.characterId, message: "my new bike" },
      files: { photo: { bytes: await makeImage(640, 480, "jpeg"), filename: "me.jpg", type: "image/jpeg" } },
    });
    expect(upload.body).toMatchObject({ success: 1 });
    const key = `${owner.characterId}/user_photo/${String(upload.body.photo)}`;
    const stored = await bucket.read(key);
    expect(stored?.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    // Under S3_PREFIX in the bucket, not on disk.
    const root = new S3Storage({ ...s3.config, prefix: "" });
    expect(await root.exists(`companion/${key}`)).toBe(true);
    expect(fs.existsSync(path.join(app.dataDir, "content", owner.characterId))).toBe(false);

    const url = `/content/${key}`;
    const cookie = await contentCookie(app, owner.token);
    const own = await get(url, { cookie });
    expect(own.statusCode).toBe(200);
    expect(own.rawPayload.equals(stored!)).toBe(true);
    expect(own.headers).toMatchObject({
      "content-type": "image/jpeg",
      "content-length": String(stored!.length),
      "cache-control": "private, no-store",
      "content-disposition": `inline; filename="${upload.body.photo}"`,
      "x-content-type-options": "nosniff",
      "accept-ranges": "bytes",
    });
    const etag = String(own.headers.etag);
    const lastModified = String(own.headers["last-modified"]);
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(Date.parse(lastModified)).not.toBeNaN();

    // The access rules hold on S3 too: another user's cookie, none, or a dot-segment spelling.
    const otherCookie = await contentCookie(app, stranger.token);
    for (const [target, headers] of [
      [url, { cookie: otherCookie }],
      [url, {}],
      [`/content/users/../${key}`, { cookie: otherCookie }],
    ] as const) {
      const refused = await get(target, headers);
      expect(refused.statusCode, target).toBe(404);
      expect(refused.rawPayload.includes(stored!.subarray(0, 64))).toBe(false);
      expect(refused.headers.etag).toBeUndefined();
    }
    expect((await get(url, { cookie: otherCookie }, "HEAD")).statusCode).toBe(404);

    const head = await get(url, { cookie }, "HEAD");
    expect(head.statusCode).toBe(200);
    expect(head.headers["content-length"]).toBe(String(stored!.length));
    expect(head.headers["content-type"]).toBe("image/jpeg");
    expect(head.headers.etag).toBe(etag);
    expect(head.rawPayload.length).toBe(0);

    const conditionals: Array<Record<string, string>> = [
      { "if-none-match": etag },
      { "if-modified-since": lastModified },
    ];
    for (const conditional of conditionals) {
      const cached = await get(url, { cookie, ...conditional });
      expect(cached.statusCode).toBe(304);
      expect(cached.rawPayload.length).toBe(0);
      expect(cached.headers.etag).toBe(etag);
      expect(cached.headers["cache-control"]).toBe("private, no-store");
    }
    expect((await get(url, { cookie, "if-none-match": '"another"' })).statusCode).toBe(200);
    // A 304 still needs the owner's cookie.
    expect((await get(url, { cookie: otherCookie, "if-none-match": etag })).statusCode).toBe(404);

    const part = await get(url, { cookie, range: "bytes=10-19" });
    expect(part.statusCode).toBe(206);
    expect(part.headers["content-range"]).toBe(`bytes 10-19/${stored!.length}`);
    expect(part.headers["content-length"]).toBe("10");
    expect(part.rawPayload.equals(stored!.subarray(10, 20))).toBe(true);
    const tail = await get(url, { cookie, range: "bytes=-5" });
    expect(tail.rawPayload.equals(stored!.subarray(-5))).toBe(true);
    const outside = await get(url, { cookie, range: `bytes=${stored!.length + 10}-` });
    expect(outside.statusCode).toBe(416);
    expect(outside.headers["content-range"]).toBe(`bytes */${stored!.length}`);
    // If-Range with an old tag: the whole file.
    const stale = await get(url, { cookie, range: "bytes=0-9", "if-range": '"old"' });
    expect(stale.statusCode).toBe(200);
    expect(stale.rawPayload.equals(stored!)).toBe(true);
  });
});

/** The same route on the default local disk: a voice file answers as @fastify/static did. */
describe.skipIf(localDiskOnly("the local disk's weak ETag, 304, HEAD and ranges of a voice file"))(
  "content on local disk: caching and ranges of a voice file",
  () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await createTestApp();
    });
    afterAll(() => app?.dispose());

    it("serves an mp3 with a weak ETag, 304, HEAD and a seekable byte range", async () => {
      const bytes = Buffer.from(Array.from({ length: 4000 }, (_, i) => i % 251));
      fs.mkdirSync(path.join(app.dataDir, "content", "voice"), { recursive: true });
      fs.writeFileSync(path.join(app.dataDir, "content", "voice", "hello.mp3"), bytes);
      const url = "/content/voice/hello.mp3";
      const whole = await app.app.inject({ url });
      expect(whole.statusCode).toBe(200);
      expect(whole.headers).toMatchObject({
        "content-type": "audio/mpeg",
        "content-length": "4000",
        "cache-control": "public, max-age=3600",
        "accept-ranges": "bytes",
      });
      expect(whole.rawPayload.equals(bytes)).toBe(true);
      const etag = String(whole.headers.etag);
      expect(etag).toMatch(/^W\/"fa0-[0-9a-f]+"$/);
      expect((await app.app.inject({ url, headers: { "if-none-match": etag } })).statusCode).toBe(304);
      const head = await app.app.inject({ method: "HEAD", url });
      expect(head.headers["content-length"]).toBe("4000");
      expect(head.rawPayload.length).toBe(0);
      const seek = await app.app.inject({ url, headers: { range: "bytes=3000-" } });
      expect(seek.statusCode).toBe(206);
      expect(seek.headers["content-range"]).toBe("bytes 3000-3999/4000");
      expect(seek.rawPayload.equals(bytes.subarray(3000))).toBe(true);
    });
  },
);
