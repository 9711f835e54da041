import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { S3Storage } from "../server/providers/storage/s3";
import type { FileStorage } from "../server/providers/storage/storage";
import { describeEachDatabase } from "../server/testing/api";
import { ScriptedLlm } from "../server/testing/fake-llm";
import {
  addPresetCharacter,
  cardV2Base64,
  contentCookieOf,
  firstLanguage,
  http,
  jpegOf,
  listFiles,
  pngWithText,
  type Session,
  setUser,
  signIn,
} from "./support/fixtures";
import { rawRequest } from "./support/raw-http";
import { type ListeningApp, startListening } from "./support/server";

/** A file the server chose: a UUID and .jpg, nothing of the client's name. */
const SERVER_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jpg$/;

describe("path traversal in file names, stored names, voice names, ids and raw paths", () => {
  let t: ListeningApp;
  let u: Session;
  let v: Session;
  let characterId = "";
  let languageId = "";
  /** A marker no file name may ever contain. */
  const mark = `traversal-${randomBytes(4).toString("hex")}`;
  /** Files beside the content folder (inside DATA_DIR) that nothing may read, write or remove. */
  let sentinel = "";
  let outsideJpeg = "";
  let sentinelText = "";
  let secretText = "";
  let victimPhoto = "";
  /**
   * On the shared stack the same files are also planted in the bucket outside the app's
   * S3_PREFIX (where "../" from the prefix would lead): nothing may reach those either.
   */
  let bucket: FileStorage | undefined;

  /** Writes `bytes` beside the content folder: in DATA_DIR, and at the bucket's root under S3. */
  const plantOutside = async (name: string, bytes: Buffer) => {
    fs.writeFileSync(path.join(t.dataDir, name), bytes);
    await bucket?.put(name, bytes);
    return path.join(t.dataDir, name);
  };
  /** The sentinel, as read from DATA_DIR and (S3) from the bucket's root. */
  const sentinels = async () => [
    fs.readFileSync(sentinel, "utf8"),
    ...(bucket ? [(await bucket.read("sentinel.txt"))?.toString()] : []),
  ];

  /** Every file of DATA_DIR, the temp folder and the bucket whose name carries the marker. */
  const markedFiles = async () =>
    [...listFiles(t.dataDir), ...fs.readdirSync(os.tmpdir()), ...((await bucket?.list("")) ?? [])].filter(
      (name) => name.includes(mark),
    );

  beforeAll(async () => {
    t = await startListening({ llm: new ScriptedLlm(() => "Nice.") });
    u = await signIn(t.url);
    v = await signIn(t.url);
    await setUser(t, u.userId, { photo_upload: 1, image_generation: 1, character_limit: 50 });
    characterId = await addPresetCharacter(t.url, u.token, 0);
    const victimCharacter = await addPresetCharacter(t.url, v.token, 1);
    victimPhoto = (
      (await http(t.url, "GET", `/api/characters/?id=${victimCharacter}`, { token: v.token })).json.data as {
        characterPhoto: string;
      }
    ).characterPhoto;
    languageId = await firstLanguage(t.url, u.token);
    if (t.config.s3) bucket = new S3Storage({ ...t.config.s3, prefix: "" });
    sentinelText = `sentinel ${mark}`;
    sentinel = await plantOutside("sentinel.txt", Buffer.from(sentinelText));
    outsideJpeg = await plantOutside("outside.jpg", await jpegOf(20, 20, "#00ff00"));
    // The picture cookie's secret: a file beside the content folder unless CONTENT_SECRET is set.
    secretText =
      t.config.CONTENT_SECRET || fs.readFileSync(path.join(t.dataDir, "content-secret"), "utf8").trim();
  });
  afterAll(async () => {
    await t?.dispose();
  });

  const hostile = () => [
    `../../${mark}.jpg`,
    `../../../../../../tmp/${mark}-a.jpg`,
    `..%2F..%2F${mark}.jpg`,
    `..\\..\\${mark}.jpg`,
    `/tmp/${mark}-abs.jpg`,
    `${path.join(t.dataDir, `${mark}-abs.jpg`)}`,
    `${mark}.jpg\u0000.html`,
    `characters/../../${mark}.jpg`,
  ];

  it("a hostile upload file name is never used: the file lands under content/ with a server-chosen name", async () => {
    const photo = await jpegOf(24, 24);
    for (const filename of hostile()) {
      const file = { name: "photo", value: photo, filename, type: "image/jpeg" };
      const contentBefore = await t.storage.list("");

      const created = await http(t.url, "POST", "/api/characters/create", {
        token: u.token,
        parts: [
          { name: "name", value: "Trav" },
          { name: "sex", value: "0" },
          { name: "voice", value: "English Female" },
          { name: "language", value: languageId },
          { name: "description", value: "d" },
          file,
        ],
      });
      expect(created.json.success, `create with ${JSON.stringify(filename)}`).toBe(1);
      expect((created.json.data as { characterPhoto: string }).characterPhoto).toMatch(SERVER_NAME);

      const profile = await http(t.url, "POST", "/api/users/update", {
        token: u.token,
        parts: [{ name: "fname", value: "U" }, { name: "name", value: "u" }, file],
      });
      expect(profile.json.success, `profile with ${JSON.stringify(filename)}`).toBe(1);

      const sent = await http(t.url, "POST", "/api/chat/photo-process", {
        token: u.token,
        parts: [{ name: "id", value: characterId }, file],
      });
      expect(sent.json.success, `photo with ${JSON.stringify(filename)}`).toBe(1);
      expect(String(sent.json.photo)).toMatch(SERVER_NAME);

      const card = await http(t.url, "POST", "/api/characters/import", {
        token: u.token,
        parts: [
          {
            name: "card",
            value: await pngWithText({ chara: cardV2Base64({ name: "Carded" }) }),
            filename: filename.replace(/\.jpg/g, ".png"),
            type: "image/png",
          },
        ],
      });
      expect(card.json.success, `card with ${JSON.stringify(filename)}`).toBe(1);

      const added = (await t.storage.list("")).filter((f) => !contentBefore.includes(f));
      for (const file of added) {
        expect(file).toMatch(/^(characters|users|[0-9a-f-]{36}\/user_photo)[/\\][0-9a-f-]{36}\.jpg$/);
      }
      // The user's profile picture replaced the previous one (removed), so 3 or 4 new files.
      expect(added.length).toBeGreaterThanOrEqual(3);
    }
    expect(await markedFiles()).toEqual([]);
    expect(fs.existsSync(`/tmp/${mark}-abs.jpg`)).toBe(false);
  });

  it("old_photo naming files outside (or another user's photo) is ignored: nothing is removed or read", async () => {
    const photo = await jpegOf(24, 24);
    const names = [
      "../../sentinel.txt",
      "../sentinel.txt",
      "../content-secret",
      sentinel,
      `../characters/${victimPhoto}`,
      victimPhoto,
      "../../../../../../etc/hostname",
      `..%2F..%2Fsentinel.txt`,
      `x\u0000../../sentinel.txt`,
    ];
    for (const old of names) {
      // A NUL in any field is refused before the handler (400); any other name is ignored.
      const expected = old.includes("\u0000") ? 0 : 1;
      for (const withPhoto of [true, false]) {
        const answer = await http(t.url, "POST", "/api/characters/update", {
          token: u.token,
          parts: [
            { name: "id", value: characterId },
            { name: "name", value: "Trav" },
            { name: "sex", value: "0" },
            { name: "voice", value: "English Female" },
            { name: "language", value: languageId },
            { name: "description", value: "d" },
            { name: "old_photo", value: old },
            ...(withPhoto ? [{ name: "photo", value: photo, filename: "p.jpg", type: "image/jpeg" }] : []),
          ],
        });
        expect(answer.json.success, `old_photo ${JSON.stringify(old)}`).toBe(expected);
        const profile = await http(t.url, "POST", "/api/users/update", {
          token: u.token,
          parts: [
            { name: "fname", value: "U" },
            { name: "name", value: "u" },
            { name: "old_photo", value: old },
            ...(withPhoto ? [{ name: "photo", value: photo, filename: "p.jpg", type: "image/jpeg" }] : []),
          ],
        });
        expect(profile.json.success, `profile old_photo ${JSON.stringify(old)}`).toBe(expected);
      }
    }
    for (const text of await sentinels()) expect(text).toBe(sentinelText);
    if (!t.config.CONTENT_SECRET) {
      expect(fs.readFileSync(path.join(t.dataDir, "content-secret"), "utf8").trim()).toBe(secretText);
    }
    expect(await t.storage.exists(`characters/${victimPhoto}`)).toBe(true);
    const detail = await http(t.url, "GET", `/api/characters/?id=${characterId}`, { token: u.token });
    expect((detail.json.data as { characterPhoto: string }).characterPhoto).toMatch(SERVER_NAME);
  });

  it("a voice name with a path in it reads nothing: 404 Unknown voice (400 with a NUL)", async () => {
    for (const name of [
      "../../../../../../etc/passwd",
      "..%2F..%2Fcontent-secret",
      "../content-secret",
      "/etc/passwd",
      `${sentinel}`,
      "English Female/../../sentinel.txt",
      "English Female\u0000../../sentinel.txt",
    ]) {
      const answer = await http(
        t.url,
        "GET",
        `/api/characters/voice/preview/?v=${encodeURIComponent(name)}`,
        {
          token: u.token,
        },
      );
      // A NUL is refused before the lookup (400); every other name is simply unknown (404).
      expect(answer.status, name).toBe(name.includes("\u0000") ? 400 : 404);
      const text = answer.raw.toString();
      expect(text).not.toContain("root:");
      expect(text).not.toContain(secretText);
      expect(text).not.toContain(sentinelText);
    }
  });

  it("chat, character and group ids with a path in them are refused (400/404) and touch no file", async () => {
    const contentBefore = await t.storage.list("");
    const photo = await jpegOf(24, 24);
    const ids = [
      "..",
      ".",
      "../..",
      "../../..",
      "..%2F..",
      "/etc",
      "characters",
      "../characters",
      "characters/..",
      `${characterId}/../..`,
      `${characterId}/..`,
      `../${characterId}`,
      "users",
      "\u0000",
    ];
    const failures: string[] = [];
    for (const id of ids) {
      const q = encodeURIComponent(id);
      const requests: Array<Parameters<typeof http>> = [
        [t.url, "GET", `/api/chat/new?id=${q}`, { token: u.token }],
        [t.url, "GET", `/api/chat/history?id=${q}`, { token: u.token }],
        [t.url, "GET", `/api/chat/history/photos?id=${q}`, { token: u.token }],
        [t.url, "GET", `/api/chat/profile/?id=${q}`, { token: u.token }],
        [t.url, "GET", `/api/chat/memories?id=${q}`, { token: u.token }],
        [t.url, "GET", `/api/characters/?id=${q}`, { token: u.token }],
        [t.url, "GET", `/api/characters/export/?id=${q}`, { token: u.token }],
        [t.url, "DELETE", `/api/characters/delete/?id=${q}`, { token: u.token }],
        [t.url, "DELETE", `/api/characters/group/delete/?id=${q}`, { token: u.token }],
        [t.url, "GET", `/api/chat/group/new?cId=${q}`, { token: u.token }],
        [t.url, "POST", "/api/chat/message", { token: u.token, form: { id, message: "hi" } }],
        [
          t.url,
          "POST",
          "/api/chat/photo-process",
          {
            token: u.token,
            parts: [
              { name: "id", value: id },
              { name: "photo", value: photo, filename: "p.jpg", type: "image/jpeg" },
            ],
          },
        ],
      ];
      for (const request of requests) {
        const answer = await http(...request);
        if (![400, 404].includes(answer.status) || answer.json.success !== 0) {
          failures.push(`${request[1]} ${request[2]} id=${JSON.stringify(id)}: ${answer.status}`);
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await t.storage.list("")).toEqual(contentBefore);
    for (const text of await sentinels()) expect(text).toBe(sentinelText);
  });

  it("raw /content paths that climb out of the content folder serve nothing from outside", async () => {
    const cookie = await contentCookieOf(t.url, u.token);
    const outside = fs.readFileSync(outsideJpeg);
    const targets = [
      "/content/../sentinel.txt",
      "/content/../content-secret",
      "/content/..%2fsentinel.txt",
      "/content/..%2Fcontent-secret",
      "/content/%2e%2e/sentinel.txt",
      "/content/%2e%2e%2fsentinel.txt",
      "/content/%2E%2E%2Fcontent-secret",
      "/content/%252e%252e/sentinel.txt",
      "/content/..%5csentinel.txt",
      "/content/..\\sentinel.txt",
      "/content/....//sentinel.txt",
      "/content/.../sentinel.txt",
      "/content/..;/sentinel.txt",
      "/content/%00../sentinel.txt",
      "/content/characters/../../sentinel.txt",
      "/content/characters/..%2F..%2Fsentinel.txt",
      "/content/characters/%2e%2e/%2e%2e/content-secret",
      `/content/${characterId}/../../sentinel.txt`,
      `/content/${characterId}/..%2F..%2Fcontent-secret`,
      `/content/${characterId}/user_photo/..%2F..%2F..%2Foutside.jpg`,
      "/content/..%2Foutside.jpg",
      "/content/%2e%2e/outside.jpg",
      "/content/characters/..%2F..%2Foutside.jpg",
      "/content/../../../../../../etc/passwd",
      "/content/..%2F..%2F..%2F..%2F..%2F..%2Fetc%2Fpasswd",
      "/content//etc/passwd",
      "/content/%2Fetc%2Fpasswd",
      "/../../../../etc/passwd",
      "/%2e%2e/%2e%2e/%2e%2e/etc/passwd",
      "/content/app.db",
      "/content/../app.db",
      "/content/..%2Fapp.db",
    ];
    const failures: string[] = [];
    for (const target of targets) {
      for (const headers of [{}, { cookie }] as Array<Record<string, string>>) {
        let answer: Awaited<ReturnType<typeof rawRequest>>;
        try {
          answer = await rawRequest(t.url, "GET", target, { headers });
        } catch {
          continue; // the server closed the connection: nothing was served
        }
        const body = answer.body;
        const served =
          body.includes(Buffer.from(sentinelText)) ||
          body.includes(Buffer.from(secretText)) ||
          body.includes(Buffer.from("root:")) ||
          body.includes(Buffer.from("SQLite format 3")) ||
          body.equals(outside);
        if (served) failures.push(`${target}: ${answer.status} served a file from outside content/`);
        if (answer.status >= 500) failures.push(`${target}: ${answer.status}`);
      }
    }
    expect(failures).toEqual([]);
    // The server still serves its own content afterwards.
    const own = await http(t.url, "GET", `/content/characters/${victimPhoto}`);
    expect(own.status).toBe(200);
  });
});

describeEachDatabase("NUL bytes in ids and text fields", (dialect) => {
  let t: ListeningApp;
  let u: Session;
  let characterId = "";
  beforeAll(async () => {
    t = await startListening({ dialect, llm: new ScriptedLlm(() => "Nice.") });
    u = await signIn(t.url);
    characterId = await addPresetCharacter(t.url, u.token, 0);
  });
  afterAll(async () => {
    await t?.dispose();
  });

  // PostgreSQL refuses text with a NUL byte ("invalid byte sequence for encoding UTF8: 0x00"); the
  // server refuses such input itself (400) before any query.
  it("are answered as a client's mistake (never 5xx), signed in or not", async () => {
    const requests: Array<Parameters<typeof http>> = [
      [t.url, "POST", "/api/auth/login", { form: { email: "a\u0000@example.com", password: "x" } }],
      [t.url, "POST", "/api/auth/demo-login", { form: { id: "demo\u0000" } }],
      [t.url, "POST", "/api/auth/device-login", { form: { id: `${"d".repeat(24)}\u0000` } }],
      [t.url, "GET", "/api/chat/history?id=%00", { token: u.token }],
      [t.url, "GET", `/api/chat/profile/?id=${characterId}%00`, { token: u.token }],
      [t.url, "GET", "/api/characters/voice/preview/?v=English%00Female", { token: u.token }],
      [t.url, "POST", "/api/chat/message", { token: u.token, form: { id: "\u0000", message: "hi" } }],
      // Multipart fields too (the shared stack found this one answering 500 on PostgreSQL).
      [
        t.url,
        "POST",
        "/api/chat/photo-process",
        { token: u.token, parts: [{ name: "id", value: "\u0000" }] },
      ],
      [
        t.url,
        "POST",
        "/api/chat/message",
        {
          token: u.token,
          parts: [
            { name: "id", value: "x\u0000" },
            { name: "message", value: "hi" },
          ],
        },
      ],
    ];
    const failures: string[] = [];
    for (const request of requests) {
      const answer = await http(...request);
      if (answer.status >= 500) failures.push(`${request[1]} ${request[2]}: ${answer.status}`);
    }
    expect(failures).toEqual([]);
  });
});
