import { afterEach, describe, expect, it, vi } from "vitest";
import type { ChatHistoryEntry } from "../../common/api";
import { ApiError } from "./errors";
import {
  apiStream,
  eventParser,
  followStream,
  parseStreamEvent,
  RESUME_ATTEMPTS,
  type SseMessage,
  type StreamEvent,
} from "./stream";
import { block, events, json, scriptFetch } from "./stream.fakes";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("eventParser: events and their ids", () => {
  /** The events of `chunks` fed one by one. */
  const parse = (chunks: string[], cursor = { lastId: "" }) => {
    const parsed: SseMessage[] = [];
    const parser = eventParser(cursor, (event) => parsed.push(event));
    for (const chunk of chunks) parser.feed(chunk);
    return { parsed, cursor };
  };

  it("gives each event its id, keeps the last id for events without one, and holds an unfinished block", () => {
    const text = `${block("entry", { a: 1 })}${block("token", { text: "Hi" }, 1)}event: token\ndata: "x"\n\nid: 3\nevent: tok`;
    const { parsed, cursor } = parse([text]);
    expect(parsed).toEqual([
      { event: "entry", data: { a: 1 }, id: "" },
      { event: "token", data: { text: "Hi" }, id: "1" },
      { event: "token", data: "x", id: "1" },
    ]);
    // The unfinished block has not moved the cursor yet.
    expect(cursor.lastId).toBe("1");
  });

  it("ignores comments and ids holding NUL", () => {
    const { parsed, cursor } = parse([": keep-alive\n\nid: 8\0\ndata: 1\n\n"], { lastId: "4" });
    expect(parsed).toEqual([{ event: "message", data: 1, id: "4" }]);
    expect(cursor.lastId).toBe("4");
  });

  it("joins several data lines, keeps non-JSON text as the string, and drops only one leading space", () => {
    const { parsed } = parse(["id:2\ndata: a\ndata:   b\n\n"]);
    expect(parsed).toEqual([{ event: "message", data: "a\n  b", id: "2" }]);
  });

  it("reads CRLF line ends, also when a CR and its LF arrive in two chunks", () => {
    const text =
      'id: 5\r\nevent: token\r\ndata: {"text":"Hi"}\r\n\r\nid: 6\r\nevent: done\r\ndata: {}\r\n\r\n';
    const whole = parse([text]).parsed;
    expect(whole).toEqual([
      { event: "token", data: { text: "Hi" }, id: "5" },
      { event: "done", data: {}, id: "6" },
    ]);
    // Split at every position, the CR of a line end often at the end of one chunk and its LF in the next.
    for (let at = 1; at < text.length; at += 1) {
      expect(parse([text.slice(0, at), text.slice(at)]).parsed).toEqual(whole);
    }
  });
});

