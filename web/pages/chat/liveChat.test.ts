import { describe, expect, it } from "vitest";
import type { ChatHistoryEntry, MessageReply } from "../../../common/api";
import {
  conversationItems,
  initialLiveChat,
  type LiveChatAction,
  type LiveChatState,
  liveChatReducer,
  liveChatView,
  localEntry,
  memberKey,
  planContinue,
  planRetry,
  planSend,
  splitAudioUrls,
  splitParts,
} from "./liveChat";

const SENT_AT = new Date("2025-01-02T03:04:05.000Z");

function stored(id: string, fields: Partial<ChatHistoryEntry> = {}): ChatHistoryEntry {
  return { ...localEntry("char-1", `message ${id}`, SENT_AT), chatHistoryUUID: id, ...fields };
}

function run(actions: LiveChatAction[], from: LiveChatState = initialLiveChat): LiveChatState {
  return actions.reduce(liveChatReducer, from);
}

const queued = (key: string, message = "hi"): LiveChatAction => ({
  type: "queued",
  key,
  entry: localEntry("char-1", message, SENT_AT),
  clientMessageId: `client-${key}`,
  source: "message",
});

describe("planSend (product.md §4 'Sending', product.md §5 repeat)", () => {
  it("sends the trimmed text once", () => {
    expect(planSend(initialLiveChat, "  hello  ", true)).toEqual({ message: "hello", count: 1 });
  });

  it("repeats a '.. N.' message N times with the marker removed, at most 5", () => {
    expect(planSend(initialLiveChat, "hey .. 3. you", true)).toEqual({ message: "hey you", count: 3 });
    expect(planSend(initialLiveChat, "hey .. 9.", true)).toEqual({ message: "hey", count: 5 });
  });

  it("sends nothing when empty, without a character, or while a send is in flight", () => {
    expect(planSend(initialLiveChat, "   ", true)).toBeNull();
    expect(planSend(initialLiveChat, "hello", false)).toBeNull();
    expect(planSend(run([{ type: "started" }]), "hello", true)).toBeNull();
  });
});

describe("liveChatReducer: one streamed send", () => {
  it("goes pending → sending → replying (tokens) → online with the stored entry", () => {
    let state = run([{ type: "started" }, queued("local-1"), { type: "status", status: "sending..." }]);
    expect(state.status).toBe("sending...");
    expect(state.replyingCharacterId).toBe("char-1");
    expect(state.items).toEqual([
      expect.objectContaining({ key: "local-1", delivery: "pending", clientMessageId: "client-local-1" }),
    ]);
    expect(liveChatView(state, true)).toEqual({ canSend: false, isReplying: true, canStop: false });

    const entry = stored("e1", { chatHistoryReplyMessage: "ignored until tokens" });
    state = run([{ type: "entryStored", key: "local-1", entry }], state);
    expect(state.status).toBe("replying...");
    expect(state.streamingId).toBe("e1");
    expect(state.items[0]).toMatchObject({ delivery: "sent", streaming: true });
    expect(state.items[0]?.entry.chatHistoryReplyMessage).toBe("");
    expect(liveChatView(state, true).canStop).toBe(true);

    state = run(
      [
        { type: "token", key: "local-1", text: "Hel" },
        { type: "token", key: "local-1", text: "lo" },
      ],
      state,
    );
    expect(state.items[0]?.entry.chatHistoryReplyMessage).toBe("Hello");

    const final = stored("e1", { chatHistoryReplyMessage: "Hello" });
    state = run(
      [{ type: "replied", key: "local-1", entry: final, streamed: true }, { type: "finished" }],
      state,
    );
    expect(state).toMatchObject({ status: "online", streamingId: "", busy: false, replyingCharacterId: "" });
    expect(state.items[0]).toMatchObject({ entry: final, delivery: "sent", streaming: false });
    expect(state.items[0]?.replyParts).toBeUndefined();
    expect(liveChatView(state, true)).toEqual({ canSend: true, isReplying: false, canStop: false });
  });

  it("reveals a split reply part by part unless its text already streamed in (product.md §4 'Split replies')", () => {
    const entry = stored("e1");
    let state = run([
      queued("local-1"),
      { type: "replied", key: "local-1", entry, parts: ["a", "b"], streamed: false },
    ]);
    expect(state.items[0]?.replyParts).toEqual([]);
    state = run(
      [
        { type: "reveal", step: 1 },
        { type: "partsRevealed", key: "local-1", parts: ["a"] },
      ],
      state,
    );
    expect(state.items[0]?.replyParts).toEqual(["a"]);
    expect(liveChatView(state, true).isReplying).toBe(true);
    state = run(
      [
        { type: "partsRevealed", key: "local-1", parts: ["a", "b"] },
        { type: "reveal", step: -1 },
      ],
      state,
    );
    expect(state.items[0]?.replyParts).toEqual(["a", "b"]);
    expect(liveChatView(state, true).isReplying).toBe(false);

    const streamed = run([
      queued("local-2"),
      { type: "replied", key: "local-2", entry, parts: ["a", "b"], streamed: true },
    ]);
    expect(streamed.items[0]?.replyParts).toEqual(["a", "b"]);
  });

  it("a refused send is 'Failed' and away; the stored entry is kept when the server sent one (product.md §8)", () => {
    const failed = run([queued("local-1"), { type: "failed", key: "local-1" }]);
    expect(failed.status).toBe("away");
    expect(failed.items[0]).toMatchObject({ delivery: "failed", streaming: false });

    const kept = run([queued("local-1"), { type: "failed", key: "local-1", stored: stored("e1") }]);
    expect(kept.items[0]).toMatchObject({ delivery: "sent", entry: stored("e1") });
  });

  it("a refusal that names a page (429 at the limit) is not 'Failed': the message leaves, or stays sent when stored", () => {
    const refused = run([queued("local-1"), { type: "refused", key: "local-1" }]);
    expect(refused.items).toEqual([]);
    expect(refused.status).toBe("online");
    const kept = run([queued("local-1"), { type: "refused", key: "local-1", stored: stored("e1") }]);
    expect(kept.items[0]).toMatchObject({ delivery: "sent", entry: stored("e1"), streaming: false });
  });

  it("a 401/503 leaves the item as it is and only ends the stream", () => {
    const state = run([
      queued("local-1"),
      { type: "entryStored", key: "local-1", entry: stored("e1") },
      { type: "streamEnded" },
    ]);
    expect(state.streamingId).toBe("");
    expect(state.status).toBe("replying...");
    expect(state.items[0]?.delivery).toBe("sent");
  });
});

