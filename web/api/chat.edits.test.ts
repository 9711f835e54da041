import { afterEach, describe, expect, it, vi } from "vitest";
import type { ChatHistoryEntry } from "../../common/api";
import { editEntry, regenerateReplyStream, removeEntries, swipeReply } from "./edits";
import { block, events, json } from "./stream.fakes";

afterEach(() => {
  vi.unstubAllGlobals();
});

const entry = (reply: string, swipes?: string[]): ChatHistoryEntry => ({
  chatHistoryUUID: "e1",
  characterUUID: "c1",
  chatHistoryMessage: "hi",
  chatHistoryMessageImage: "",
  chatHistorySendTime: "2026-01-01T00:00:00.000Z",
  chatHistoryReplyMessage: reply,
  chatHistoryReplyImage: "",
  chatHistoryReplyAudioUrl: "",
  chatHistoryReplyTime: "2026-01-01T00:00:01.000Z",
  chatHistoryImageLoading: 0,
  chatHistoryStatus: "replied",
  ...(swipes ? { chatHistorySwipes: swipes, chatHistorySwipeIndex: 1 } : {}),
});

/** Answers each fetch with the next of `answers`; records the url, method and form body of each call. */
function stubFetch(answers: Response[]) {
  const calls: Array<{ url: string; method: string; body: Record<string, string> }> = [];
  vi.stubGlobal("localStorage", {
    getItem: (key: string) =>
      key === "token" ? JSON.stringify({ token: "secret", expirationTime: Date.now() + 60_000 }) : null,
  });
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      calls.push({
        url,
        method: init.method ?? "GET",
        body: Object.fromEntries(new URLSearchParams(init.body as URLSearchParams)),
      });
      const answer = answers.shift();
      if (answer === undefined) throw new TypeError("connection refused");
      return answer;
    }),
  );
  return calls;
}

describe("reply calls: regenerate, swipe, edit, delete, rewind", () => {
  it("regenerates streamed: tokens as they come, the stored entry with its swipes at the end", async () => {
    const stored = entry("Two", ["One", "Two"]);
    const calls = stubFetch([
      events([
        block("entry", entry(""), 1),
        block("token", { text: "T" }, 2),
        block("token", { text: "wo" }, 3),
        block("done", { success: 1, message: "", history: [stored] }, 4),
      ]),
    ]);
    const tokens: string[] = [];
    const reply = await regenerateReplyStream("e1", true, { onToken: (text) => tokens.push(text) });
    expect(tokens).toEqual(["T", "wo"]);
    expect(reply.history?.[0]).toEqual(stored);
    expect(calls).toEqual([
      { url: "/api/chat/regenerate", method: "POST", body: { id: "e1", stream: "1", mute: "1" } },
    ]);
  });

  it("gives a refusal back as a reply (429 with its page), not as an error", async () => {
    const limit = {
      success: 0,
      message: "You have reached your daily limit.",
      code: "quota_reached",
      page: "/pricing",
    };
    stubFetch([json(429, limit)]);
    const reply = await regenerateReplyStream("e1", false, { onToken: () => {} });
    expect(reply).toMatchObject({ success: 0, message: limit.message, page: "/pricing" });
  });

  it("swipes and edits, answering the changed entry; refusals throw the server's sentence", async () => {
    const changed = entry("One", ["One", "Two"]);
    const calls = stubFetch([
      json(200, { success: 1, message: "", history: [changed] }),
      json(200, { success: 1, message: "", history: [entry("Better")] }),
      json(404, { success: 0, message: "Message not found.", code: "not_found" }),
    ]);
    expect(await swipeReply("e1", 0)).toEqual(changed);
    expect((await editEntry("e1", "reply", "Better")).chatHistoryReplyMessage).toBe("Better");
    await expect(editEntry("e1", "message", "x")).rejects.toMatchObject({
      kind: "envelope",
      status: 404,
      message: "Message not found.",
    });
    expect(calls.map(({ url, body }) => [url, body])).toEqual([
      ["/api/chat/swipe", { id: "e1", index: "0" }],
      ["/api/chat/edit", { id: "e1", part: "reply", text: "Better" }],
      ["/api/chat/edit", { id: "e1", part: "message", text: "x" }],
    ]);
  });

  it("deletes and rewinds, answering the removed ids", async () => {
    const calls = stubFetch([
      json(200, { success: 1, message: "", removed: ["e1"] }),
      json(200, { success: 1, message: "", removed: ["e2", "e3"] }),
    ]);
    expect(await removeEntries("delete", "e1")).toEqual(["e1"]);
    expect(await removeEntries("rewind", "e1")).toEqual(["e2", "e3"]);
    expect(calls.map((call) => call.url)).toEqual(["/api/chat/delete", "/api/chat/rewind"]);
  });
});
