import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatHistoryEntry, MessageReply } from "../../../common/api";
import type { GenerateRequest } from "../../providers/llm/llm";
import { call, demoWithCharacter, describeEachDatabase } from "../../testing/api";
import { StreamingLlm } from "../../testing/fake-llm";
import { createTestApp, type TestApp } from "../../testing/server";

/**
 * Group replies streamed per speaker (product.md §4 "Group chat", 7 `chat/group/reply`) and
 * split replies with each part's audio (product.md §4 "Split replies"), through the API with the
 * embedded eSpeak NG engine. No wall-clock timing: the model holds its reply until the test has
 * seen what it waits for (with a generous fallback whose use fails the test).
 */

/** The character a prompt is for ("You are <Name>…"). */
const speakerOf = (request: GenerateRequest) =>
  /^You are (\w+)/.exec(request.messages[0]?.content ?? "")?.[1];

interface SseEvent {
  event: string;
  data: Record<string, unknown>;
}

/** Resolves with `true` when `signal` comes first, `false` after `ms` (a fallback that fails tests). */
function firstOf(signal: Promise<void>, ms: number): Promise<boolean> {
  return Promise.race([signal.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);
}

/** A promise and its resolver. */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

describeEachDatabase("group replies streamed per speaker", (dialect) => {
  const llm = new StreamingLlm();
  /** Each member introduces itself by name, so a test knows who speaks. */
  const introduce = (request: GenerateRequest) =>
    `Hello, this is ${speakerOf(request) ?? "someone"} speaking to you now.`;
  llm.replyFor = introduce;
  let t: TestApp;
  let base = "";

  beforeAll(async () => {
    t = await createTestApp({ dialect, llm, env: { TTS_PROVIDER: "espeak" } });
    base = await t.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  /** Posts a form asking for events (or plain JSON with `plain`) and reads them; `onEvent` acts meanwhile. */
  async function stream(
    path: string,
    token: string,
    form: Record<string, string>,
    onEvent?: (e: SseEvent) => Promise<void> | void,
    method: "POST" | "GET" = "POST",
  ): Promise<SseEvent[]> {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
      body: method === "POST" ? new URLSearchParams(form) : undefined,
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
      for (let cut = buffer.indexOf("\n\n"); cut >= 0; cut = buffer.indexOf("\n\n")) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        if (!event) continue;
        const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? "{}") as Record<string, unknown>;
        events.push({ event, data });
        await onEvent?.({ event, data });
      }
    }
    return events;
  }

  /** A demo user with a group of two characters (named in messages so both answer, in order). */
  async function groupOfTwo() {
    const s = await demoWithCharacter(t.app);
    const presets = (await call(t.app, "GET", "/api/characters/selection", { token: s.token })).body
      .data as Array<{ characterPreDefinedUUID: string }>;
    await call(t.app, "POST", "/api/characters/create-preselect", {
      token: s.token,
      form: { id: presets[3]!.characterPreDefinedUUID },
    });
    const list = (await call(t.app, "GET", "/api/characters/list/", { token: s.token })).body.data as Array<{
      characterUUID: string;
      characterName: string;
    }>;
    const group = await call(t.app, "GET", `/api/chat/group/new?cId=${list[0]!.characterUUID}`, {
      token: s.token,
    });
    const groupId = group.body.page!.split("/").pop()!;
    await call(t.app, "GET", `/api/chat/group/member/add?gId=${groupId}&cId=${list[1]!.characterUUID}`, {
      token: s.token,
    });
    const [first, second] = [list[0]!, list[1]!];
    return {
      ...s,
      groupId,
      first,
      second,
      message: `${first.characterName} and ${second.characterName}, hi!`,
    };
  }

  it("streams each member in turn (entry, tokens, audio), the first words before the next member's entry exists, then the plain answer", async () => {
    const g = await groupOfTwo();
    const firstToken = signal();
    let releasedByToken: boolean | undefined;
    // The first member holds the rest of its reply until the client has its first word.
    llm.gate = async (sent, request) => {
      if (speakerOf(request) === g.first.characterName && sent === "Hello, ") {
        releasedByToken = await firstOf(firstToken.promise, 15_000);
      }
    };
    const askedBefore = llm.requests.length;
    let secondAsked = -1;
    try {
      const events = await stream(
        "/api/chat/group/reply",
        g.token,
        { message: g.message, id: g.groupId, stream: "1" },
        (e) => {
          if (e.event === "token" && secondAsked < 0) {
            secondAsked = llm.requests
              .slice(askedBefore)
              .filter((r) => speakerOf(r) === g.second.characterName).length;
            firstToken.resolve();
          }
        },
      );
      expect(releasedByToken).toBe(true);
      // When the first word arrived, the second member had not been asked anything yet.
      expect(secondAsked).toBe(0);
      const names = events.map((e) => e.event);
      const entries = events
        .filter((e) => e.event === "entry")
        .map((e) => e.data as unknown as ChatHistoryEntry);
      expect(entries.map((e) => e.characterUUID)).toEqual([g.first.characterUUID, g.second.characterUUID]);
      // The first member's entry is the user's stored message; the second its own entry.
      expect(entries[0]!.chatHistoryMessage).toBe(g.message);
      expect(entries[1]!.chatHistoryMessage).toBe("");
      const secondEntryAt = names.indexOf("entry", 1);
      expect(names.indexOf("token")).toBeLessThan(secondEntryAt);
      const text = (from: number, to: number) =>
        events
          .slice(from, to)
          .filter((e) => e.event === "token")
          .map((e) => e.data.text)
          .join("");
      expect(text(0, secondEntryAt)).toBe(`Hello, this is ${g.first.characterName} speaking to you now.`);
      expect(text(secondEntryAt, events.length)).toBe(
        `Hello, this is ${g.second.characterName} speaking to you now.`,
      );
      // Each member's sentences are spoken (audio events of its own entry) before the next speaks.
      const audio = events
        .map((e, at) => ({ ...e, at }))
        .filter((e) => e.event === "audio")
        .map((e) => ({ at: e.at, entry: e.data.chatHistoryUUID, url: String(e.data.audioUrl) }));
      const firstAudio = audio.filter((a) => a.entry === entries[0]!.chatHistoryUUID);
      const secondAudio = audio.filter((a) => a.entry === entries[1]!.chatHistoryUUID);
      expect(firstAudio.length).toBeGreaterThan(0);
      expect(secondAudio.length).toBeGreaterThan(0);
      for (const a of firstAudio) expect(a.at).toBeLessThan(secondEntryAt);
      for (const a of secondAudio) expect(a.at).toBeGreaterThan(secondEntryAt);
      for (const a of audio) expect(a.url).toMatch(/^\/content\/voice\/.+\.mp3$/);
      // The last event is the plain answer: who replied and their stored entries.
      expect(names.filter((n) => n === "done")).toHaveLength(1);
      const done = events.at(-1)!;
      expect(done.event).toBe("done");
      expect(done.data).toMatchObject({
        success: 1,
        whoReplies: [g.first.characterUUID, g.second.characterUUID],
        genimage: 0,
      });
      const history = done.data.history as ChatHistoryEntry[];
      expect(history.map((h) => h.chatHistoryUUID)).toEqual(entries.map((e) => e.chatHistoryUUID));
      expect(history.map((h) => h.chatHistoryStatus)).toEqual(["replied", "replied"]);
      for (const h of history) expect(h.chatHistoryReplyAudioUrl).toMatch(/^\/content\/voice\/.+\.mp3$/);

      // Each member's reply is its entry's own live reply: followed from the start to its own end.
      const followed = await stream(
        `/api/chat/stream?id=${entries[1]!.chatHistoryUUID}&after=0`,
        g.token,
        {},
        undefined,
        "GET",
      );
      expect(followed[0]!.event).toBe("entry");
      expect(followed[0]!.data.chatHistoryUUID).toBe(entries[1]!.chatHistoryUUID);
      expect(followed.filter((e) => e.event === "entry")).toHaveLength(1);
      const last = followed.at(-1)!;
      expect(last.event).toBe("done");
      expect((last.data as unknown as MessageReply).history?.[0]?.chatHistoryUUID).toBe(
        entries[1]!.chatHistoryUUID,
      );
    } finally {
      llm.gate = async () => {};
    }
  });

  it("Stop on the speaking member's entry stops its reply (kept, 'stopped') and ends the turn there", async () => {
    const g = await groupOfTwo();
    let stoppedInTime: boolean | undefined;
    llm.gate = async (sent, request) => {
      if (speakerOf(request) !== g.first.characterName || sent !== "Hello, ") return;
      const stopped = signal();
      if (request.signal?.aborted) stopped.resolve();
      request.signal?.addEventListener("abort", () => stopped.resolve(), { once: true });
      stoppedInTime = await firstOf(stopped.promise, 15_000);
    };
    const askedBefore = llm.requests.length;
    let entryId = "";
    let stop: { success?: number; message?: string } | undefined;
    try {
      const events = await stream(
        "/api/chat/group/reply",
        g.token,
        { message: g.message, id: g.groupId, stream: "1" },
        async (e) => {
          if (e.event === "entry" && entryId === "") entryId = String(e.data.chatHistoryUUID);
          if (e.event === "token" && !stop) {
            stop = (await call(t.app, "POST", "/api/chat/stop", { token: g.token, form: { id: entryId } }))
              .body;
          }
        },
      );
      expect(stop).toMatchObject({ success: 1, message: "Stopped." });
      expect(stoppedInTime).toBe(true);
      expect(events.filter((e) => e.event === "entry")).toHaveLength(1);
      const done = events.at(-1)!;
      expect(done.event).toBe("done");
      expect(done.data).toMatchObject({
        success: 1,
        message: "Stopped.",
        whoReplies: [g.first.characterUUID],
      });
      const history = done.data.history as ChatHistoryEntry[];
      expect(history).toHaveLength(1);
      expect(history[0]).toMatchObject({
        chatHistoryUUID: entryId,
        chatHistoryStatus: "stopped",
        chatHistoryReplyMessage: "Hello,",
      });
      // The second member was never asked.
      const asked = llm.requests.slice(askedBefore).filter((r) => speakerOf(r));
      expect(asked.map(speakerOf)).toEqual([g.first.characterName]);
    } finally {
      llm.gate = async () => {};
    }
  });

  it("a repeated clientMessageId answers the stored turn without running anyone again", async () => {
    const g = await groupOfTwo();
    const form = { message: g.message, id: g.groupId, stream: "1", clientMessageId: "group-stream-once-1" };
    const first = await stream("/api/chat/group/reply", g.token, form);
    expect(first.at(-1)!.data.success).toBe(1);
    const asked = llm.requests.length;
    const again = await stream("/api/chat/group/reply", g.token, form);
    expect(again.map((e) => e.event)).toEqual(["done"]);
    const stored = (first.at(-1)!.data.history as ChatHistoryEntry[])[0]!;
    expect((again[0]!.data.history as ChatHistoryEntry[])[0]!.chatHistoryUUID).toBe(stored.chatHistoryUUID);
    expect(llm.requests.length).toBe(asked);
  });

  it("another user's group is an error event 404 and nothing is stored or asked", async () => {
    const g = await groupOfTwo();
    const other = await demoWithCharacter(t.app);
    const asked = llm.requests.length;
    const historyOf = async () =>
      (
        await call(
          t.app,
          "GET",
          `/api/chat/history/paginated?uId=${g.userId}&id=${g.groupId}&offset=0&limit=50`,
          {
            token: g.token,
          },
        )
      ).body.data;
    const before = await historyOf();
    const events = await stream("/api/chat/group/reply", other.token, {
      message: "Hi!",
      id: g.groupId,
      stream: "1",
    });
    expect(events.map((e) => e.event)).toEqual(["error"]);
    expect(events[0]!.data).toMatchObject({ success: 0, status: 404 });
    expect(llm.requests.length).toBe(asked);
    expect(await historyOf()).toEqual(before);
  });

  it("at the daily limit: an error event 429 naming /pricing; nothing stored, no model run", async () => {
    const g = await groupOfTwo();
    await t.db.db.updateTable("users").set({ chat_limit: 1 }).where("id", "=", g.userId).execute();
    const first = await stream("/api/chat/group/reply", g.token, {
      message: g.message,
      id: g.groupId,
      stream: "1",
    });
    expect(first.at(-1)!.data.success).toBe(1);
    const asked = llm.requests.length;
    const events = await stream("/api/chat/group/reply", g.token, {
      message: "Once more!",
      id: g.groupId,
      stream: "1",
    });
    expect(events.map((e) => e.event)).toEqual(["error"]);
    expect(events[0]!.data).toMatchObject({ success: 0, status: 429, page: "/pricing" });
    expect(llm.requests.length).toBe(asked);
    const history = await call(
      t.app,
      "GET",
      `/api/chat/history/paginated?uId=${g.userId}&id=${g.groupId}&offset=0&limit=50`,
      { token: g.token },
    );
    const messages = (history.body.data as ChatHistoryEntry[]).map((e) => e.chatHistoryMessage);
    expect(messages).not.toContain("Once more!");
  });

  it("without stream the answer is the plain JSON of before, with no events", async () => {
    const g = await groupOfTwo();
    const res = await call(t.app, "POST", "/api/chat/group/reply", {
      token: g.token,
      form: { message: g.message, id: g.groupId, mute: "1" },
    });
    expect(res.body).toMatchObject({
      success: 1,
      whoReplies: [g.first.characterUUID, g.second.characterUUID],
    });
    expect(Object.keys(res.body).sort()).toEqual(["genimage", "history", "message", "success", "whoReplies"]);
  });

  describe("split replies (product.md §4): each part's own audio", () => {
    const LONG =
      "Good evening, my dear friend, how lovely it is to see you here again tonight. " +
      "The stars are bright above the old harbour and the sea is calm and silver under the moon. " +
      "Shall we walk along the water and count the boats until the lighthouse wakes up? " +
      "I brought a warm blanket and two cups of cocoa for us both.";

    it("a split reply carries one audio per part (options.splitAudioUrls), in order, plain and streamed; none when muted", async () => {
      const s = await demoWithCharacter(t.app);
      llm.replyFor = () => LONG;
      try {
        const plain = (
          await call(t.app, "POST", "/api/chat/message", {
            token: s.token,
            form: { message: "Hi!", id: s.characterId },
          })
        ).body as MessageReply;
        const options = plain.options!;
        expect(options.splitCount).toBeGreaterThan(1);
        const urls = options.splitAudioUrls ?? [];
        expect(urls).toHaveLength(options.splitCount);
        for (const url of urls) expect(url).toMatch(/^\/content\/voice\/.+\.mp3$/);
        expect(new Set(urls).size).toBe(urls.length);
        // Each part's audio is that part's words, not the whole reply's.
        expect(urls).not.toContain(plain.audioUrl);
        for (const url of urls) expect(await t.storage.exists(url.replace(/^\/content\//, ""))).toBe(true);

        const events = await stream("/api/chat/message", s.token, {
          message: "Hi again!",
          id: s.characterId,
          stream: "1",
        });
        const done = events.at(-1)!.data as unknown as MessageReply;
        expect(done.options?.splitAudioUrls).toEqual(urls);

        const muted = (
          await call(t.app, "POST", "/api/chat/message", {
            token: s.token,
            form: { message: "Quiet now.", id: s.characterId, mute: "1" },
          })
        ).body as MessageReply;
        expect(muted.options?.splitCount).toBeGreaterThan(1);
        expect(muted.options?.splitAudioUrls).toBeUndefined();
      } finally {
        llm.replyFor = introduce;
      }
    });
  });
});