describe("retry (product.md §4: same clientMessageId)", () => {
  it("sends a failed message again with its client id, once no send is in flight", () => {
    const failed = run([queued("local-1", "again"), { type: "failed", key: "local-1" }]);
    expect(planRetry(failed, "local-1")).toEqual({ message: "again", clientMessageId: "client-local-1" });
    expect(planRetry({ ...failed, busy: true }, "local-1")).toBeNull();
    expect(planRetry(failed, "unknown")).toBeNull();
    expect(run([{ type: "pending", key: "local-1" }], failed).items[0]?.delivery).toBe("pending");
  });

  it("does not retry a message that did not fail", () => {
    expect(planRetry(run([queued("local-1")]), "local-1")).toBeNull();
  });
});

describe("group replies (product.md §4 'Group chat')", () => {
  it("fills the sent item with the first reply and adds the others after it", () => {
    const state = run([
      queued("local-1"),
      { type: "status", status: "replying..." },
      { type: "reveal", step: 1 },
      { type: "stored", key: "local-1", entry: stored("e1") },
      { type: "replyingTo", characterId: "char-2" },
      { type: "added", key: "local-1:1", entry: stored("e2", { characterUUID: "char-2" }) },
      { type: "reveal", step: -1 },
      { type: "status", status: "online" },
    ]);
    expect(state.status).toBe("online");
    expect(state.replyingCharacterId).toBe("char-2");
    expect(state.items.map((item) => [item.key, item.delivery, item.entry.chatHistoryUUID])).toEqual([
      ["local-1", "sent", "e1"],
      ["local-1:1", "sent", "e2"],
    ]);
  });

  it("is 'replying...' from the start", () => {
    expect(run([queued("local-1"), { type: "status", status: "replying..." }]).status).toBe("replying...");
  });
});

