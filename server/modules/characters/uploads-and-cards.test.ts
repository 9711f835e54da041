import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, callMultipart, demoLogin } from "../../testing/api";
import { createTestApp, type TestApp } from "../../testing/server";
import { readPngTextChunks, writePngTextChunks } from "./png-chunks";

/** A valid PNG whose header claims width × height (the pixels are never there). */
async function pngClaiming(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(
    await sharp({ create: { width: 1, height: 1, channels: 3, background: "#000" } })
      .png()
      .toBuffer(),
  );
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  // Recompute the IHDR CRC so the file is well-formed apart from its missing pixels.
  const table = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  let c = 0xffffffff;
  for (const b of png.subarray(12, 29)) c = table[(c ^ b) & 0xff]! ^ (c >>> 8);
  png.writeUInt32BE((c ^ 0xffffffff) >>> 0, 29);
  return png;
}

/** A Character Card V2 made the way other tools make them: a PNG with a base64 `chara` tEXt chunk. */
async function cardV2Png(data: Record<string, unknown>): Promise<Buffer> {
  const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: "#5b5f97" } })
    .png()
    .toBuffer();
  const card = { spec: "chara_card_v2", spec_version: "2.0", data };
  return writePngTextChunks(png, { chara: Buffer.from(JSON.stringify(card)).toString("base64") });
}

