import { describe, expect, it } from "vitest";
import type { ChatHistoryEntry } from "../../../common/api";
import { swipeDirection } from "./hooks/useHorizontalSwipe";
import { editProblem } from "./hooks/useMessageEditing";
import { initialLiveChat, type LiveChatState, liveChatReducer } from "./liveChat";

function entry(id: string, reply = `reply ${id}`): ChatHistoryEntry {
  return {
    chatHistoryUUID: id,
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
  };
}

const withItems = (): LiveChatState => ({
  ...initialLiveChat,
  items: [
    { key: "local-1", entry: entry("a"), delivery: "sent", replyParts: ["one", "two"] },
    { key: "local-2", entry: entry("b"), delivery: "sent" },
    { key: "local-3", entry: { ...entry(""), chatHistoryUUID: "" }, delivery: "failed" },
  ],
});

describe("live items after swipes, regenerate, edits and removals", () => {
  it("shows a changed entry whole in the item holding it (split parts dropped), others untouched", () => {
    const changed = { ...entry("a", "second"), chatHistorySwipes: ["first", "second"] };
    const next = liveChatReducer(withItems(), { type: "entryReplaced", entry: changed });
    expect(next.items[0]).toEqual({
      key: "local-1",
      entry: changed,
      delivery: "sent",
      replyParts: undefined,
    });
    expect(next.items.slice(1)).toEqual(withItems().items.slice(1));
  });

  it("removes exactly the items of the removed entries; unsent ones stay", () => {
    const next = liveChatReducer(withItems(), { type: "entriesRemoved", ids: ["b", "zz"] });
    expect(next.items.map((item) => item.key)).toEqual(["local-1", "local-3"]);
  });

  it("regenerates into the bubble: emptied and streaming, then the stored entry", () => {
    let state = liveChatReducer(withItems(), {
      type: "regenerateStarted",
      key: "local-1",
      entry: entry("a"),
    });
    expect(state.items[0]).toMatchObject({ streaming: true, replyParts: undefined });
    expect(state.items[0]?.entry.chatHistoryReplyMessage).toBe("");
    expect(state.streamingId).toBe("a");
    state = liveChatReducer(state, { type: "token", key: "local-1", text: "New " });
    state = liveChatReducer(state, { type: "token", key: "local-1", text: "words" });
    expect(state.items[0]?.entry.chatHistoryReplyMessage).toBe("New words");
    const stored = { ...entry("a", "New words"), chatHistorySwipes: ["reply a", "New words"] };
    state = liveChatReducer(state, { type: "continueEnded", key: "local-1", ok: true, stored });
    expect(state.items[0]?.entry).toBe(stored);
    expect(state.items[0]?.streaming).toBe(false);
    expect(state.status).toBe("online");
  });

  it("adds the bubble of a history entry that regenerates, after the live ones", () => {
    const state = liveChatReducer(withItems(), { type: "regenerateStarted", key: "h1", entry: entry("h1") });
    expect(state.items.map((item) => item.key)).toEqual(["local-1", "local-2", "local-3", "h1"]);
    expect(state.items[3]).toMatchObject({ delivery: "sent", streaming: true, source: "message" });
  });
});

describe("edit rules and swipe gestures", () => {
  it("checks an edited message with the chat message's rule and a reply with the reply's", () => {
    expect(editProblem("message", "   ")).toBe("The message is empty.");
    expect(editProblem("message", "x".repeat(151))).toBe("The message must be at most 150 characters.");
    expect(editProblem("message", " fine ")).toBeNull();
    expect(editProblem("reply", "")).toBe("The reply is empty.");
    expect(editProblem("reply", "x".repeat(4001))).toBe("The reply must be at most 4000 characters.");
    expect(editProblem("reply", "x".repeat(4000))).toBeNull();
  });

  it("takes a long sideways move as a swipe and a vertical one as a scroll", () => {
    expect(swipeDirection(-120, 10)).toBe(1);
    expect(swipeDirection(120, -10)).toBe(-1);
    expect(swipeDirection(30, 0)).toBeNull();
    expect(swipeDirection(-80, 60)).toBeNull();
  });
});