describe("parseStreamEvent: each message read once into common/stream-events.ts's union", () => {
  const entry: ChatHistoryEntry = {
    chatHistoryUUID: "e1",
    characterUUID: "c1",
    chatHistoryMessage: "hi",
    chatHistoryMessageImage: "",
    chatHistorySendTime: "2026-01-01T00:00:00.000Z",
    chatHistoryReplyMessage: "",
    chatHistoryReplyImage: "",
    chatHistoryReplyAudioUrl: "",
    chatHistoryReplyTime: "",
    chatHistoryImageLoading: 0,
    chatHistoryStatus: "pending",
  };
  const audio = { chatHistoryUUID: "e1", index: 0, text: "Hi.", audioUrl: "/content/voice/a.mp3" };
  const reply = {
    success: 1,
    message: "Reply.",
    text: "Hi.",
    history: [{ ...entry, chatHistoryReplyMessage: "Hi." }],
  };
  const group = { success: 1, message: "Replies.", whoReplies: ["c1"], history: [entry], genimage: 0 };
  const failure = { success: 0, message: "Try again.", code: "internal", status: 500 };
  const outage = {
    success: 0,
    message: "Briefly down.",
    code: "database_unavailable",
    status: 503,
    page: "",
  };

  it("reads each event the server sends to its member, keeping its id and its data object", () => {
    const known: Array<[string, unknown]> = [
      ["entry", entry],
      ["token", { text: "Hel" }],
      ["audio", audio],
      ["done", reply],
      ["done", group],
      ["done", { success: 0, message: "This message is still being answered.", history: [entry] }],
      ["error", failure],
      ["error", outage],
    ];
    for (const [event, data] of known) {
      const parsed = parseStreamEvent({ event, data, id: "7" });
      expect(parsed).toEqual({ event, data, id: "7" });
      expect(parsed?.data).toBe(data);
    }
  });

  it("lets handlers narrow on the event name, with no casts", () => {
    const parsed = parseStreamEvent({ event: "audio", data: audio, id: "" });
    const seen: string[] = [];
    switch (parsed?.event) {
      case "audio":
        seen.push(`${parsed.data.chatHistoryUUID}:${parsed.data.index}:${parsed.data.audioUrl}`);
        break;
      case "token":
        seen.push(parsed.data.text);
        break;
    }
    expect(seen).toEqual(["e1:0:/content/voice/a.mp3"]);
  });

  it("drops events the union does not have: the SSE default `message`, others", () => {
    for (const event of ["message", "status", "member", "heartbeat", "keep-alive", "Token", ""]) {
      expect(parseStreamEvent({ event, data: { text: "x" }, id: "1" }), event).toBeUndefined();
    }
  });

  it("drops known events whose data lacks the minimal shape", () => {
    const malformed: Array<[string, unknown]> = [
      ["entry", { characterUUID: "c1" }],
      ["entry", "e1"],
      ["token", "Hel"],
      ["token", { text: 1 }],
      ["token", null],
      ["audio", { ...audio, audioUrl: undefined }],
      ["audio", { ...audio, index: "0" }],
      ["audio", { audioUrl: "/content/voice/a.mp3" }],
      ["done", entry],
      ["done", { success: true, message: "" }],
      ["done", { success: 1 }],
      ["done", "Reply."],
      ["error", "oops"],
      ["error", { success: 1, message: "ok", code: "internal", status: 500 }],
      ["error", { success: 0, message: "no code", status: 500 }],
      ["error", { success: 0, message: "no status", code: "internal" }],
    ];
    for (const [event, data] of malformed) {
      expect(parseStreamEvent({ event, data, id: "1" }), `${event} ${JSON.stringify(data)}`).toBeUndefined();
    }
  });

  it("reaches apiStream's onEvent only for what it reads; dropped messages still move the last id", async () => {
    const calls = scriptFetch([
      events(
        [
          block("status", { text: "thinking" }, 1),
          block("entry", entry, 2),
          block("token", "not an object", 3),
          block("token", { text: "Hi." }, 4),
        ],
        true,
      ),
      events([block("done", reply, 5)]),
    ]);
    const seen: StreamEvent[] = [];
    const last = await apiStream("/chat/message", new URLSearchParams(), (event) => seen.push(event), {
      resumeId: () => "e1",
      resume: { delayMs: 1 },
    });
    expect(seen.map((event) => `${event.id}:${event.event}`)).toEqual(["2:entry", "4:token", "5:done"]);
    expect(last).toEqual({ event: "done", data: reply, id: "5" });
    expect(calls[1]?.url).toBe("/api/chat/stream?id=e1&after=4");
  });
});

