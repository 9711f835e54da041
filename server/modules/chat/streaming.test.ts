import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatHistoryEntry, MessageReply } from "../../../common/api";
import { call, demoWithCharacter } from "../../testing/api";
import { createTestApp, type TestApp, TINY_MODEL_PATH } from "../../testing/server";

interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

/** Posts a form and reads the server-sent events; `onEvent` may act while the stream runs. */
async function stream(
  url: string,
  token: string,
  form: Record<string, string>,
  onEvent?: (e: SseEvent) => Promise<void> | void,
) {
  const response = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
    body: new URLSearchParams(form),
  });
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  const events: SseEvent[] = [];
  const decoder = new TextDecoder();
  let buffer = "";
  const reader = response.body!.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut = buffer.indexOf("\n\n");
    while (cut >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? "message";
      const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? "{}") as Record<string, unknown>;
      events.push({ event, data });
      await onEvent?.({ event, data });
      cut = buffer.indexOf("\n\n");
    }
  }
  return events;
}

const hasModel = fs.existsSync(TINY_MODEL_PATH);
describe.skipIf(!hasModel)("streaming replies from the real local model", () => {
  let t: TestApp;
  let base = "";
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        LLM_PROVIDER: "llama",
        LLM_MODEL_PATH: TINY_MODEL_PATH,
        LLM_MAX_TOKENS: "120",
        LLM_THREADS: "1",
      },
    });
    await t.llmReady;
    base = await t.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it("sends the stored entry, then tokens as they come, then the stored reply", async () => {
    const s = await demoWithCharacter(t.app);
    const events = await stream(`${base}/api/chat/message`, s.token, {
      message: "Once upon a time",
      id: s.characterId,
    });
    expect(events[0]!.event).toBe("entry");
    const tokens = events.filter((e) => e.event === "token").map((e) => e.data.text as string);
    expect(tokens.length).toBeGreaterThan(3);
    const done = events.at(-1)!;
    expect(done.event).toBe("done");
    const reply = done.data as unknown as MessageReply;
    expect(reply.success).toBe(1);
    expect(reply.text!.length).toBeGreaterThan(5);
    const page = (
      await call(t.app, "GET", `/api/chat/history/paginated?id=${s.characterId}`, { token: s.token })
    ).body.data as ChatHistoryEntry[];
    expect(page.at(-1)!.chatHistoryReplyMessage).toBe(reply.text);
  });

  it("Stop ends generation early and keeps the partial reply, marked stopped", async () => {
    const s = await demoWithCharacter(t.app);
    let entryId = "";
    let tokens = 0;
    const events = await stream(
      `${base}/api/chat/message`,
      s.token,
      { message: "Tell me a long story", id: s.characterId },
      async (e) => {
        if (e.event === "entry") entryId = e.data.chatHistoryUUID as string;
        if (e.event === "token" && ++tokens === 3) {
          const stop = await call(t.app, "POST", "/api/chat/stop", { token: s.token, form: { id: entryId } });
          expect(stop.body.message).toBe("Stopped.");
        }
      },
    );
    const done = events.at(-1)!.data as unknown as MessageReply;
    expect(done.message).toBe("Stopped.");
    // An unfinished reply is one message that Continue extends, never split.
    expect(done.options?.splitCount).toBe(1);
    expect(done.options?.splitMessages).toEqual([done.text]);
    expect(events.filter((e) => e.event === "token").length).toBeLessThan(60);
    const row = await t.db.db
      .selectFrom("chat_history")
      .select(["status", "reply_message"])
      .where("id", "=", entryId)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe("stopped");
    expect(row.reply_message.length).toBeGreaterThan(0);
  });

  it("continues the newest reply, appending to the same entry", async () => {
    const s = await demoWithCharacter(t.app);
    const first = await call(t.app, "POST", "/api/chat/message", {
      token: s.token,
      form: { message: "Once upon a time", id: s.characterId },
    });
    const entry = (first.body.history as ChatHistoryEntry[])[0]!;
    const events = await stream(`${base}/api/chat/continue-message`, s.token, { id: entry.chatHistoryUUID });
    const done = events.at(-1)!.data as unknown as MessageReply;
    expect(done.success).toBe(1);
    expect(done.text!.startsWith(entry.chatHistoryReplyMessage)).toBe(true);
    expect(done.text!.length).toBeGreaterThan(entry.chatHistoryReplyMessage.length);
    expect((done.history as ChatHistoryEntry[])[0]!.chatHistoryUUID).toBe(entry.chatHistoryUUID);
    const greeting = (
      await call(t.app, "GET", `/api/chat/history/paginated?id=${s.characterId}`, { token: s.token })
    ).body.data as ChatHistoryEntry[];
    const older = await call(t.app, "POST", "/api/chat/continue-message", {
      token: s.token,
      form: { id: greeting[0]!.chatHistoryUUID },
    });
    expect(older.status).toBe(400);
    const other = await demoWithCharacter(t.app);
    const foreign = await call(t.app, "POST", "/api/chat/continue-message", {
      token: other.token,
      form: { id: entry.chatHistoryUUID },
    });
    expect(foreign.status).toBe(404);
  });

  it("answers errors inside the stream with their status", async () => {
    const s = await demoWithCharacter(t.app);
    const other = await demoWithCharacter(t.app);
    const events = await stream(`${base}/api/chat/message`, s.token, {
      message: "hi",
      id: other.characterId,
    });
    expect(events).toEqual([
      { event: "error", data: { success: 0, message: "Chat not found.", code: "not_found", status: 404 } },
    ]);
  });
});
