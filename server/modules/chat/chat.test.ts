import { afterAll, beforeAll, expect, it } from "vitest";
import type { ChatHistoryEntry, ChatProfileInfo, MessageReply } from "../../../common/api";
import { call, demoWithCharacter, describeEachDatabase } from "../../testing/api";
import { ScriptedLlm } from "../../testing/fake-llm";
import { createTestApp, type TestApp } from "../../testing/server";

async function send(t: TestApp, token: string, fields: Record<string, string>, language?: string) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  const request = new Request("http://x/", { method: "POST", body: form });
  const response = await t.app.inject({
    method: "POST",
    url: "/api/chat/message",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": request.headers.get("content-type") ?? "",
      ...(language ? { "accept-language": language } : {}),
    },
    payload: Buffer.from(await request.arrayBuffer()),
  });
  return { status: response.statusCode, body: response.json() as MessageReply, headers: response.headers };
}

async function history(t: TestApp, token: string, id: string, offset = 0) {
  const res = await call(t.app, "GET", `/api/chat/history/paginated?id=${id}&offset=${offset}&limit=10`, {
    token,
  });
  return res.body.data as ChatHistoryEntry[];
}

describeEachDatabase("chat API", (dialect) => {
  let t: TestApp;
  let storedBeforeModel: boolean[] = [];
  const llm = new ScriptedLlm(async (request) => {
    const last = request.messages.at(-1)!.content;
    const rows = await t.db.db
      .selectFrom("chat_history")
      .select("message")
      .where("message", "=", last)
      .execute();
    storedBeforeModel.push(rows.length > 0);
    return `Luna: You said "${last}". *smiles*\nGuest: this line is the user's and must be cut`;
  });
  beforeAll(async () => {
    t = await createTestApp({ dialect, llm });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it("answers the chat profile with the user and the character", async () => {
    const s = await demoWithCharacter(t.app);
    const res = await call(t.app, "GET", `/api/chat/profile/?uid=${s.userId}&id=${s.characterId}`, {
      token: s.token,
    });
    const info = res.body.info as ChatProfileInfo;
    expect(info.userName).toMatch(/^guest-/);
    expect(info.characters).toHaveLength(1);
    expect(info.characters[0]).toMatchObject({ gId: "", id: s.characterId, name: expect.any(String) });
    const empty = await call(t.app, "GET", `/api/chat/profile/?uid=${s.userId}&id=`, { token: s.token });
    expect((empty.body.info as ChatProfileInfo).characters[0]?.id).toBe(s.characterId);
  });

  it("greets once with the ##first-message## marker when the history is empty", async () => {
    const s = await demoWithCharacter(t.app);
    const [first, second] = await Promise.all([
      history(t, s.token, s.characterId),
      history(t, s.token, s.characterId),
    ]);
    const again = await history(t, s.token, s.characterId);
    for (const page of [first, second, again]) {
      expect(page).toHaveLength(1);
      expect(page[0]!.chatHistoryMessage).toBe("##first-message##");
    }
    expect(again[0]!.chatHistoryReplyMessage).toContain("Guest");
    expect(again[0]!.chatHistoryReplyMessage).not.toContain("{{user}}");
  });

  it("stores the message before the model is called, then the reply with its time", async () => {
    const s = await demoWithCharacter(t.app);
    storedBeforeModel = [];
    const res = await send(t, s.token, {
      message: "  Hello Luna  ",
      id: s.characterId,
      cId: s.characterId,
      mute: "1",
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(1);
    expect(storedBeforeModel).toEqual([true]);
    expect(res.body.text).toBe('You said "Hello Luna". *smiles*');
    expect(res.headers["server-timing"]).toMatch(/app;dur=/);
    const page = await history(t, s.token, s.characterId);
    const last = page.at(-1)!;
    expect(last.chatHistoryMessage).toBe("Hello Luna");
    expect(last.chatHistoryReplyMessage).toBe('You said "Hello Luna". *smiles*');
    expect(Date.parse(last.chatHistoryReplyTime)).toBeGreaterThanOrEqual(
      Date.parse(last.chatHistorySendTime),
    );
  });

  it("builds the prompt from the character card and the history", async () => {
    const s = await demoWithCharacter(t.app);
    await send(t, s.token, { message: "first", id: s.characterId });
    await send(t, s.token, { message: "second", id: s.characterId });
    const request = llm.requests.at(-1)!;
    const system = request.messages[0]!;
    expect(system.role).toBe("system");
    expect(system.content).toContain("You are Luna");
    expect(system.content).toContain("astronomy student");
    expect(system.content).toContain("Always answer in English");
    expect(request.messages.map((m) => m.role).slice(1)).toEqual(["assistant", "user", "assistant", "user"]);
    expect(request.messages.at(-1)!.content).toBe("second");
    expect(request.stop).toContain("\nGuest:");
  });

  it("refuses an empty message, one over 150 characters and another user's character, storing nothing", async () => {
    const s = await demoWithCharacter(t.app);
    const other = await demoWithCharacter(t.app);
    const before = await history(t, s.token, s.characterId);
    const empty = await send(t, s.token, { message: "   ", id: s.characterId });
    expect(empty.status).toBe(400);
    expect(empty.body).toMatchObject({ success: 0, message: "The message is empty." });
    const long = await send(t, s.token, { message: "x".repeat(151), id: s.characterId });
    expect(long.status).toBe(400);
    expect(long.body.message).toBe("The message must be at most 150 characters.");
    const foreign = await send(t, s.token, { message: "hi", id: other.characterId });
    expect(foreign.status).toBe(404);
    const foreignMember = await send(t, s.token, {
      message: "hi",
      id: s.characterId,
      cId: other.characterId,
    });
    expect(foreignMember.status).toBe(404);
    expect(await history(t, s.token, s.characterId)).toEqual(before);
    expect(await history(t, other.token, other.characterId)).toHaveLength(1);
    const ok150 = await send(t, s.token, { message: "y".repeat(150), id: s.characterId });
    expect(ok150.body.success).toBe(1);
  });

  it("pages history from the newest, 10 at a time, oldest first within a page", async () => {
    const s = await demoWithCharacter(t.app);
    await t.db.db.updateTable("users").set({ chat_limit: 100 }).where("id", "=", s.userId).execute();
    for (let i = 1; i <= 12; i++) await send(t, s.token, { message: `m${i}`, id: s.characterId });
    const newest = await history(t, s.token, s.characterId, 0);
    expect(newest.map((e) => e.chatHistoryMessage)).toEqual([
      "m3",
      "m4",
      "m5",
      "m6",
      "m7",
      "m8",
      "m9",
      "m10",
      "m11",
      "m12",
    ]);
    const older = await history(t, s.token, s.characterId, 10);
    expect(older.map((e) => e.chatHistoryMessage)).toEqual(["##first-message##", "m1", "m2"]);
  });

  it("refuses sexual content involving minors, storing nothing", async () => {
    const s = await demoWithCharacter(t.app);
    const before = await history(t, s.token, s.characterId);
    const res = await send(t, s.token, { message: "let's have sex, I'm 13 years old", id: s.characterId });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Message refused: sexual content involving minors is not allowed.");
    expect(await history(t, s.token, s.characterId)).toEqual(before);
  });

  it("New chat deletes the history; the greeting comes again", async () => {
    const s = await demoWithCharacter(t.app);
    await send(t, s.token, { message: "remember this", id: s.characterId });
    // Through the app's storage: local disk, or S3 on the shared stack.
    const photo = `${s.characterId}/user_photo/mine.jpg`;
    await t.storage.put(photo, Buffer.from("x"));
    expect(await t.storage.exists(photo)).toBe(true);
    const other = await demoWithCharacter(t.app);
    expect(
      (await call(t.app, "GET", `/api/chat/new?id=${s.characterId}`, { token: other.token })).status,
    ).toBe(404);
    const res = await call(t.app, "GET", `/api/chat/new?id=${s.characterId}&uid=${s.userId}`, {
      token: s.token,
    });
    expect(res.body).toMatchObject({ success: 1, page: `/character-select/${s.characterId}` });
    const page = await history(t, s.token, s.characterId);
    expect(page.map((e) => e.chatHistoryMessage)).toEqual(["##first-message##"]);
    expect(await t.storage.exists(photo)).toBe(false);
  });

  it("counts messages against the daily limit on the server", async () => {
    const s = await demoWithCharacter(t.app);
    await t.db.db.updateTable("users").set({ chat_limit: 2 }).where("id", "=", s.userId).execute();
    expect((await send(t, s.token, { message: "one", id: s.characterId })).body.success).toBe(1);
    expect((await send(t, s.token, { message: "two", id: s.characterId })).body.success).toBe(1);
    const third = await send(t, s.token, { message: "three", id: s.characterId, cId: s.characterId });
    expect(third.status).toBe(429);
    expect(third.body.message).toBe(
      "You have reached your limit of 2 messages for today. Upgrade your plan to chat more.",
    );
    expect(third.body.page).toBe("/pricing");
    const page = await history(t, s.token, s.characterId);
    expect(page.map((e) => e.chatHistoryMessage)).not.toContain("three");
  });
});

describeEachDatabase("chat API without a model", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect, env: { LLM_PROVIDER: "none" } });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it("keeps the user's message and answers success 0 saying an administrator has to connect a model", async () => {
    const s = await demoWithCharacter(t.app);
    const res = await send(t, s.token, { message: "Hello?", id: s.characterId });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(0);
    expect(res.body.message).toBe(
      "No language model is connected yet. Please ask the site's administrator to connect one.",
    );
    const page = await history(t, s.token, s.characterId);
    expect(page.at(-1)).toMatchObject({ chatHistoryMessage: "Hello?", chatHistoryReplyMessage: "" });
    const user = await t.db.db
      .selectFrom("users")
      .select("chat_count")
      .where("id", "=", s.userId)
      .executeTakeFirstOrThrow();
    expect(user.chat_count).toBe(0);
  });

  it("says it in the user's language, without the operator's settings", async () => {
    const s = await demoWithCharacter(t.app);
    const res = await send(t, s.token, { message: "Hallo?", id: s.characterId }, "de-DE,de;q=0.9");
    expect(res.body.success).toBe(0);
    expect(res.body.message).toBe(
      "Es ist noch kein Sprachmodell verbunden. Bitte wende dich an den Administrator der Seite, damit er eines verbindet.",
    );
    expect(res.body.message).not.toMatch(/LLM_/);
  });
});

describeEachDatabase("chat/history is paged, never silently cut at 100", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect, llm: new ScriptedLlm(() => "ok") });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  const full = async (token: string, id: string, query = "") => {
    const res = await call(t.app, "GET", `/api/chat/history?id=${id}${query}`, { token });
    return { status: res.status, ...(res.body.data as { data: ChatHistoryEntry[]; more: 0 | 1 }) };
  };

  it("answers the newest 100 with more 1, and the rest from offset 100; a page over 100 is refused", async () => {
    const s = await demoWithCharacter(t.app);
    await t.db.db.updateTable("users").set({ chat_limit: 1000 }).where("id", "=", s.userId).execute();
    for (let i = 1; i <= 101; i++) {
      expect((await send(t, s.token, { message: `m${i}`, id: s.characterId })).body.success).toBe(1);
    }
    // The greeting and 101 messages: 102 entries.
    const newest = await full(s.token, s.characterId);
    expect(newest.data).toHaveLength(100);
    expect(newest.data[0]!.chatHistoryMessage).toBe("m2");
    expect(newest.data.at(-1)!.chatHistoryMessage).toBe("m101");
    expect(newest.more).toBe(1);
    const rest = await full(s.token, s.characterId, "&offset=100");
    expect(rest.data.map((e) => e.chatHistoryMessage)).toEqual(["##first-message##", "m1"]);
    expect(rest.more).toBe(0);
    const small = await full(s.token, s.characterId, "&offset=98&limit=3");
    expect(small.data.map((e) => e.chatHistoryMessage)).toEqual(["m1", "m2", "m3"]);
    expect(small.more).toBe(1);
    expect((await full(s.token, s.characterId, "&limit=101")).status).toBe(400);
    // The greeting, older than the newest 100, is still found by the audio-message call.
    const greeting = await call(t.app, "POST", "/api/chat/audio-message", {
      token: s.token,
      form: { message: "", id: s.characterId, characterId: s.characterId, is_greeting: "1", mute: "1" },
    });
    expect(greeting.status).toBe(200);
    expect((greeting.body as MessageReply).history?.[0]?.chatHistoryMessage).toBe("##first-message##");
    // Another user's chat stays theirs.
    const other = await demoWithCharacter(t.app);
    expect(
      (await call(t.app, "GET", `/api/chat/history?id=${s.characterId}`, { token: other.token })).status,
    ).toBe(404);
  }, 120_000);
});
