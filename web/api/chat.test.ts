import { afterEach, describe, expect, it, vi } from "vitest";
import type { ChatHistoryEntry } from "../../common/api";
import { followReply, sendMessageStream } from "./chat";
import { finalReply, ReplyLostError } from "./replies";
import { RESUME_ATTEMPTS } from "./stream";
import { block, events, json, scriptFetch } from "./stream.fakes";

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

function entry(status: ChatHistoryEntry["chatHistoryStatus"], reply = ""): ChatHistoryEntry {
  return {
    chatHistoryUUID: "e1",
    characterUUID: "c1",
    chatHistoryMessage: "hi",
    chatHistoryMessageImage: "",
    chatHistorySendTime: "2025-01-01T00:00:00.000Z",
    chatHistoryReplyMessage: reply,
    chatHistoryReplyImage: "",
    chatHistoryReplyAudioUrl: "",
    chatHistoryReplyTime: "",
    chatHistoryImageLoading: 0,
    chatHistoryStatus: status,
  };
}

const input = {
  message: "hi",
  chatId: "c1",
  characterId: "c1",
  mute: "1" as const,
  time: new Date("2025-01-01T00:00:00.000Z"),
};

/** Runs `work` with the back-off's timers run at once. */
async function withFastTimers<T>(work: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  const result = work().then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  await vi.runAllTimersAsync();
  const settled = await result;
  if ("error" in settled) throw settled.error;
  return settled.value;
}

describe("finalReply (product.md §3)", () => {
  it("answers the final event's data as it came: a message reply, a failure, a plain refusal", () => {
    const reply = { success: 1 as const, message: "", text: "Yo", history: [entry("replied", "Yo")] };
    expect(finalReply({ event: "done", data: reply })).toBe(reply);
    const failure = { success: 0 as const, message: "oops", code: "internal" as const, status: 500 };
    expect(finalReply({ event: "error", data: failure })).toBe(failure);
    const limit = { success: 0 as const, message: "limit", code: "quota_reached" as const, page: "/pricing" };
    expect(finalReply({ event: "error", data: limit })).toBe(limit);
  });

  it("throws ReplyLostError for a reply still pending (its server is gone), not for a refusal", () => {
    // GET /chat/stream's answer for a stored entry without a live reply (presentStoredReply).
    const stored = {
      success: 0 as const,
      message: "This message is still being answered.",
      history: [entry("pending")],
    };
    expect(() => finalReply({ event: "done", data: stored })).toThrow(ReplyLostError);
    const refusal = { success: 0 as const, message: "busy", history: [entry("pending")] };
    expect(finalReply({ event: "error", data: refusal })).toBe(refusal);
  });
});

describe("sendMessageStream: resume, then hand over to the history", () => {
  it("follows a dropped reply to its end with the same handlers", async () => {
    const done = { success: 1, message: "", text: "Hello", history: [entry("replied", "Hello")] };
    const calls = scriptFetch([
      events([block("entry", entry("pending"), 1), block("token", { text: "Hel" }, 2)], true),
      events([block("token", { text: "lo" }, 3), block("done", done, 4)]),
    ]);
    const tokens: string[] = [];
    const entries: string[] = [];
    const reply = await withFastTimers(() =>
      sendMessageStream(input, {
        onEntry: (stored) => entries.push(stored.chatHistoryUUID),
        onToken: (text) => tokens.push(text),
      }),
    );
    expect(reply).toEqual(done);
    expect(tokens.join("")).toBe("Hello");
    expect(entries).toEqual(["e1"]);
    expect(calls[1]?.url).toBe("/api/chat/stream?id=e1&after=2");
  });

  it(`throws ReplyLostError with the entry id after ${RESUME_ATTEMPTS} failed resumes`, async () => {
    const calls = scriptFetch([events([block("entry", entry("pending"), 1)], true)]);
    const error = await withFastTimers(() => sendMessageStream(input, { onToken: () => {} })).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ReplyLostError);
    expect((error as ReplyLostError).entryId).toBe("e1");
    expect(calls).toHaveLength(1 + RESUME_ATTEMPTS);
  });

  it("fails as before (not lost) when the connection drops before the entry is stored", async () => {
    const calls = scriptFetch([events([], true)]);
    const error = await sendMessageStream(input, { onToken: () => {} }).catch((caught: unknown) => caught);
    expect(error).not.toBeInstanceOf(ReplyLostError);
    expect(error).toMatchObject({ kind: "network" });
    expect(calls).toHaveLength(1);
  });

  it("hands over when the resume finds no live reply and the entry still pending", async () => {
    const stored = {
      success: 0,
      message: "This message is still being answered.",
      history: [entry("pending")],
    };
    const calls = scriptFetch([
      events([block("entry", entry("pending"), 1)], true),
      events([block("done", stored)]),
    ]);
    await expect(
      withFastTimers(() => sendMessageStream(input, { onToken: () => {} })),
    ).rejects.toBeInstanceOf(ReplyLostError);
    // Lost by that `done`, not by resumes that ran out.
    expect(calls).toHaveLength(2);
  });
});

describe("followReply", () => {
  it("replays the reply from its first event and returns the stored entry", async () => {
    const calls = scriptFetch([
      events([
        block("entry", entry("pending"), 1),
        block("token", { text: "A" }, 2),
        block("token", { text: "B" }, 3),
        block("done", { success: 1, message: "", history: [entry("replied", "AB")] }, 4),
      ]),
    ]);
    const tokens: string[] = [];
    const reply = await followReply("e1", (text) => tokens.push(text), new AbortController().signal);
    expect(tokens).toEqual(["A", "B"]);
    expect(reply.history?.[0]?.chatHistoryReplyMessage).toBe("AB");
    expect(calls.map((call) => call.url)).toEqual(["/api/chat/stream?id=e1&after=0"]);
  });

  it("is not 'lost' when the screen closed it (aborted), and says 'lost' for an unknown reply", async () => {
    scriptFetch([]);
    const controller = new AbortController();
    controller.abort();
    const closed = await followReply("e1", () => {}, controller.signal).catch((caught: unknown) => caught);
    expect(closed).not.toBeInstanceOf(ReplyLostError);
    scriptFetch([json(200, { success: 1, message: "", history: [entry("pending")] })]);
    await expect(followReply("e1", () => {}, new AbortController().signal)).rejects.toBeInstanceOf(
      ReplyLostError,
    );
  });
});
