import { strFromU8, unzipSync } from "fflate";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ChatHistoryEntry, MessageReply } from "../../../common/api";
import { FIRST_MESSAGE_MARKER, REPLY_SWIPES_MAX } from "../../../common/constants";
import { call, callMultipart, demoWithCharacter, describeEachDatabase } from "../../testing/api";
import { StreamingLlm } from "../../testing/fake-llm";
import { createTestApp, type TestApp } from "../../testing/server";
import { sillyTavernTime } from "../conversation/sillytavern";
import { IMPORT_FACTS_MESSAGES, IMPORT_SUMMARY_EXCHANGES } from "./import.service";

/**
 * "Import a SillyTavern chat": a .jsonl file replaces a character's history (as New Chat deletes
 * it); the data export's chat file imports back to the same messages; dates in SillyTavern's three
 * forms, swipes and the file's order are kept; every refusal names what is wrong and stores and
 * deletes nothing; only the owner of the character may import; memory's work afterwards is bounded.
 */
describeEachDatabase("import a SillyTavern chat", (dialect) => {
  let t: TestApp;
  const llm = new StreamingLlm();
  beforeAll(async () => {
    t = await createTestApp({ dialect, llm });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  const importFile = (token: string | undefined, id: string, bytes: Buffer, filename = "chat.jsonl") =>
    callMultipart(t.app, "/api/chat/import", { token, fields: { id }, files: { file: { bytes, filename } } });
  const jsonl = (...values: unknown[]) => Buffer.from(`${values.map((v) => JSON.stringify(v)).join("\n")}\n`);
  const header = {
    user_name: "Ada",
    character_name: "Mira",
    create_date: "2023-05-08@13h56m00s",
    chat_metadata: {},
  };
  const line = (isUser: boolean, mes: unknown, sendDate: unknown, more: Record<string, unknown> = {}) => ({
    name: isUser ? "Ada" : "Mira",
    is_user: isUser,
    is_system: false,
    send_date: sendDate,
    mes,
    extra: {},
    ...more,
  });

  /** The stored entries of a user's chat with a character, in order, with their swipes. */
  async function stored(userId: string, characterId: string) {
    const db = t.db.db;
    const rows = await db
      .selectFrom("chat_history")
      .innerJoin("chat_sessions", "chat_sessions.id", "chat_history.session_id")
      .selectAll("chat_history")
      .where("chat_sessions.user_id", "=", userId)
      .where("chat_sessions.chat_key", "=", characterId)
      .orderBy("chat_history.seq")
      .execute();
    const swipes = rows.length
      ? await db
          .selectFrom("chat_reply_swipes")
          .select(["entry_id", "position", "reply_message"])
          .where(
            "entry_id",
            "in",
            rows.map((r) => r.id),
          )
          .orderBy("entry_id")
          .orderBy("position")
          .execute()
      : [];
    return rows.map((row) => ({
      ...row,
      seq: Number(row.seq),
      send_time: Number(row.send_time),
      reply_time: row.reply_time === null ? null : Number(row.reply_time),
      swipes: swipes.filter((s) => s.entry_id === row.id).map((s) => s.reply_message),
    }));
  }
  const session = (userId: string, characterId: string) =>
    t.db.db
      .selectFrom("chat_sessions")
      .select(["summary", "summary_until_seq", "facts_until_seq", "greeted"])
      .where("user_id", "=", userId)
      .where("chat_key", "=", characterId)
      .executeTakeFirstOrThrow();
  const say = async (token: string, id: string, message: string) => {
    const res = await call(t.app, "POST", "/api/chat/message", { token, form: { message, id } });
    expect(res.body.success).toBe(1);
    return (res.body as unknown as MessageReply).history![0]!;
  };

  /** The data export's chat file of a character, as lines (header first). */
  async function exportedChat(token: string, characterId: string): Promise<Record<string, unknown>[]> {
    const started = await call(t.app, "POST", "/api/account/export", { token, form: {} });
    expect(started.status).toBe(200);
    await t.jobs.idle();
    const status = await call(t.app, "GET", "/api/account/export", { token });
    const url = (status.body.export as { downloadUrl: string }).downloadUrl;
    const zip = await t.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${token}` } });
    expect(zip.statusCode).toBe(200);
    const files = unzipSync(new Uint8Array(zip.rawPayload));
    const name = Object.keys(files).find((n) => n.endsWith(`-${characterId}.jsonl`))!;
    return strFromU8(files[name]!)
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l));
  }

  it("imports the data export's chat back to the same messages, swipes included, replacing the history", async () => {
    const s = await demoWithCharacter(t.app);
    llm.reply = "First reply.";
    await say(s.token, s.characterId, "Hello there");
    llm.reply = "Second reply.";
    const second = await say(s.token, s.characterId, "Tell me more");
    llm.reply = "Second reply, again.";
    const regenerated = await call(t.app, "POST", "/api/chat/regenerate", {
      token: s.token,
      form: { id: second.chatHistoryUUID },
    });
    expect(regenerated.body.success).toBe(1);
    const before = await stored(s.userId, s.characterId);
    expect(before.at(-1)!.swipes).toEqual(["Second reply.", "Second reply, again."]);

    const [header1, ...messages] = await exportedChat(s.token, s.characterId);
    const file = jsonl(header1, ...messages);
    // Something else in the chat first: the import replaces it.
    await say(s.token, s.characterId, "This goes away");

    const res = await importFile(s.token, s.characterId, file);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: 1, data: { imported: messages.length } });
    expect(res.body.message).toBe(`The chat has been imported: ${messages.length} messages.`);

    const after = await stored(s.userId, s.characterId);
    const shape = (rows: typeof before) =>
      rows.map((r) => ({
        message: r.message,
        reply_message: r.reply_message,
        send_time: r.send_time,
        reply_time: r.reply_time,
        swipes: r.swipes,
        swipe_index: r.swipe_index,
        status: r.status,
      }));
    expect(shape(after)).toEqual(shape(before));
    expect(after.map((r) => r.message)).not.toContain("This goes away");

    // Exported again: the same messages.
    const [, ...again] = await exportedChat(s.token, s.characterId);
    expect(again).toEqual(messages);

    // The chat screen shows it, greeting and swipes as stored.
    const page = await call(
      t.app,
      "GET",
      `/api/chat/history/paginated?id=${s.characterId}&offset=0&limit=50`,
      {
        token: s.token,
      },
    );
    const entries = page.body.data as ChatHistoryEntry[];
    expect(entries.map((e) => e.chatHistoryMessage)).toEqual(after.map((r) => r.message));
    expect(entries[0]!.chatHistoryMessage).toBe(FIRST_MESSAGE_MARKER);
    expect(entries.at(-1)!.chatHistorySwipes).toEqual(["Second reply.", "Second reply, again."]);
  });

  it("keeps dates in SillyTavern's three forms, the file's order when dates go backwards, and the pairing rules", async () => {
    const s = await demoWithCharacter(t.app);
    const long = "a".repeat(500);
    const startedAt = Date.now();
    const file = jsonl(
      header,
      line(false, "Hi, I am Mira.", "May 8, 2023 1:56pm"),
      line(true, "Hey Mel!", "2023-05-08T14:00:00.000Z"),
      line(false, "Good to see you.", 1683554460000),
      line(true, "First of two", "1683554520000"),
      {
        name: "System",
        is_user: false,
        is_system: true,
        send_date: "",
        mes: "A note of SillyTavern's",
        extra: {},
      },
      // A date earlier than the one before: the order of the file stays.
      line(true, long, "May 1, 2023 9:05am"),
      line(false, "A long message indeed.", "not a date"),
      line(true, "   ", "May 9, 2023 1:00am"),
    );
    const res = await importFile(s.token, s.characterId, file);
    expect(res.body).toMatchObject({ success: 1, data: { imported: 6 } });
    const rows = await stored(s.userId, s.characterId);
    expect(rows.map((r) => [r.message, r.reply_message])).toEqual([
      [FIRST_MESSAGE_MARKER, "Hi, I am Mira."],
      ["Hey Mel!", "Good to see you."],
      ["First of two", ""],
      [long, "A long message indeed."],
    ]);
    expect(rows.every((r) => r.status === "replied")).toBe(true);
    expect(rows[0]!.send_time).toBe(Date.UTC(2023, 4, 8, 13, 56));
    expect(rows[0]!.reply_time).toBe(Date.UTC(2023, 4, 8, 13, 56));
    expect(rows[1]!.send_time).toBe(Date.UTC(2023, 4, 8, 14, 0));
    expect(rows[1]!.reply_time).toBe(1683554460000);
    expect(rows[2]!.send_time).toBe(1683554520000);
    expect(rows[2]!.reply_time).toBeNull();
    expect(rows[3]!.send_time).toBe(Date.UTC(2023, 4, 1, 9, 5));
    // An unreadable date is the import's time.
    expect(rows[3]!.reply_time).toBeGreaterThanOrEqual(startedAt);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.seq).toBeGreaterThan(rows[i - 1]!.seq);
    expect(rows[0]!.seq).toBe(Date.UTC(2023, 4, 8, 13, 56) * 1000);
    expect(rows[3]!.seq).toBe(rows[2]!.seq + 1);
    expect(await session(s.userId, s.characterId)).toMatchObject({ greeted: 1, summary: "" });

    // A message sent afterwards comes after the imported ones.
    llm.reply = "Back to now.";
    await say(s.token, s.characterId, "And now?");
    const next = await stored(s.userId, s.characterId);
    expect(next.at(-1)!.message).toBe("And now?");
    expect(next.at(-1)!.seq).toBeGreaterThan(rows.at(-1)!.seq);
  });

  it("reads SillyTavern's other date forms, and nothing it would have to guess", () => {
    expect(sillyTavernTime("December 31, 2024 11:59 PM")).toBe(Date.UTC(2024, 11, 31, 23, 59));
    expect(sillyTavernTime("Jan 2, 2024 12:05am")).toBe(Date.UTC(2024, 0, 2, 0, 5));
    expect(sillyTavernTime("May 8, 2023 13:56")).toBe(Date.UTC(2023, 4, 8, 13, 56));
    expect(sillyTavernTime("2023-05-08@13h56m07s")).toBe(Date.UTC(2023, 4, 8, 13, 56, 7));
    expect(sillyTavernTime("2023-5-8 @13h 56m 07s 123ms")).toBe(Date.UTC(2023, 4, 8, 13, 56, 7));
    expect(sillyTavernTime("2023-05-08T13:56:00+02:00")).toBe(Date.UTC(2023, 4, 8, 11, 56));
    expect(sillyTavernTime("2023-05-08 13:56")).toBe(Date.UTC(2023, 4, 8, 13, 56));
    for (const unreadable of [
      "",
      "yesterday",
      "8/5/2023",
      "Smarch 8, 2023 1:56pm",
      "May 8, 2023 25:00",
      -5,
      null,
    ]) {
      expect(sillyTavernTime(unreadable), String(unreadable)).toBeUndefined();
    }
  });

  it("keeps a reply's swipes and the shown one, at most REPLY_SWIPES_MAX", async () => {
    const s = await demoWithCharacter(t.app);
    const many = Array.from({ length: REPLY_SWIPES_MAX + 3 }, (_, i) => `version ${i}`);
    const file = jsonl(
      header,
      line(true, "Pick one", "May 8, 2023 1:56pm"),
      line(false, "version 1", "May 8, 2023 1:57pm", {
        swipes: ["version 0", "version 1", "version 2"],
        swipe_id: 1,
      }),
      line(true, "Again", "May 8, 2023 1:58pm"),
      line(false, `version ${REPLY_SWIPES_MAX + 1}`, "May 8, 2023 1:59pm", {
        swipes: many,
        swipe_id: REPLY_SWIPES_MAX + 1,
      }),
    );
    expect((await importFile(s.token, s.characterId, file)).body.success).toBe(1);
    const rows = await stored(s.userId, s.characterId);
    expect(rows[0]).toMatchObject({ reply_message: "version 1", swipe_index: 1 });
    expect(rows[0]!.swipes).toEqual(["version 0", "version 1", "version 2"]);
    expect(rows[1]!.swipes).toHaveLength(REPLY_SWIPES_MAX);
    expect(rows[1]).toMatchObject({
      reply_message: `version ${REPLY_SWIPES_MAX + 1}`,
      swipe_index: REPLY_SWIPES_MAX - 1,
    });
    expect(rows[1]!.swipes[REPLY_SWIPES_MAX - 1]).toBe(`version ${REPLY_SWIPES_MAX + 1}`);
    expect(rows[1]!.swipes[0]).toBe("version 0");
  });

  it("refuses a file it cannot take with a sentence, storing and deleting nothing", async () => {
    const s = await demoWithCharacter(t.app);
    llm.reply = "Kept reply.";
    await say(s.token, s.characterId, "Keep me");
    const before = await stored(s.userId, s.characterId);
    const sessionBefore = await session(s.userId, s.characterId);
    expect(before.map((r) => r.message)).toContain("Keep me");

    const good = (n: number) =>
      Array.from({ length: n }, (_, i) => line(i % 2 === 0, `message ${i}`, "May 8, 2023 1:56pm"));
    const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#fff" } })
      .png()
      .toBuffer();
    const badJson = Buffer.concat([jsonl(header, ...good(5)), Buffer.from('{"name": "Ada", "mes": \n')]);
    const cases: Array<[string, Buffer, number, string]> = [
      ["bad JSON", badJson, 400, "Line 7 is not valid JSON."],
      [
        "a 1 MB message",
        jsonl(header, ...good(2), line(true, "x".repeat(1024 * 1024), "May 8, 2023 1:56pm")),
        400,
        "Line 4 is longer than 20000 characters.",
      ],
      [
        "25 001 lines",
        jsonl(header, ...good(25_000)),
        400,
        "The file has more than 20000 messages; import a shorter chat.",
      ],
      ["a PNG", png, 400, "This file is not a SillyTavern chat: it is not text."],
      ["an empty file", Buffer.alloc(0), 400, "The file is empty."],
      ["a header only", jsonl(header), 400, "The file has no messages to import."],
      [
        "a message that is not a string",
        jsonl(header, line(true, 42, "May 8, 2023 1:56pm")),
        400,
        "Line 2 has no message text: its mes must be a string.",
      ],
      [
        "a line that is no object",
        jsonl(header, [1, 2]),
        400,
        "Line 2 is not a SillyTavern chat line (a JSON object).",
      ],
    ];
    for (const [what, bytes, status, message] of cases) {
      const res = await importFile(
        s.token,
        s.characterId,
        bytes,
        what === "a PNG" ? "picture.jsonl" : "chat.jsonl",
      );
      expect({ what, status: res.status, message: res.body.message }).toEqual({ what, status, message });
      expect(res.body.success).toBe(0);
    }
    // 30 MB: refused by its size before it is read.
    const huge = await importFile(s.token, s.characterId, Buffer.alloc(30 * 1024 * 1024, 0x61));
    expect(huge.status).toBe(413);
    expect(huge.body.success).toBe(0);
    // Just past the limit (the request itself is allowed): the import's own sentence.
    const over = await importFile(s.token, s.characterId, Buffer.alloc(20 * 1024 * 1024 + 10, 0x61));
    expect(over.status).toBe(413);
    expect(over.body.message).toBe("The chat file is too large: at most 20 MB can be imported.");

    expect(await stored(s.userId, s.characterId)).toEqual(before);
    expect(await session(s.userId, s.characterId)).toEqual(sessionBefore);
  }, 60_000);

  it("asks for a session first and answers 404 for a character that is not the user's", async () => {
    const owner = await demoWithCharacter(t.app);
    const other = await demoWithCharacter(t.app);
    const file = jsonl(header, line(true, "Hello", "May 8, 2023 1:56pm"));
    const anonymous = await importFile(undefined, owner.characterId, file);
    expect(anonymous.status).toBe(401);
    const foreign = await importFile(other.token, owner.characterId, file);
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe("Character not found.");
    const unknown = await importFile(other.token, "00000000-0000-4000-8000-000000000000", file);
    expect(unknown.status).toBe(404);
    const noFile = await callMultipart(t.app, "/api/chat/import", {
      token: owner.token,
      fields: { id: owner.characterId },
    });
    expect(noFile.status).toBe(400);
    expect(noFile.body.message).toBe("Choose a SillyTavern chat file (.jsonl) to import.");
    expect(await stored(owner.userId, owner.characterId)).toEqual([]);
  });

  it("bounds memory's work on a long imported history: the summary and facts start near its end", async () => {
    const s = await demoWithCharacter(t.app);
    const exchanges = 300;
    const lines = Array.from({ length: exchanges }, (_, i) => [
      line(true, `I have a dog named Rex number ${i}`, 1683554160000 + i * 120_000),
      line(false, `Tell me about Rex ${i}`, 1683554160000 + i * 120_000 + 60_000),
    ]).flat();
    const before = llm.requests.length;
    llm.reply = "A short summary.";
    const res = await importFile(s.token, s.characterId, jsonl(header, ...lines));
    expect(res.body).toMatchObject({ success: 1, data: { imported: 2 * exchanges } });
    const rows = await stored(s.userId, s.characterId);
    const points = await session(s.userId, s.characterId);
    expect(Number(points.summary_until_seq)).toBe(rows[exchanges - IMPORT_SUMMARY_EXCHANGES - 1]!.seq);
    // The facts job the import queues may already have moved it on (never back before that point).
    expect(Number(points.facts_until_seq)).toBeGreaterThanOrEqual(
      rows[exchanges - IMPORT_FACTS_MESSAGES - 1]!.seq,
    );
    await t.jobs.idle();
    // The summary job ran on the newest exchanges only; no prompt carried the whole history.
    const prompts = llm.requests.slice(before).map((r) => r.messages.map((m) => m.content).join("\n"));
    expect(prompts.some((p) => p.includes("Summary so far"))).toBe(true);
    for (const prompt of prompts) {
      expect(prompt).not.toContain("Rex number 0\n");
      expect(prompt.match(/Rex number/g)?.length ?? 0).toBeLessThanOrEqual(IMPORT_SUMMARY_EXCHANGES);
    }
    expect(Number((await session(s.userId, s.characterId)).summary_until_seq)).toBeGreaterThan(
      Number(points.summary_until_seq),
    );
  });
});
