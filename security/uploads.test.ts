import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writePngTextChunks } from "../server/modules/characters/png-chunks";
import { ScriptedLlm } from "../server/testing/fake-llm";
import {
  addPresetCharacter,
  cardV2Base64,
  contentCookieOf,
  firstLanguage,
  GIF_1X1,
  type HttpAnswer,
  http,
  isJpegBytes,
  jpegClaiming,
  jpegOf,
  pngClaiming,
  pngOf,
  pngWithText,
  polyglotJpeg,
  type Session,
  setUser,
  signIn,
} from "./support/fixtures";
import { type ListeningApp, startListening } from "./support/server";

/** Longest a refused picture may take to be refused, milliseconds (no decoding of a bomb). */
const BOUNDED_MS = 5_000;

describe("disguised uploads and pixel bombs on every route that takes a picture", () => {
  let t: ListeningApp;
  let u: Session;
  let admin: Session;
  let characterId = "";
  let languageId = "";
  /** Every stored file, through the app's storage: the local disk, or S3 on the shared stack. */
  const contentFiles = () => t.storage.list("");

  beforeAll(async () => {
    t = await startListening({ llm: new ScriptedLlm(() => "What a picture.") });
    u = await signIn(t.url);
    admin = await signIn(t.url);
    await setUser(t, u.userId, {
      photo_upload: 1,
      image_generation: 1,
      character_limit: 100,
      chat_limit: 1000,
    });
    await t.db.db.updateTable("users").set({ role: "admin" }).where("id", "=", admin.userId).execute();
    characterId = await addPresetCharacter(t.url, u.token, 0);
    languageId = await firstLanguage(t.url, u.token);
  });
  afterAll(async () => {
    await t?.dispose();
  });

  const characterFields = [
    { name: "name", value: "Pic" },
    { name: "sex", value: "0" },
    { name: "voice", value: "English Female" },
    { name: "description", value: "d" },
  ];

  /** Every route that stores an uploaded picture, with the part that carries it. */
  const uploads: Array<{
    name: string;
    send(photo: { bytes: Buffer; filename: string; type: string }): Promise<HttpAnswer>;
  }> = [
    {
      name: "character create",
      send: (p) =>
        http(t.url, "POST", "/api/characters/create", {
          token: u.token,
          parts: [
            ...characterFields,
            { name: "language", value: languageId },
            { name: "photo", value: p.bytes, filename: p.filename, type: p.type },
          ],
        }),
    },
    {
      name: "character update",
      send: (p) =>
        http(t.url, "POST", "/api/characters/update", {
          token: u.token,
          parts: [
            { name: "id", value: characterId },
            ...characterFields,
            { name: "language", value: languageId },
            { name: "photo", value: p.bytes, filename: p.filename, type: p.type },
          ],
        }),
    },
    {
      name: "profile picture",
      send: (p) =>
        http(t.url, "POST", "/api/users/update", {
          token: u.token,
          parts: [
            { name: "fname", value: "U" },
            { name: "name", value: "u" },
            { name: "photo", value: p.bytes, filename: p.filename, type: p.type },
          ],
        }),
    },
    {
      name: "photo in the chat",
      send: (p) =>
        http(t.url, "POST", "/api/chat/photo-process", {
          token: u.token,
          parts: [
            { name: "id", value: characterId },
            { name: "photo", value: p.bytes, filename: p.filename, type: p.type },
          ],
        }),
    },
    {
      name: "admin preset",
      send: (p) =>
        http(t.url, "POST", "/api/admin/presets", {
          token: admin.token,
          parts: [
            ...characterFields,
            { name: "languageId", value: languageId },
            { name: "photo", value: p.bytes, filename: p.filename, type: p.type },
          ],
        }),
    },
  ];

  it("SVG, HTML, GIF, WebP and a JPEG header before HTML are refused with 400 on every route, storing nothing", async () => {
    const svg = Buffer.from(
      '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script></svg>',
    );
    const disguised = [
      { bytes: svg, filename: "cute.png", type: "image/png" },
      { bytes: svg, filename: "cute.svg", type: "image/svg+xml" },
      {
        bytes: Buffer.from("<!doctype html><html><script>alert(1)</script></html>"),
        filename: "a.jpg",
        type: "image/jpeg",
      },
      { bytes: GIF_1X1, filename: "a.jpg", type: "image/jpeg" },
      {
        bytes: await sharp(await pngOf(8, 8))
          .webp()
          .toBuffer(),
        filename: "a.png",
        type: "image/png",
      },
      {
        bytes: Buffer.concat([
          Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
          Buffer.from("<html><script>alert(1)</script>"),
        ]),
        filename: "a.jpg",
        type: "image/jpeg",
      },
      {
        bytes: Buffer.concat([
          (await pngOf(8, 8)).subarray(0, 8),
          Buffer.from("<html><script>alert(1)</script>"),
        ]),
        filename: "a.png",
        type: "image/png",
      },
    ];
    const before = await contentFiles();
    const failures: string[] = [];
    for (const upload of uploads) {
      for (const photo of disguised) {
        const answer = await upload.send(photo);
        if (
          answer.status !== 400 ||
          answer.json.success !== 0 ||
          !String(answer.json.message).startsWith("photo:")
        ) {
          failures.push(
            `${upload.name} ${photo.filename} (${photo.bytes.subarray(0, 8).toString("hex")}): ${answer.status} ${answer.raw.toString().slice(0, 120)}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
    expect(await contentFiles()).toEqual(before);
  });

  it("a polyglot JPEG, a PNG named .jpg and a PNG with script in its text are stored as fresh JPEGs with no markup", async () => {
    const accepted = [
      { bytes: await polyglotJpeg(), filename: "poly.jpg", type: "image/jpeg" },
      { bytes: await pngOf(40, 30), filename: "renamed.jpg", type: "image/jpeg" },
      {
        bytes: await pngWithText({
          Comment: "<html><script>alert(1)</script>",
          chara: "<svg onload=alert(1)>",
        }),
        filename: "text.png",
        type: "image/png",
      },
    ];
    const cookie = await contentCookieOf(t.url, u.token);
    for (const upload of uploads) {
      for (const photo of accepted) {
        const before = await contentFiles();
        const answer = await upload.send(photo);
        expect(answer.json.success, `${upload.name} ${photo.filename}: ${answer.raw.toString()}`).toBe(1);
        const added = (await contentFiles()).filter((f) => !before.includes(f));
        expect(added, `${upload.name} ${photo.filename}`).toHaveLength(1);
        const stored = (await t.storage.read(added[0]!))!;
        expect(isJpegBytes(stored)).toBe(true);
        expect((await sharp(stored).metadata()).format).toBe("jpeg");
        for (const markup of ["<script", "<html", "<svg", "alert("]) {
          expect(stored.includes(Buffer.from(markup)), `${markup} in ${added[0]}`).toBe(false);
        }
        const served = await http(t.url, "GET", `/content/${added[0]!}`, {
          cookie,
        });
        expect(served.status).toBe(200);
        expect(served.headers.get("x-content-type-options")).toBe("nosniff");
        expect(served.headers.get("content-type")).toMatch(/^image\/jpeg/);
        expect(served.raw.equals(stored)).toBe(true);
      }
    }
  });

  it("pixel bombs (small files claiming huge dimensions) are refused quickly with 413, storing nothing", async () => {
    const bombs = [
      { bytes: await pngClaiming(50_000, 50_000), filename: "bomb.png", type: "image/png" },
      { bytes: await pngClaiming(0x7fffffff, 0x7fffffff), filename: "max.png", type: "image/png" },
      { bytes: await jpegClaiming(65_000, 65_000), filename: "bomb.jpg", type: "image/jpeg" },
      { bytes: await jpegClaiming(8_000, 6_000), filename: "48mp.jpg", type: "image/jpeg" },
    ];
    const before = await contentFiles();
    const failures: string[] = [];
    for (const upload of uploads) {
      for (const bomb of bombs) {
        const answer = await upload.send(bomb);
        // 413 from the header's dimensions; 400 only where the header itself is unreadable.
        if (![400, 413].includes(answer.status) || answer.json.success !== 0) {
          failures.push(
            `${upload.name} ${bomb.filename}: ${answer.status} ${answer.raw.toString().slice(0, 120)}`,
          );
        }
        if (answer.elapsedMs > BOUNDED_MS)
          failures.push(`${upload.name} ${bomb.filename}: ${answer.elapsedMs} ms`);
      }
    }
    expect(failures).toEqual([]);
    const bomb = await uploads[0]!.send(bombs[0]!);
    expect(bomb.status).toBe(413);
    expect(bomb.json.message).toMatch(/too large/);
    expect(await contentFiles()).toEqual(before);
  });

  it("a card PNG that is a pixel bomb is refused the same way and creates no character", async () => {
    const count = async () =>
      (await http(t.url, "GET", "/api/characters/list/", { token: u.token })).json.data as unknown[];
    const before = { characters: (await count()).length, files: await contentFiles() };
    const bomb = await pngClaiming(50_000, 50_000);
    const card = writePngTextChunks(bomb, { chara: cardV2Base64({ name: "Bomb" }) });
    const answer = await http(t.url, "POST", "/api/characters/import", {
      token: u.token,
      parts: [{ name: "card", value: card, filename: "bomb.png", type: "image/png" }],
    });
    expect([400, 413]).toContain(answer.status);
    expect(answer.elapsedMs).toBeLessThan(BOUNDED_MS);
    expect((await count()).length).toBe(before.characters);
    expect(await contentFiles()).toEqual(before.files);
  });

  it("twenty bombs at once are all refused in bounded time and the server keeps answering", async () => {
    const bomb = await pngClaiming(50_000, 50_000);
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        uploads[i % uploads.length]!.send({ bytes: bomb, filename: "b.png", type: "image/png" }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 413));
    expect(performance.now() - started).toBeLessThan(BOUNDED_MS * 2);
    const health = await http(t.url, "GET", "/api/health");
    expect(health.status).toBe(200);
    const real = await uploads[0]!.send({
      bytes: await jpegOf(16, 16),
      filename: "ok.jpg",
      type: "image/jpeg",
    });
    expect(real.json.success).toBe(1);
  });
});
