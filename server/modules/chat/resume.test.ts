import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LlmProvider } from "../../providers/llm/llm";
import { call, demoWithCharacter } from "../../testing/api";
import { createTestApp, type TestApp } from "../../testing/server";

/** A model whose reply comes piece by piece when the test says so (`say`, then `finish`). */
function gatedModel() {
  const queue: Array<string | null> = [];
  let wake: () => void = () => {};
  const llm: LlmProvider = {
    name: "gated",
    contextWindow: () => 4096,
    status: () => ({ ready: true, message: "ready" }),
    countTokens: (text) => Math.ceil(text.length / 4),
    close: async () => {},
    async generate(request) {
      // Background memory calls answer at once; replies wait for the test.
      if (!request.messages[0]!.content.startsWith("You are")) return { text: "[]", modelMs: 0 };
      let text = "";
      for (;;) {
        while (queue.length === 0) {
          if (request.signal?.aborted) throw new Error("aborted");
          await new Promise<void>((resolve) => {
            wake = resolve;
            request.signal?.addEventListener("abort", () => resolve(), { once: true });
          });
        }
        const chunk = queue.shift()!;
        if (chunk === null) return { text, modelMs: 1 };
        text += chunk;
        request.onTextChunk?.(chunk);
      }
    },
  };
  return {
    llm,
    say: (chunk: string) => {
      queue.push(chunk);
      wake();
    },
    finish: () => {
      queue.push(null);
      wake();
    },
  };
}

interface SseEvent {
  id?: number;
  event: string;
  data: Record<string, unknown>;
}

/** Opens a server-sent events request; `next()` reads the next event (undefined at the end). */
async function openSse(url: string, init: RequestInit) {
  const response = await fetch(url, init);
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  const seen: SseEvent[] = [];
  const next = async (): Promise<SseEvent | undefined> => {
    for (;;) {
      const cut = buffer.indexOf("\n\n");
      if (cut >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        if (block.startsWith(":")) continue;
        const id = /^id: (.*)$/m.exec(block)?.[1];
        const event: SseEvent = {
          ...(id === undefined ? {} : { id: Number(id) }),
          event: /^event: (.*)$/m.exec(block)?.[1] ?? "message",
          data: JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? "{}"),
        };
        seen.push(event);
        return event;
      }
      const { value, done } = await reader.read();
      if (done) return undefined;
      buffer += value;
    }
  };
  /** Reads to the end of the stream. @returns every event read, from the first. */
  const rest = async () => {
    while (await next()) {}
    return seen;
  };
  return { response, next, rest };
}

/**
 * GET /api/chat/stream resumes a streamed reply from the last event id a client saw and
 * follows it to the end; a reply with no live stream answers one `done` with the stored entry.
 */