describe("uploads and character cards", () => {
  let t: TestApp;
  let token = "";
  let languageId = "";
  beforeAll(async () => {
    t = await createTestApp();
    const s = await demoLogin(t.app);
    token = s.token;
    await t.db.db
      .updateTable("users")
      .set({ photo_upload: 1, character_limit: 50 })
      .where("id", "=", s.userId)
      .execute();
    languageId = (
      (await call(t.app, "GET", "/api/characters/languages", { token })).body.languages as Array<{
        languageUUID: string;
      }>
    )[0]!.languageUUID;
  });
  afterAll(async () => {
    await t?.dispose();
  });

  const create = (photo: { bytes: Buffer; filename: string; type?: string }) =>
    callMultipart(t.app, "/api/characters/create", {
      token,
      fields: { name: "Pic", sex: "0", voice: "English Female", language: languageId, description: "d" },
      files: { photo },
    });
  /** The stored character photos, through the app's storage (disk or S3). */
  const contentFiles = () => t.storage.list("characters");

  it("re-encodes a PNG named .jpg as a clean JPEG without its metadata", async () => {
    const png = await sharp({ create: { width: 3000, height: 1500, channels: 3, background: "#ff0000" } })
      .withMetadata({ exif: { IFD0: { Copyright: "secret-gps-owner" } } })
      .png()
      .toBuffer();
    const res = await create({ bytes: png, filename: "holiday.jpg", type: "image/jpeg" });
    expect(res.body.success).toBe(1);
    const stored = (await t.storage.read(
      `characters/${(res.body.data as { characterPhoto: string }).characterPhoto}`,
    ))!;
    const meta = await sharp(stored).metadata();
    expect(meta.format).toBe("jpeg");
    expect(Math.max(meta.width!, meta.height!)).toBe(1024);
    expect(meta.exif).toBeUndefined();
    expect(stored.includes(Buffer.from("secret-gps-owner"))).toBe(false);
    const served = await t.app.inject({
      method: "GET",
      url: `/content/characters/${(res.body.data as { characterPhoto: string }).characterPhoto}`,
    });
    expect(served.headers["x-content-type-options"]).toBe("nosniff");
  });

  it("refuses an SVG or an HTML page named .png, writing nothing", async () => {
    const before = await contentFiles();
    const svg = await create({
      bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
      filename: "a.png",
      type: "image/png",
    });
    expect(svg.status).toBe(400);
    expect(svg.body.message).toBe("photo: only JPEG and PNG images are accepted.");
    const html = await create({
      bytes: Buffer.from("<html><script>alert(1)</script></html>"),
      filename: "b.png",
      type: "image/png",
    });
    expect(html.status).toBe(400);
    expect(await contentFiles()).toEqual(before);
  });

  it("refuses a 50000x50000 PNG from its header, before decoding", async () => {
    const before = await contentFiles();
    const started = performance.now();
    const res = await create({ bytes: await pngClaiming(50_000, 50_000), filename: "bomb.png" });
    expect(res.status).toBe(413);
    expect(res.body.message).toBe("photo: the image is too large (at most 40 megapixels).");
    expect(performance.now() - started).toBeLessThan(2000);
    expect(await contentFiles()).toEqual(before);
  });

  it("answers 413 early for a body over the size limit", async () => {
    const res = await create({ bytes: Buffer.alloc(11 * 1024 * 1024, 0xff), filename: "huge.jpg" });
    expect(res.status).toBe(413);
    expect(res.body.success).toBe(0);
  });

  it("imports a V2 card made elsewhere, exports it with V2 and V3 chunks, and re-imports the same fields", async () => {
    const data = {
      name: "Captain Vale",
      description: "A sky pirate with a heart of gold.",
      personality: "Bold, witty, protective.",
      scenario: "{{user}} stows away on {{char}}'s airship.",
      first_mes: "*grins* Well, well, a stowaway, {{user}}?",
      mes_example: "<START>\n{{char}}: Hold on tight!",
      creator_notes: "Made for adventure roleplay.",
      system_prompt: "",
      post_history_instructions: "",
      alternate_greetings: ["Ahoy, {{user}}!", "Back again?"],
      character_book: {
        name: "Skies",
        entries: [{ keys: ["airship"], content: "The Gull is fast.", enabled: true, insertion_order: 0 }],
      },
      tags: ["pirate", "adventure"],
      creator: "someone-else",
      character_version: "1.2",
      extensions: { "other-tool": { mood: "sunny" } },
    };
    const imported = await callMultipart(t.app, "/api/characters/import", {
      token,
      files: { card: { bytes: await cardV2Png(data), filename: "vale.png", type: "image/png" } },
    });
    expect(imported.body.success).toBe(1);
    const id = (imported.body.data as { characterUUID: string }).characterUUID;
    const detail = (await call(t.app, "GET", `/api/characters/?id=${id}`, { token })).body.data as Record<
      string,
      string
    >;
    expect(detail.characterName).toBe("Captain Vale");
    expect(detail.characterDescription).toContain("A sky pirate with a heart of gold.");
    expect(detail.characterDescription).toContain("Bold, witty, protective.");
    expect(detail.characterGreeting).toBe("*grins* Well, well, a stowaway, {{user}}?");

    const exported = await t.app.inject({
      method: "GET",
      url: `/api/characters/export/?id=${id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(exported.headers["content-type"]).toBe("image/png");
    const chunks = readPngTextChunks(exported.rawPayload);
    const v2 = JSON.parse(Buffer.from(chunks.get("chara")!, "base64").toString());
    const v3 = JSON.parse(Buffer.from(chunks.get("ccv3")!, "base64").toString());
    expect(v2.spec).toBe("chara_card_v2");
    expect(v3).toMatchObject({ spec: "chara_card_v3", spec_version: "3.0" });
    for (const card of [v2, v3]) expect(card.data).toMatchObject(data);

    const again = await callMultipart(t.app, "/api/characters/import", {
      token,
      files: { card: { bytes: exported.rawPayload, filename: "vale-export.png", type: "image/png" } },
    });
    const id2 = (again.body.data as { characterUUID: string }).characterUUID;
    const detail2 = (await call(t.app, "GET", `/api/characters/?id=${id2}`, { token })).body.data as Record<
      string,
      string
    >;
    expect({ ...detail2, characterUUID: "", characterPhoto: "" }).toEqual({
      ...detail,
      characterUUID: "",
      characterPhoto: "",
    });
    const row = await t.db.db
      .selectFrom("characters")
      .select("card")
      .where("id", "=", id2)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.card)).toMatchObject(data);
  });

  it("exports the card of a character without a photo with the default picture, on local disk and S3", async () => {
    const imported = await callMultipart(t.app, "/api/characters/import", {
      token,
      files: {
        card: {
          bytes: await cardV2Png({ name: "No Photo", first_mes: "Hi." }),
          filename: "np.png",
          type: "image/png",
        },
      },
    });
    const id = (imported.body.data as { characterUUID: string }).characterUUID;
    await t.db.db.updateTable("characters").set({ photo: "" }).where("id", "=", id).execute();
    const exported = await t.app.inject({
      method: "GET",
      url: `/api/characters/export/?id=${id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers["content-type"]).toBe("image/png");
    const v2 = JSON.parse(
      Buffer.from(readPngTextChunks(exported.rawPayload).get("chara")!, "base64").toString(),
    );
    expect(v2.data.name).toBe("No Photo");
  });

  it("reads ccv3 before chara when a PNG has both", async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#000" } })
      .png()
      .toBuffer();
    const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString("base64");
    const both = writePngTextChunks(png, {
      chara: b64({ spec: "chara_card_v2", spec_version: "2.0", data: { name: "Old" } }),
      ccv3: b64({ spec: "chara_card_v3", spec_version: "3.0", data: { name: "New" } }),
    });
    const res = await callMultipart(t.app, "/api/characters/import", {
      token,
      files: { card: { bytes: both, filename: "x.png" } },
    });
    expect((res.body.data as { characterName: string }).characterName).toBe("New");
  });

  it("refuses bad cards with the reason and creates nothing", async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#000" } })
      .png()
      .toBuffer();
    const count = async () =>
      ((await call(t.app, "GET", "/api/characters/list/", { token })).body.data as unknown[]).length;
    const before = await count();
    let nested: Record<string, unknown> = { name: "deep" };
    for (let i = 0; i < 100; i++) nested = { x: nested };
    const cases: Array<[Buffer, string]> = [
      [writePngTextChunks(png, { chara: "%%%not-base64%%%" }), "The metadata is not valid base64."],
      [
        writePngTextChunks(png, { chara: "A".repeat(5 * 1024 * 1024) }),
        "A metadata chunk is larger than 4 MB.",
      ],
      [
        Buffer.from('{"spec":"chara_card_v2","data":{"name":"x","__proto__":{"polluted":true}}}'),
        'The key "__proto__" is not allowed.',
      ],
      [
        Buffer.from(JSON.stringify({ spec: "chara_card_v2", data: { name: "d", extensions: nested } })),
        "The card data is nested too deeply.",
      ],
      [Buffer.from("GIF89a not a png"), "The file is not a PNG image."],
      [png, "The PNG carries no character card (no chara or ccv3 chunk)."],
    ];
    for (const [bytes, message] of cases) {
      const res = await callMultipart(t.app, "/api/characters/import", {
        token,
        files: { card: { bytes, filename: "c.png" } },
      });
      expect(res.status, message).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await count()).toBe(before);
  });
});