describe("streamed group replies (each member streams in turn)", () => {
  const member = (id: string, characterId: string, fields: Partial<ChatHistoryEntry> = {}) =>
    stored(id, { characterUUID: characterId, ...fields });
  const replyOf = (state: LiveChatState, key: string) =>
    state.items.find((item) => item.key === key)?.entry.chatHistoryReplyMessage;

  it("the first member fills the sent item as its tokens come, naming it in the typing indicator", () => {
    const state = run([
      { type: "started" },
      queued("local-1"),
      { type: "status", status: "replying..." },
      {
        type: "memberStarted",
        key: "local-1",
        index: 0,
        entry: member("e1", "char-2", { chatHistoryMessage: "hi" }),
      },
      { type: "token", key: "local-1", text: "Hel" },
      { type: "token", key: "local-1", text: "lo" },
    ]);
    expect(state.replyingCharacterId).toBe("char-2");
    expect(state.streamingId).toBe("e1");
    expect(state.status).toBe("replying...");
    expect(state.items).toEqual([
      expect.objectContaining({ key: "local-1", delivery: "sent", streaming: true }),
    ]);
    expect(replyOf(state, "local-1")).toBe("Hello");
    expect(state.items[0]?.entry.chatHistoryMessage).toBe("hi");
    // Stop reaches the member speaking.
    expect(liveChatView(state, true).canStop).toBe(true);
  });

  it("the next member's bubble appears with its entry: the one before stops streaming, the indicator names the next", () => {
    let state = run([
      { type: "started" },
      queued("local-1"),
      { type: "memberStarted", key: "local-1", index: 0, entry: member("e1", "char-1") },
      { type: "token", key: "local-1", text: "One." },
      {
        type: "memberStarted",
        key: "local-1",
        index: 1,
        entry: member("e2", "char-2", { chatHistoryMessage: "" }),
      },
    ]);
    expect(state.items.map((item) => [item.key, item.streaming, item.entry.chatHistoryUUID])).toEqual([
      ["local-1", false, "e1"],
      [memberKey("local-1", 1), true, "e2"],
    ]);
    expect(replyOf(state, "local-1")).toBe("One.");
    expect(replyOf(state, "local-1:1")).toBe("");
    expect(state.replyingCharacterId).toBe("char-2");
    expect(state.streamingId).toBe("e2");
    state = run([{ type: "token", key: memberKey("local-1", 1), text: "Two." }], state);
    expect(replyOf(state, "local-1")).toBe("One.");
    expect(replyOf(state, "local-1:1")).toBe("Two.");
  });

  it("the group answer replaces the streamed items with the stored entries; online, nothing streams", () => {
    const state = run([
      { type: "started" },
      queued("local-1"),
      { type: "memberStarted", key: "local-1", index: 0, entry: member("e1", "char-1") },
      { type: "token", key: "local-1", text: "One" },
      { type: "memberStarted", key: "local-1", index: 1, entry: member("e2", "char-2") },
      { type: "token", key: "local-1:1", text: "Tw" },
      {
        type: "groupReplied",
        key: "local-1",
        ok: true,
        entries: [
          member("e1", "char-1", { chatHistoryReplyMessage: "One.", chatHistoryReplyAudioUrl: "/a1.mp3" }),
          member("e2", "char-2", { chatHistoryReplyMessage: "Two.", chatHistoryReplyAudioUrl: "/a2.mp3" }),
        ],
      },
    ]);
    expect(state.status).toBe("online");
    expect(state.streamingId).toBe("");
    expect(
      state.items.map((item) => [
        item.key,
        item.streaming,
        item.delivery,
        item.entry.chatHistoryReplyMessage,
      ]),
    ).toEqual([
      ["local-1", false, "sent", "One."],
      ["local-1:1", false, "sent", "Two."],
    ]);
    expect(state.items[1]?.entry.chatHistoryReplyAudioUrl).toBe("/a2.mp3");
  });

  it("a failed turn keeps what was said, is 'away', and adds entries that did not stream", () => {
    const state = run([
      queued("local-1"),
      { type: "memberStarted", key: "local-1", index: 0, entry: member("e1", "char-1") },
      { type: "token", key: "local-1", text: "Partly" },
      {
        type: "groupReplied",
        key: "local-1",
        ok: false,
        entries: [member("e1", "char-1", { chatHistoryReplyMessage: "Partly" }), member("e2", "char-2")],
      },
    ]);
    expect(state.status).toBe("away");
    expect(state.items.map((item) => [item.key, item.streaming ?? false])).toEqual([
      ["local-1", false],
      ["local-1:1", false],
    ]);
    // An error event (no entries) only ends the streaming.
    const errored = run(
      [
        queued("local-2"),
        { type: "memberStarted", key: "local-2", index: 0, entry: member("e3", "char-1") },
        { type: "token", key: "local-2", text: "Half" },
        { type: "groupReplied", key: "local-2", ok: false, entries: [] },
      ],
      initialLiveChat,
    );
    expect(errored.items).toEqual([
      expect.objectContaining({ key: "local-2", streaming: false, delivery: "sent" }),
    ]);
    expect(replyOf(errored, "local-2")).toBe("Half");
  });
});