describe("resuming a streamed reply", () => {
  let t: TestApp;
  let base = "";
  const model = gatedModel();
  beforeAll(async () => {
    t = await createTestApp({ llm: model.llm });
    base = await t.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    model.finish();
    await t?.dispose();
  });
  const auth = (token: string, extra: Record<string, string> = {}) => ({
    authorization: `Bearer ${token}`,
    ...extra,
  });
  /** Starts a streamed message and reads its `entry` event. */
  async function startReply(token: string, characterId: string) {
    const stream = await openSse(`${base}/api/chat/message`, {
      method: "POST",
      headers: auth(token, { accept: "text/event-stream" }),
      body: new URLSearchParams({ message: "Tell me a story", id: characterId }),
    });
    const entry = await stream.next();
    expect(entry).toMatchObject({ id: 1, event: "entry" });
    return { stream, entryId: entry!.data.chatHistoryUUID as string };
  }
  const resume = (token: string, query: string, headers: Record<string, string> = {}) =>
    openSse(`${base}/api/chat/stream?${query}`, { headers: auth(token, headers) });

  it("replays the events after Last-Event-ID, then follows the reply to done", async () => {
    const s = await demoWithCharacter(t.app);
    const { stream, entryId } = await startReply(s.token, s.characterId);
    model.say("Once ");
    expect(await stream.next()).toEqual({ id: 2, event: "token", data: { text: "Once " } });
    model.say("upon ");
    expect(await stream.next()).toEqual({ id: 3, event: "token", data: { text: "upon " } });
    // A reload that saw event 2: it gets 3, then the reply as it goes on.
    const resumed = await resume(s.token, `id=${entryId}`, { "last-event-id": "2" });
    expect(resumed.response.headers.get("content-type")).toContain("text/event-stream");
    expect(await resumed.next()).toEqual({ id: 3, event: "token", data: { text: "upon " } });
    model.say("a time");
    model.finish();
    const original = await stream.rest();
    const followed = await resumed.rest();
    expect(original.map((e) => e.id)).toEqual([1, 2, 3, 4, 5]);
    expect(followed.map((e) => [e.id, e.event])).toEqual([
      [3, "token"],
      [4, "token"],
      [5, "done"],
    ]);
    expect(followed.at(-1)!.data).toEqual(original.at(-1)!.data);
    expect(followed.at(-1)!.data).toMatchObject({ success: 1, text: "Once upon a time" });
    // `after` in the query does the same; the ended reply is replayed from there.
    const late = await (await resume(s.token, `id=${entryId}&after=3`)).rest();
    expect(late.map((e) => [e.id, e.event])).toEqual([
      [4, "token"],
      [5, "done"],
    ]);
  });

  it("numbers a continuation after the reply it continues, starting with the entry", async () => {
    const s = await demoWithCharacter(t.app);
    const { stream, entryId } = await startReply(s.token, s.characterId);
    model.say("Hello.");
    model.finish();
    expect((await stream.rest()).map((e) => e.id)).toEqual([1, 2, 3]);
    const continued = await openSse(`${base}/api/chat/continue-message`, {
      method: "POST",
      headers: auth(s.token, { accept: "text/event-stream" }),
      body: new URLSearchParams({ id: entryId }),
    });
    const entry = await continued.next();
    expect(entry).toMatchObject({ id: 4, event: "entry", data: { chatHistoryReplyMessage: "Hello." } });
    const followed = await resume(s.token, `id=${entryId}`, { "last-event-id": "3" });
    model.say(" Bye.");
    model.finish();
    const all = await continued.rest();
    expect(all.map((e) => [e.id, e.event])).toEqual([
      [4, "entry"],
      [5, "token"],
      [6, "done"],
    ]);
    expect((await followed.rest()).map((e) => e.id)).toEqual([4, 5, 6]);
    expect(all.at(-1)!.data).toMatchObject({ success: 1, text: "Hello. Bye." });
  });

  it("answers one done with the stored entry when the reply has no live stream", async () => {
    const s = await demoWithCharacter(t.app);
    model.say("A plain answer.");
    model.finish();
    const plain = await call(t.app, "POST", "/api/chat/message", {
      token: s.token,
      form: { message: "Hello", id: s.characterId },
    });
    expect(plain.body.success).toBe(1);
    const entryId = (plain.body.history as Array<{ chatHistoryUUID: string }>)[0]!.chatHistoryUUID;
    const events = await (await resume(s.token, `id=${entryId}`, { "last-event-id": "7" })).rest();
    expect(events).toEqual([{ id: 7, event: "done", data: plain.body }]);
  });

  it("refuses another user's entry with 404 before anything else, and bad input with 400", async () => {
    const owner = await demoWithCharacter(t.app);
    const { stream, entryId } = await startReply(owner.token, owner.characterId);
    const attacker = await demoWithCharacter(t.app);
    const stolen = await call(t.app, "GET", `/api/chat/stream?id=${entryId}`, { token: attacker.token });
    expect(stolen).toEqual({
      status: 404,
      body: { success: 0, message: "Message not found.", code: "not_found" },
    });
    const withId = await fetch(`${base}/api/chat/stream?id=${entryId}`, {
      headers: auth(attacker.token, { "last-event-id": "0" }),
    });
    expect(withId.status).toBe(404);
    expect(withId.headers.get("content-type")).toContain("application/json");
    expect((await call(t.app, "GET", `/api/chat/stream?id=${entryId}`)).status).toBe(401);
    const bad = await call(t.app, "GET", "/api/chat/stream?id=not-an-id", { token: owner.token });
    expect(bad.status).toBe(400);
    const badAfter = await call(t.app, "GET", `/api/chat/stream?id=${entryId}&after=-1`, {
      token: owner.token,
    });
    expect(badAfter.status).toBe(400);
    model.finish();
    await stream.rest();
  });

  // Last: the shutdown cannot be undone for this app.
  it("ends a following stream without a last event at shutdown, while the reply goes on", async () => {
    const s = await demoWithCharacter(t.app);
    const { stream, entryId } = await startReply(s.token, s.characterId);
    const followed = await resume(s.token, `id=${entryId}&after=1`);
    model.say("Still ");
    expect(await followed.next()).toMatchObject({ id: 2, event: "token" });
    t.app.lifecycle.beginShutdown();
    // A resumable end: no done, no error; the client reconnects with Last-Event-ID 2.
    expect(await followed.next()).toBeUndefined();
    model.say("here.");
    model.finish();
    const original = await stream.rest();
    expect(original.at(-1)).toMatchObject({ id: 4, event: "done", data: { text: "Still here." } });
    // While shutting down, a new follower ends at once, resumably, too.
    expect(await (await resume(s.token, `id=${entryId}`)).rest()).toEqual([]);
  });
});
