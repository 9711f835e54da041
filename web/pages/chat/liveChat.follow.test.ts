import { describe, expect, it } from "vitest";
import type { ChatHistoryEntry } from "../../../common/api";
import {
  conversationItems,
  initialLiveChat,
  type LiveChatAction,
  type LiveChatState,
  liveChatReducer,
  liveChatView,
  localEntry,
  planSend,
} from "./liveChat";

/** a reply followed while it is written (a reload, a second tab) and a lost stream. */

const SENT_AT = new Date("2025-01-02T03:04:05.000Z");

function stored(id: string, fields: Partial<ChatHistoryEntry> = {}): ChatHistoryEntry {
  return { ...localEntry("char-1", `message ${id}`, SENT_AT), chatHistoryUUID: id, ...fields };
}

const run = (actions: LiveChatAction[], from: LiveChatState = initialLiveChat): LiveChatState =>
  actions.reduce(liveChatReducer, from);

describe("following a pending reply", () => {
  const pending = stored("p1", { chatHistoryStatus: "pending", chatHistoryReplyMessage: "partial so far" });

  it("shows the history entry by a live item whose text grows from the first token, no send meanwhile", () => {
    let state = run([{ type: "followStarted", key: "p1", entry: pending }]);
    expect(state).toMatchObject({
      busy: true,
      status: "replying...",
      replyingCharacterId: "char-1",
      streamingId: "p1",
    });
    // The stream replays the reply from its first event: the text starts empty.
    expect(state.items[0]?.entry.chatHistoryReplyMessage).toBe("");
    expect(liveChatView(state, true)).toEqual({ canSend: false, isReplying: true, canStop: true });
    expect(planSend(state, "hello", true)).toBeNull();

    state = run(
      [
        { type: "token", key: "p1", text: "Once " },
        { type: "token", key: "p1", text: "upon" },
      ],
      state,
    );
    const shown = conversationItems([stored("a"), pending], state.items);
    expect(shown.map((item) => item.key)).toEqual(["a", "p1"]);
    expect(shown[1]).toMatchObject({ streaming: true, entry: { chatHistoryReplyMessage: "Once upon" } });
  });

  it("starting again (a remount) keeps one item for the entry", () => {
    const state = run([
      { type: "followStarted", key: "p1", entry: pending },
      { type: "token", key: "p1", text: "x" },
      { type: "followStarted", key: "p1", entry: pending },
    ]);
    expect(state.items).toHaveLength(1);
    expect(state.items[0]?.entry.chatHistoryReplyMessage).toBe("");
  });

  it("at its end the item leaves (the history holds the final entry) and sending is open again", () => {
    const started = run([{ type: "followStarted", key: "p1", entry: pending }]);
    const done = run([{ type: "followEnded", key: "p1", ok: true }], started);
    expect(done).toMatchObject({
      items: [],
      busy: false,
      status: "online",
      streamingId: "",
      replyingCharacterId: "",
    });
    expect(run([{ type: "followEnded", key: "p1", ok: false }], started).status).toBe("away");
  });
});

describe("a send whose reply stream was lost", () => {
  it("stops streaming and is marked lost (the history takes it over), then settles out", () => {
    let state = run([
      { type: "started" },
      {
        type: "queued",
        key: "local-1",
        entry: localEntry("char-1", "hi", SENT_AT),
        clientMessageId: "c1",
        source: "message",
      },
      { type: "entryStored", key: "local-1", entry: stored("e1", { chatHistoryStatus: "pending" }) },
      { type: "token", key: "local-1", text: "Hel" },
      { type: "lost", key: "local-1" },
    ]);
    expect(state.items[0]).toMatchObject({ lost: true, streaming: false, delivery: "sent" });
    expect(state.streamingId).toBe("");
    // Not handed over (the history could not be loaded): Failed, with Retry, and no longer lost.
    const failed = run([{ type: "failed", key: "local-1" }], state);
    expect(failed.items[0]).toMatchObject({ lost: false, delivery: "failed" });
    state = run([{ type: "settled", key: "local-1" }], state);
    expect(state.items).toEqual([]);
  });
});
