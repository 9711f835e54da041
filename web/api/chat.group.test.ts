import { afterEach, describe, expect, it, vi } from "vitest";
import type { ChatHistoryEntry } from "../../common/api";
import { sendGroupMessageStream } from "./groups";
import { ReplyLostError } from "./replies";
import { block, events, json, scriptFetch } from "./stream.fakes";

afterEach(() => {
  vi.unstubAllGlobals();
});

function entry(id: string, characterId: string, reply = ""): ChatHistoryEntry {
  return {
    chatHistoryUUID: id,
    characterUUID: characterId,
    chatHistoryMessage: id === "e1" ? "hi" : "",
    chatHistoryMessageImage: "",
    chatHistorySendTime: "2025-01-01T00:00:00.000Z",
    chatHistoryReplyMessage: reply,
    chatHistoryReplyImage: "",
    chatHistoryReplyAudioUrl: "",
    chatHistoryReplyTime: "",
    chatHistoryImageLoading: 0,
    chatHistoryStatus: reply ? "replied" : "pending",
  };
}

const input = { message: "hi", groupId: "g1", clientMessageId: "m-1", mute: true };

describe("sendGroupMessageStream (a group reply streamed per speaker)", () => {
  it("asks for events and reports each member's entry, tokens and audio in turn, then the plain answer", async () => {
    const done = {
      success: 1,
      message: "Replies.",
      whoReplies: ["c1", "c2"],
      history: [entry("e1", "c1", "One."), entry("e2", "c2", "Two.")],
      genimage: 0,
    };
    const calls = scriptFetch([
      events([
        block("entry", entry("e1", "c1")),
        block("token", { text: "One." }),
        block("audio", { chatHistoryUUID: "e1", index: 0, text: "One.", audioUrl: "/content/voice/1.mp3" }),
        block("entry", entry("e2", "c2")),
        block("token", { text: "Two." }),
        block("done", done),
      ]),
    ]);
    const seen: string[] = [];
    const reply = await sendGroupMessageStream(input, {
      onEntry: (e) => seen.push(`entry:${e.chatHistoryUUID}`),
      onToken: (text) => seen.push(`token:${text}`),
      onAudio: (audio) => seen.push(`audio:${audio.chatHistoryUUID}:${audio.audioUrl}`),
    });
    expect(reply).toEqual(done);
    expect(seen).toEqual([
      "entry:e1",
      "token:One.",
      "audio:e1:/content/voice/1.mp3",
      "entry:e2",
      "token:Two.",
    ]);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe("/api/chat/group/reply");
    expect(calls[0]?.headers.accept ?? calls[0]?.headers.Accept).toContain("text/event-stream");
  });

  it("a refusal as plain JSON (429 at the limit) comes back as the reply with its page", async () => {
    scriptFetch([json(429, { success: 0, message: "Daily limit reached.", page: "/pricing" })]);
    const reply = await sendGroupMessageStream(input, { onToken: () => {} });
    expect(reply).toMatchObject({ success: 0, message: "Daily limit reached.", page: "/pricing" });
  });

  it("a connection lost after the first entry hands the turn to the history (ReplyLostError), without a resume", async () => {
    const calls = scriptFetch([
      events([block("entry", entry("e1", "c1")), block("token", { text: "On" })], true),
    ]);
    const error = await sendGroupMessageStream(input, { onToken: () => {} }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ReplyLostError);
    expect((error as ReplyLostError).entryId).toBe("e1");
    expect(calls).toHaveLength(1);
  });

  it("a connection lost before any entry is a plain network failure", async () => {
    scriptFetch([events([], true)]);
    const error = await sendGroupMessageStream(input, { onToken: () => {} }).catch(
      (caught: unknown) => caught,
    );
    expect(error).not.toBeInstanceOf(ReplyLostError);
    expect(error).toMatchObject({ kind: "network" });
  });
});
