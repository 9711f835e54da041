import { deflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BACKSTORY_MAX_LENGTH, GREETING_MAX_LENGTH } from "../common/constants";
import { ScriptedLlm } from "../server/testing/fake-llm";
import {
  cardV2Base64,
  crc32,
  firstLanguage,
  http,
  pngOf,
  pngWithText,
  type Session,
  setUser,
  signIn,
} from "./support/fixtures";
import { type ListeningApp, startListening } from "./support/server";

/** Longest a refused card may take to be refused, milliseconds. */
const BOUNDED_MS = 5_000;

/** A PNG chunk of any type with a correct CRC (or `length` overriding the declared length). */
function chunk(type: string, data: Buffer, length = data.length): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(length >>> 0, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** `png` with `extra` chunks inserted before its IEND chunk. */
function withChunks(png: Buffer, extra: Buffer[]): Buffer {
  const iend = png.length - 12;
  return Buffer.concat([png.subarray(0, iend), ...extra, png.subarray(iend)]);
}

describe("oversized and hostile character cards, over HTTP, store nothing", () => {
  let t: ListeningApp;
  let u: Session;
  let base: Buffer;

  beforeAll(async () => {
    t = await startListening({ llm: new ScriptedLlm(() => "Hello.") });
    u = await signIn(t.url);
    await setUser(t, u.userId, { photo_upload: 1, character_limit: 100 });
    base = await pngOf(16, 16);
  });
  afterAll(async () => {
    await t?.dispose();
  });

  const stored = async () => ({
    characters: (
      await t.db.db.selectFrom("characters").select(["id", "card"]).where("user_id", "=", u.userId).execute()
    ).length,
    // Through the app's storage: the local disk, or S3 on the shared stack.
    files: await t.storage.list(""),
  });
  const importCard = (bytes: Buffer, filename = "card.png") =>
    http(t.url, "POST", "/api/characters/import", {
      token: u.token,
      parts: [
        {
          name: "card",
          value: bytes,
          filename,
          type: filename.endsWith(".json") ? "application/json" : "image/png",
        },
      ],
    });

  it("each hostile card is refused with 400/413 and a message naming the problem, quickly, and nothing is stored", async () => {
    const deepArray = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
    let deepObject = '"end"';
    for (let i = 0; i < 20_000; i++) deepObject = `{"a":${deepObject}}`;
    const bigText = "x".repeat(5 * 1024 * 1024);
    const zeros = deflateSync(Buffer.alloc(64 * 1024 * 1024));
    const cases: Array<{ name: string; bytes: Buffer; filename?: string; message: RegExp }> = [
      {
        name: "a 6 MB chara chunk",
        bytes: await pngWithText({ chara: "QUFB".repeat(1.5 * 1024 * 1024) }),
        message: /4 MB|too large|larger/i,
      },
      {
        name: "a 5 MB JSON card",
        bytes: Buffer.from(
          JSON.stringify({ spec: "chara_card_v2", data: { name: "Big", description: bigText } }),
        ),
        filename: "big.json",
        message: /4 MB|too large|larger/i,
      },
      {
        name: "100 000 nested arrays in the chunk",
        bytes: await pngWithText({
          chara: Buffer.from(
            `{"spec":"chara_card_v2","data":{"name":"Deep","extensions":{"x":${deepArray}}}}`,
          ).toString("base64"),
        }),
        message: /nested|JSON/i,
      },
      {
        name: "20 000 nested objects in a JSON card",
        bytes: Buffer.from(`{"spec":"chara_card_v2","data":{"name":"Deep","extensions":${deepObject}}}`),
        filename: "deep.json",
        message: /nested|JSON/i,
      },
      {
        name: "base64 of binary garbage",
        bytes: await pngWithText({
          chara: Buffer.from([0xff, 0xfe, 0x00, 0x01, 0x80, 0x81]).toString("base64"),
        }),
        message: /JSON/i,
      },
      {
        name: "base64 with characters outside the alphabet",
        bytes: await pngWithText({ chara: `${cardV2Base64({ name: "X" })}<script>` }),
        message: /base64/i,
      },
      {
        name: "an empty chara chunk",
        bytes: await pngWithText({ chara: "" }),
        message: /base64|card/i,
      },
      {
        name: "a constructor.prototype key",
        bytes: await pngWithText({
          chara: Buffer.from(
            '{"spec":"chara_card_v2","data":{"name":"P","constructor":{"prototype":{"polluted":"yes"}}}}',
          ).toString("base64"),
        }),
        message: /constructor/,
      },
      {
        name: "a tEXt chunk whose length claims 4 GB",
        bytes: withChunks(base, [chunk("tEXt", Buffer.from("chara\0QUFB"), 0xfffffff0)]),
        message: /truncated|4 MB|larger/i,
      },
      {
        name: "a tEXt chunk with a bad checksum",
        bytes: (() => {
          const png = withChunks(base, [chunk("tEXt", Buffer.from(`chara\0${cardV2Base64({ name: "C" })}`))]);
          png[png.length - 13] = (png[png.length - 13]! + 1) & 0xff;
          return png;
        })(),
        message: /checksum|corrupt/i,
      },
      {
        name: "the card only in a zTXt chunk inflating to 64 MB",
        bytes: withChunks(base, [chunk("zTXt", Buffer.concat([Buffer.from("chara\0\0"), zeros]))]),
        message: /no chara|card/i,
      },
      {
        name: "100 000 tiny text chunks and no card",
        bytes: withChunks(
          base,
          Array.from({ length: 100_000 }, (_, i) => chunk("tEXt", Buffer.from(`k${i % 10}\0v`))),
        ),
        message: /no chara/i,
      },
      {
        name: "a card with no name",
        bytes: await pngWithText({ chara: cardV2Base64({ description: "nameless" }) }),
        message: /no name/i,
      },
      {
        name: "a JSON array instead of a card",
        bytes: Buffer.from("[1,2,3]"),
        filename: "a.json",
        message: /PNG|card/i,
      },
    ];
    const before = await stored();
    const failures: string[] = [];
    for (const card of cases) {
      const answer = await importCard(card.bytes, card.filename);
      const message = String(answer.json.message ?? "");
      if (![400, 413].includes(answer.status) || answer.json.success !== 0 || !card.message.test(message)) {
        failures.push(`${card.name}: ${answer.status} ${answer.raw.toString().slice(0, 160)}`);
      }
      if (answer.elapsedMs > BOUNDED_MS)
        failures.push(`${card.name}: took ${Math.round(answer.elapsedMs)} ms`);
    }
    expect(failures).toEqual([]);
    expect(await stored()).toEqual(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await http(t.url, "GET", "/api/health")).status).toBe(200);
  });

  it("a card with a 10 000-character name, description and greeting is stored only within the spec's limits", async () => {
    const long = (c: string) => `${c.repeat(9_999)}!`;
    const answer = await importCard(
      await pngWithText({
        chara: cardV2Base64({
          name: long("N"),
          description: long("d "),
          first_mes: long("g "),
          personality: long("p "),
        }),
      }),
    );
    if (answer.json.success === 1) {
      const id = (answer.json.data as { characterUUID: string }).characterUUID;
      const detail = (await http(t.url, "GET", `/api/characters/?id=${id}`, { token: u.token })).json
        .data as Record<string, string>;
      expect(detail.characterName!.length).toBeLessThanOrEqual(50);
      expect(detail.characterDescription!.length).toBeLessThanOrEqual(BACKSTORY_MAX_LENGTH);
      expect(detail.characterGreeting!.length).toBeLessThanOrEqual(GREETING_MAX_LENGTH);
      await http(t.url, "DELETE", `/api/characters/delete/?id=${id}`, { token: u.token });
    } else {
      expect([400, 413]).toContain(answer.status);
      expect(String(answer.json.message)).toMatch(/^(The|A) .*(card|PNG|metadata|key)/);
    }
  });

  it("the character form refuses a 10 000-character name or description with the field's rule, storing nothing", async () => {
    const languageId = await firstLanguage(t.url, u.token);
    const before = await stored();
    const form = { name: "Ok", sex: "0", voice: "English Female", language: languageId, description: "ok" };
    for (const [field, rule] of [
      ["name", "The name must be at most 50 characters."],
      ["description", `The backstory must be at most ${BACKSTORY_MAX_LENGTH} characters.`],
      ["greeting", `The greeting must be at most ${GREETING_MAX_LENGTH} characters.`],
    ] as const) {
      const answer = await http(t.url, "POST", "/api/characters/create", {
        token: u.token,
        form: { ...form, [field]: "y".repeat(10_000) },
      });
      expect(answer.status, field).toBe(400);
      expect(answer.json).toMatchObject({ success: 0, message: rule });
    }
    expect(await stored()).toEqual(before);
  });
});