describe("apiStream: a dropped stream is followed again", () => {
  const form = () => new URLSearchParams({ id: "entry-1", stream: "1" });

  it("resumes with GET /chat/stream after the last id, without repeating events, after a break", async () => {
    const calls = scriptFetch([
      events([block("entry", { chatHistoryUUID: "e1" }, 1), block("token", { text: "Hel" }, 2)], true),
      events([
        block("token", { text: "lo" }, 3),
        block("done", { success: 1, message: "", text: "Hello" }, 4),
      ]),
    ]);
    const seen: StreamEvent[] = [];
    const last = await apiStream("/chat/message", form(), (event) => seen.push(event), {
      resumeId: () => "e1",
      resume: { delayMs: 1 },
    });
    expect(last).toEqual({ event: "done", data: { success: 1, message: "", text: "Hello" }, id: "4" });
    expect(seen.map((event) => `${event.id}:${event.event}`)).toEqual([
      "1:entry",
      "2:token",
      "3:token",
      "4:done",
    ]);
    expect(calls.map((call) => `${call.method} ${call.url}`)).toEqual([
      "POST /api/chat/message",
      "GET /api/chat/stream?id=e1&after=2",
    ]);
    // The resume is signed in and asks for events like the POST.
    expect(calls[1]?.headers).toEqual({
      Accept: "text/event-stream",
      "Accept-Language": "en",
      Authorization: "Bearer secret",
    });
  });

  it("resumes when the stream ends cleanly before its final event (a proxy cut it)", async () => {
    const calls = scriptFetch([
      events([block("token", { text: "a" }, 5)]),
      events([block("done", { success: 1, message: "" }, 6)]),
    ]);
    const last = await apiStream("/chat/continue-message", form(), () => {}, {
      resumeId: () => "e9",
      resume: { delayMs: 1 },
    });
    expect(last.event).toBe("done");
    expect(calls[1]?.url).toBe("/api/chat/stream?id=e9&after=5");
  });

  it("fails as before when the reply is not known yet (no resume id)", async () => {
    const calls = scriptFetch([events([": keep-alive\n\n"], true)]);
    await expect(apiStream("/chat/message", form(), () => {}, { resumeId: () => "" })).rejects.toMatchObject({
      kind: "network",
    });
    expect(calls).toHaveLength(1);
  });

  it("returns a plain JSON refusal as the final event and does not resume", async () => {
    const calls = scriptFetch([json(429, { success: 0, message: "limit" })]);
    const last = await apiStream("/chat/message", form(), () => {}, { resumeId: () => "e1" });
    expect(last).toEqual({ event: "error", data: { success: 0, message: "limit" } });
    expect(calls).toHaveLength(1);
  });

  it("lets an error of the event handler through without resuming", async () => {
    const calls = scriptFetch([events([block("token", { text: "a" }, 1)], true)]);
    const boom = new Error("handler bug");
    await expect(
      apiStream(
        "/chat/message",
        form(),
        () => {
          throw boom;
        },
        { resumeId: () => "e1" },
      ),
    ).rejects.toBe(boom);
    expect(calls).toHaveLength(1);
  });
});

describe("followStream: bounded attempts with a doubling back-off", () => {
  it("asks again from the last id after refusals, a 502 and a broken stream, waiting 500, 1000, 2000 ms", async () => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    const waits: number[] = [];
    const realSetTimeout = setTimeout;
    vi.stubGlobal("setTimeout", (callback: () => void, ms: number) => {
      waits.push(ms);
      return realSetTimeout(callback, ms);
    });
    const calls = scriptFetch([
      new TypeError("connection refused"),
      json(502, {}),
      events([block("token", { text: "b" }, 3)], true),
      events([block("done", { success: 1, message: "" }, 4)]),
    ]);
    const tokens: string[] = [];
    const following = followStream("e1", (event) => tokens.push(String(event.id)), { after: "2" });
    await vi.runAllTimersAsync();
    expect((await following).id).toBe("4");
    expect(tokens).toEqual(["3", "4"]);
    expect(calls.map((call) => call.url)).toEqual([
      "/api/chat/stream?id=e1&after=2",
      "/api/chat/stream?id=e1&after=2",
      "/api/chat/stream?id=e1&after=2",
      "/api/chat/stream?id=e1&after=3",
    ]);
    expect(waits).toEqual([500, 1000, 2000]);
  });

  it(`gives up after ${RESUME_ATTEMPTS} attempts with a network error`, async () => {
    const calls = scriptFetch([]);
    const error = await followStream("e1", () => {}, { delayMs: 1 }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).kind).toBe("network");
    expect(calls).toHaveLength(RESUME_ATTEMPTS);
    expect(calls[0]?.url).toBe("/api/chat/stream?id=e1&after=0");
  });

  it("stops at once when its signal aborts", async () => {
    const calls = scriptFetch([]);
    const controller = new AbortController();
    const following = followStream("e1", () => {}, { delayMs: 50, signal: controller.signal });
    controller.abort();
    await expect(following).rejects.toMatchObject({ kind: "network" });
    expect(calls.length).toBeLessThanOrEqual(1);
  });

  it("answers a JSON envelope (an unknown entry) as the final event without retrying", async () => {
    const calls = scriptFetch([json(404, { success: 0, message: "Not found." })]);
    const last = await followStream("nope", () => {});
    expect(last).toEqual({ event: "error", data: { success: 0, message: "Not found." } });
    expect(calls).toHaveLength(1);
  });
});
