import { describe, expect, it } from "vitest";
import type { ChatHistoryEntry } from "../../../common/api";
import { toRows } from "./components/messageRows";
import { type LiveChatAction, type LiveChatState, liveChatReducer } from "./liveChat";
import { initialLiveChat } from "./liveChatState";
import { dispatchLive, StreamingText } from "./streamingText";

function entry(fields: Partial<ChatHistoryEntry> = {}): ChatHistoryEntry {
  return {
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
    ...fields,
  };
}

/** The dispatch `useLiveChat` makes: tokens to the store, any other action after the store's text is folded in. */
function liveChat() {
  let state: LiveChatState = initialLiveChat;
  const store = new StreamingText();
  const later: Array<() => void> = [];
  const dispatch = (action: LiveChatAction) =>
    dispatchLive(
      action,
      store,
      (next) => {
        state = liveChatReducer(state, next);
      },
      (apply) => later.push(apply),
    );
  /** Runs the deferred changes (React's transition). */
  const settle = () => {
    for (const apply of later.splice(0)) apply();
  };
  return { dispatch, settle, store, state: () => state };
}

describe("the streaming text store", () => {
  it("tells a bubble of its own tokens only, and every listener of any token", () => {
    const store = new StreamingText();
    const heard: string[] = [];
    const stopA = store.subscribe("a", () => heard.push(`a:${store.tail("a")}`));
    store.subscribe("b", () => heard.push(`b:${store.tail("b")}`));
    let any = 0;
    store.subscribeAny(() => {
      any += 1;
    });
    store.append("a", "Hel");
    store.append("b", "Yo");
    store.append("a", "lo");
    store.append("a", "");
    expect(heard).toEqual(["a:Hel", "b:Yo", "a:Hello"]);
    expect(any).toBe(3);
    stopA();
    store.append("a", "!");
    expect(heard).toHaveLength(3);
    expect(store.tail("a")).toBe("Hello!");
  });

  it("hands its text over once, and holds none after", () => {
    const store = new StreamingText();
    store.append("a", "one ");
    store.append("b", "two");
    expect(store.hasAny()).toBe(true);
    expect(store.take()).toEqual([
      ["a", "one "],
      ["b", "two"],
    ]);
    expect(store.hasAny()).toBe(false);
    expect(store.tail("a")).toBe("");
    expect(store.take()).toEqual([]);
  });

  it("keeps tokens out of the state while a reply streams, and folds them in before the next action", () => {
    const live = liveChat();
    live.dispatch({ type: "queued", key: "k", entry: entry({ chatHistoryUUID: "" }), source: "message" });
    // Queuing waits for the transition; the stream's start is applied at once.
    expect(live.state().items).toHaveLength(0);
    live.settle();
    live.dispatch({ type: "entryStored", key: "k", entry: entry() });
    expect(live.state().items[0]?.streaming).toBe(true);
    const streamingState = live.state();
    for (const word of ["Once ", "upon ", "a time."]) live.dispatch({ type: "token", key: "k", text: word });
    // No token changed the state: nothing but the bubble renders on a token.
    expect(live.state()).toBe(streamingState);
    expect(live.store.tail("k")).toBe("Once upon a time.");
    // A lost stream keeps every word shown (the fold runs before the action).
    live.dispatch({ type: "lost", key: "k" });
    live.settle();
    expect(live.state().items[0]?.entry.chatHistoryReplyMessage).toBe("Once upon a time.");
    expect(live.store.hasAny()).toBe(false);
  });

  it("lays a streaming reply out as a bubble before its first token, keyed by its item", () => {
    const rows = toRows([{ key: "k", entry: entry(), delivery: "sent", streaming: true }]);
    const reply = rows.find((row) => row.kind === "reply");
    expect(reply?.kind === "reply" && reply.itemKey).toBe("k");
    expect(toRows([{ key: "k", entry: entry(), delivery: "sent" }]).some((row) => row.kind === "reply")).toBe(
      false,
    );
  });

  it("marks every stream start streaming, so its bubble reads the store from the first token", () => {
    const followed = liveChatReducer(initialLiveChat, { type: "followStarted", key: "e1", entry: entry() });
    const continued = liveChatReducer(initialLiveChat, {
      type: "continueStarted",
      key: "e1",
      entry: entry({ chatHistoryReplyMessage: "Once" }),
    });
    for (const state of [followed, continued]) {
      const reply = toRows(state.items).find((row) => row.kind === "reply");
      expect(reply?.kind === "reply" && reply.streaming).toBe(true);
    }
  });
});
