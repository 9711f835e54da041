import { describe, expect, it } from "vitest";
import type { ChatHistoryEntry } from "../../../common/api";
import type { ChatHistoryRow } from "../../db/schema";
import type { EventStream } from "../../http/sse";
import { MemoryLiveReplies } from "./live-replies";
import { StreamedReply } from "./reply-stream";
import { TOKEN_FLUSH_MS, TokenBatch } from "./token-batch";

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("token batches", () => {
  it("sends the first token at once and joins the ones that follow within the window", async () => {
    const sent: string[] = [];
    const batch = new TokenBatch((text) => sent.push(text));
    batch.push("Hel");
    expect(sent).toEqual(["Hel"]);
    batch.push("lo");
    batch.push(" there");
    expect(sent).toEqual(["Hel"]);
    await wait(TOKEN_FLUSH_MS + 30);
    expect(sent).toEqual(["Hel", "lo there"]);
    // After a pause longer than the window the next token leaves at once again.
    await wait(TOKEN_FLUSH_MS + 10);
    batch.push("!");
    expect(sent).toEqual(["Hel", "lo there", "!"]);
  });

  it("holds a token no longer than the window while tokens keep coming", async () => {
    const sent: Array<{ text: string; at: number }> = [];
    const started = performance.now();
    const batch = new TokenBatch((text) => sent.push({ text, at: performance.now() - started }));
    const pushedAt = new Map<string, number>();
    for (let i = 0; i < 12; i += 1) {
      pushedAt.set(`t${i} `, performance.now() - started);
      batch.push(`t${i} `);
      await wait(15);
    }
    await wait(TOKEN_FLUSH_MS + 30);
    expect(sent.map((s) => s.text).join("")).toBe(Array.from({ length: 12 }, (_u, i) => `t${i} `).join(""));
    // Fewer events than tokens, and each batch left within the window (plus timer slack on a busy machine)
    // of its first token.
    expect(sent.length).toBeLessThan(12);
    for (const { text, at } of sent) {
      const first = pushedAt.get(`${text.split(" ")[0]} `)!;
      expect(at - first).toBeLessThan(TOKEN_FLUSH_MS + 60);
    }
  });

  it("flush sends what is held at once, and nothing is sent twice", async () => {
    const sent: string[] = [];
    const batch = new TokenBatch((text) => sent.push(text));
    batch.push("a");
    batch.push("b");
    batch.flush();
    expect(sent).toEqual(["a", "b"]);
    batch.flush();
    await wait(TOKEN_FLUSH_MS + 30);
    expect(sent).toEqual(["a", "b"]);
  });
});

/** An event stream that records what it would send. */
function recordingStream(): EventStream & { sent: Array<{ event: string; data: unknown; id?: number }> } {
  const sent: Array<{ event: string; data: unknown; id?: number }> = [];
  return {
    sent,
    send: (event, data, id) => sent.push({ event, data, id }),
    fail: () => {},
    end: () => {},
    open: true,
  };
}

describe("a streamed reply's token events", () => {
  /** The `entry` event's data (a whole entry: the emitter takes only common/stream-events.ts shapes). */
  const stored: ChatHistoryEntry = {
    chatHistoryUUID: "entry-1",
    characterUUID: "c1",
    chatHistoryMessage: "Tell me a story",
    chatHistoryMessageImage: "",
    chatHistorySendTime: "2026-01-01T00:00:00.000Z",
    chatHistoryReplyMessage: "",
    chatHistoryReplyImage: "",
    chatHistoryReplyAudioUrl: "",
    chatHistoryReplyTime: "",
    chatHistoryImageLoading: 0,
    chatHistoryStatus: "pending",
  };

  it("go out batched, before the event that follows them, with the same ids in the live reply", async () => {
    const live = new MemoryLiveReplies();
    const events = recordingStream();
    const reply = new StreamedReply(events, live);
    await reply.attach({ id: "entry-1" } as ChatHistoryRow, true);
    reply.emit("entry", stored);
    for (const piece of ["Once", " upon", " a", " time"]) reply.emit("token", { text: piece });
    reply.emit("done", { success: 1, message: "Reply." });
    expect(events.sent.map((e) => e.event)).toEqual(["entry", "token", "token", "done"]);
    expect(events.sent[1]!.data).toEqual({ text: "Once" });
    expect(events.sent[2]!.data).toEqual({ text: " upon a time" });
    expect(events.sent.map((e) => e.id)).toEqual([1, 2, 3, 4]);

    // A follower resuming after the first token gets the rest as it was sent.
    const replayed: Array<{ seq: number; event: string; data: unknown }> = [];
    await live.follow("entry-1", 2, (e) => replayed.push(e));
    expect(replayed).toEqual([
      { seq: 3, event: "token", data: { text: " upon a time" } },
      { seq: 4, event: "done", data: { success: 1, message: "Reply." } },
    ]);
    await live.close();
  });

  it("sends the held tokens when the stream closes without a last event", async () => {
    const live = new MemoryLiveReplies();
    const events = recordingStream();
    const reply = new StreamedReply(events, live);
    await reply.attach({ id: "entry-2" } as ChatHistoryRow, true);
    reply.emit("token", { text: "Hi" });
    reply.emit("token", { text: " you" });
    reply.close();
    expect(events.sent.map((e) => e.data)).toEqual([{ text: "Hi" }, { text: " you" }]);
    await wait(TOKEN_FLUSH_MS + 30);
    expect(events.sent).toHaveLength(2);
    await live.close();
  });
});
