import { describe, expect, it } from "vitest";
import type { ChatHistoryEntry } from "../../../common/api";
import { FIRST_MESSAGE_MARKER } from "../../../common/constants";
import { type HistoryPages, regenerableIds, removeFromHistory, replaceInHistory } from "./historyEdits";
import type { LiveChatItem } from "./liveChat";

function entry(id: string, characterId = "c1", message = "hi"): ChatHistoryEntry {
  return {
    chatHistoryUUID: id,
    characterUUID: characterId,
    chatHistoryMessage: message,
    chatHistoryMessageImage: "",
    chatHistorySendTime: "2026-01-01T00:00:00.000Z",
    chatHistoryReplyMessage: `reply ${id}`,
    chatHistoryReplyImage: "",
    chatHistoryReplyAudioUrl: "",
    chatHistoryReplyTime: "2026-01-01T00:00:01.000Z",
    chatHistoryImageLoading: 0,
    chatHistoryStatus: "replied",
  };
}

/** Two pages, the newest first (as useChatHistory keeps them). */
const pages = (): HistoryPages => ({
  pages: [
    [entry("d"), entry("e")],
    [entry("a"), entry("b"), entry("c")],
  ],
  pageParams: [0, 10],
});

const item = (e: ChatHistoryEntry): LiveChatItem => ({ key: e.chatHistoryUUID, entry: e, delivery: "sent" });

describe("history cache after swipes, edits, deletes and rewinds", () => {
  it("replaces the changed entry in its page and keeps every other one", () => {
    const changed = {
      ...entry("b"),
      chatHistoryReplyMessage: "second",
      chatHistorySwipes: ["x", "second"],
    };
    const next = replaceInHistory(pages(), changed);
    expect(next?.pages[1]?.[1]).toBe(changed);
    expect(next?.pages.flat().map((e) => e.chatHistoryUUID)).toEqual(["d", "e", "a", "b", "c"]);
    expect(next?.pages[0]).toEqual(pages().pages[0]);
    const data = pages();
    expect(replaceInHistory(data, entry("zz"))).toBe(data);
    expect(replaceInHistory(undefined, changed)).toBeUndefined();
  });

  it("removes exactly the removed ids, across pages", () => {
    const next = removeFromHistory(pages(), ["c", "d", "unknown"]);
    expect(next?.pages.map((page) => page.map((e) => e.chatHistoryUUID))).toEqual([["e"], ["a", "b"]]);
    expect(next?.pageParams).toEqual([0, 10]);
    const data = pages();
    expect(removeFromHistory(data, [])).toBe(data);
  });

  it("offers Regenerate on the newest reply of a single chat, never on a greeting or a pending one", () => {
    const greeting = entry("g", "c1", FIRST_MESSAGE_MARKER);
    expect([...regenerableIds([item(greeting)], false)]).toEqual([]);
    expect([...regenerableIds([item(greeting), item(entry("a")), item(entry("b"))], false)]).toEqual(["b"]);
    const pending = { ...entry("p"), chatHistoryStatus: "pending" as const };
    expect([...regenerableIds([item(entry("a")), item(pending)], false)]).toEqual([]);
    const local = { ...entry(""), chatHistoryUUID: "" };
    expect([...regenerableIds([item(entry("a")), item(local)], false)]).toEqual(["a"]);
  });

  it("never offers Regenerate on a picture reply, made or being made, with words or without", () => {
    const pictures: ChatHistoryEntry[] = [
      { ...entry("p"), chatHistoryReplyImage: "picture.jpg" },
      { ...entry("p"), chatHistoryReplyImage: "picture.jpg", chatHistoryReplyMessage: "" },
      { ...entry("p"), chatHistoryImageLoading: 1 },
    ];
    for (const picture of pictures) {
      expect([...regenerableIds([item(entry("a")), item(picture)], false)]).toEqual([]);
    }
  });

  it("offers it on the newest reply of each member in a group", () => {
    const items = [
      entry("a1", "A"),
      entry("b1", "B"),
      entry("a2", "A"),
      entry("c1", "C", FIRST_MESSAGE_MARKER),
    ];
    expect([...regenerableIds(items.map(item), true)].sort()).toEqual(["a2", "b1"]);
  });
});