describe("a lost group stream", () => {
  it("marks the sent item lost and leaves no member's bubble streaming", () => {
    const state = run([
      queued("local-1"),
      { type: "memberStarted", key: "local-1", index: 0, entry: stored("e1") },
      { type: "memberStarted", key: "local-1", index: 1, entry: stored("e2", { characterUUID: "char-2" }) },
      { type: "token", key: "local-1:1", text: "Half" },
      { type: "lost", key: "local-1" },
    ]);
    expect(state.items.map((item) => [item.key, item.streaming, item.lost ?? false])).toEqual([
      ["local-1", false, true],
      ["local-1:1", false, false],
    ]);
    expect(state.streamingId).toBe("");
    expect(state.status).toBe("away");
  });
});

describe("continue a reply", () => {
  it("adds the entry's bubble when it is not on screen, appends tokens, then online", () => {
    const entry = stored("e9", { chatHistoryReplyMessage: "Once" });
    expect(planContinue(initialLiveChat, entry)).toBe("e9");
    let state = run([{ type: "continueStarted", key: "e9", entry }]);
    expect(state).toMatchObject({ status: "replying...", streamingId: "e9", replyingCharacterId: "char-1" });
    state = run([{ type: "token", key: "e9", text: " upon" }], state);
    expect(state.items[0]?.entry.chatHistoryReplyMessage).toBe("Once upon");
    state = run([{ type: "continueEnded", key: "e9", ok: true }], state);
    expect(state).toMatchObject({ status: "online", streamingId: "" });
    expect(state.items[0]?.streaming).toBe(false);
  });

  it("reuses the bubble of a message sent on this screen and shows its whole reply again", () => {
    const entry = stored("e1");
    const sent = run([
      queued("local-1"),
      { type: "replied", key: "local-1", entry, parts: ["a", "b"], streamed: true },
    ]);
    expect(planContinue(sent, entry)).toBe("local-1");
    const state = run([{ type: "continueStarted", key: "local-1", entry }], sent);
    expect(state.items).toHaveLength(1);
    expect(state.items[0]?.replyParts).toBeUndefined();
    expect(run([{ type: "continueEnded", key: "local-1", ok: false }], state).status).toBe("away");
  });

  it("does nothing while busy or for an entry not stored yet", () => {
    expect(planContinue({ ...initialLiveChat, busy: true }, stored("e1"))).toBeNull();
    expect(planContinue(initialLiveChat, localEntry("char-1", "x", SENT_AT))).toBeNull();
  });
});

describe("photos and picture requests", () => {
  it("pending → failed (the photo's bubble says so) → retried with its words → stored → settled", () => {
    const entry = localEntry("char-1", "look", SENT_AT, "blob:preview");
    let state = run([{ type: "queued", key: "photo-1", entry, source: "picture" }]);
    expect(state.items[0]).toMatchObject({ delivery: "pending", source: "picture" });
    state = run([{ type: "pictureFailed", key: "photo-1", message: "Photo upload failed." }], state);
    expect(state.items[0]).toMatchObject({ delivery: "failed" });
    expect(state.items[0]?.entry.chatHistoryMessage).toBe("Photo upload failed.");
    state = run([{ type: "pending", key: "photo-1", message: "look" }], state);
    expect(state.items[0]?.entry.chatHistoryMessage).toBe("look");
    state = run([{ type: "stored", key: "photo-1", entry: stored("p1") }], state);
    expect(state.items[0]).toMatchObject({ delivery: "sent", entry: stored("p1") });
    expect(run([{ type: "settled", key: "photo-1" }], state).items).toEqual([]);
  });

  it("a picture queued during a text send leaves the awaited character as it is", () => {
    const state = run([
      queued("local-1"),
      { type: "queued", key: "picture-1", entry: localEntry("char-2", "draw", SENT_AT), source: "picture" },
    ]);
    expect(state.replyingCharacterId).toBe("char-1");
    expect(state.items[1]).toMatchObject({ delivery: "pending", source: "picture" });
  });

  it("a picture request keeps its words when it fails", () => {
    const entry = localEntry("char-1", "draw me", SENT_AT);
    const state = run([
      { type: "queued", key: "picture-1", entry, source: "picture" },
      { type: "pictureFailed", key: "picture-1" },
    ]);
    expect(state.items[0]?.entry.chatHistoryMessage).toBe("draw me");
  });
});

describe("conversationItems: the one list shown", () => {
  it("shows the history, then what the history does not hold yet (messages, then pictures)", () => {
    const history = [stored("h1"), stored("h2")];
    const live = run([
      {
        type: "queued",
        key: "photo-1",
        entry: localEntry("char-1", "p", SENT_AT, "blob:x"),
        source: "picture",
      },
      queued("local-1"),
    ]).items;
    expect(conversationItems(history, live).map((item) => item.key)).toEqual([
      "h1",
      "h2",
      "local-1",
      "photo-1",
    ]);
  });

  it("shows a history entry made on this screen by its live item, once", () => {
    const live = run([
      queued("local-1"),
      {
        type: "replied",
        key: "local-1",
        entry: stored("h2", { chatHistoryReplyMessage: "live" }),
        streamed: false,
      },
    ]).items;
    const items = conversationItems([stored("h1"), stored("h2")], live);
    expect(items.map((item) => item.key)).toEqual(["h1", "local-1"]);
    expect(items[1]?.entry.chatHistoryReplyMessage).toBe("live");
  });

  it("takes the picture's state from the history, except while the reply streams", () => {
    const live = run([
      queued("local-1"),
      {
        type: "replied",
        key: "local-1",
        entry: stored("h1", { chatHistoryImageLoading: 1 }),
        streamed: false,
      },
    ]).items;
    const history = [stored("h1", { chatHistoryReplyImage: "pic.webp", chatHistoryImageLoading: 0 })];
    expect(conversationItems(history, live)[0]?.entry).toMatchObject({
      chatHistoryReplyImage: "pic.webp",
      chatHistoryImageLoading: 0,
    });
    const streaming = run([{ type: "token", key: "local-1", text: "x" }], {
      ...initialLiveChat,
      items: live,
    }).items;
    expect(conversationItems(history, streaming)[0]?.entry.chatHistoryReplyImage).toBe("");
  });
});

describe("splitParts (product.md §4 'Split replies')", () => {
  const reply = (splitMessages: string[], splitCount: number): MessageReply =>
    ({ success: 1, message: "", options: { splitCount, splitMessages } }) as unknown as MessageReply;

  it("gives the non-empty parts of a split reply, nothing for one message", () => {
    expect(splitParts(reply(["a", " ", "b"], 3))).toEqual(["a", "b"]);
    expect(splitParts(reply(["a"], 1))).toBeUndefined();
    expect(splitParts(reply(["a", " "], 2))).toBeUndefined();
    expect(splitParts({ success: 1, message: "" } as MessageReply)).toBeUndefined();
  });
});

describe("splitAudioUrls (product.md §4 'Split replies': each part's audio in turn)", () => {
  const reply = (splitMessages: string[], splitAudioUrls?: string[]): MessageReply => ({
    success: 1,
    message: "",
    options: { splitCount: splitMessages.length, splitMessages, picDesc: "", splitAudioUrls },
  });

  it("gives one audio per part when the server sent them", () => {
    const r = reply(["a", "b"], ["/p1.mp3", "/p2.mp3"]);
    expect(splitAudioUrls(r, splitParts(r))).toEqual(["/p1.mp3", "/p2.mp3"]);
    // A part with nothing to say keeps its place.
    const quiet = reply(["*waves*", "b"], ["", "/p2.mp3"]);
    expect(splitAudioUrls(quiet, splitParts(quiet))).toEqual(["", "/p2.mp3"]);
  });

  it("gives nothing for one message, without per-part audio, or when parts and audio do not match", () => {
    const one = reply(["a"], ["/p1.mp3"]);
    expect(splitAudioUrls(one, splitParts(one))).toEqual([]);
    const none = reply(["a", "b"]);
    expect(splitAudioUrls(none, splitParts(none))).toEqual([]);
    const short = reply(["a", "b"], ["/p1.mp3"]);
    expect(splitAudioUrls(short, splitParts(short))).toEqual([]);
    const silent = reply(["a", "b"], ["", ""]);
    expect(splitAudioUrls(silent, splitParts(silent))).toEqual([]);
  });
});
