import { describe, expect, it } from "vitest";
import type { ChatHistoryEntry } from "../../../../common/api";
import { FIRST_MESSAGE_MARKER } from "../../../../common/constants";
import { offersContinue, type ReplyRow, toRows } from "./messageRows";

function entry(fields: Partial<ChatHistoryEntry> = {}): ChatHistoryEntry {
  return {
    chatHistoryUUID: "e1",
    characterUUID: "c1",
    chatHistoryMessage: "hi",
    chatHistoryMessageImage: "",
    chatHistorySendTime: "2026-01-01T00:00:00.000Z",
    chatHistoryReplyMessage: "Hello there.",
    chatHistoryReplyImage: "",
    chatHistoryReplyAudioUrl: "",
    chatHistoryReplyTime: "2026-01-01T00:00:01.000Z",
    chatHistoryImageLoading: 0,
    chatHistoryStatus: "replied",
    ...fields,
  };
}

/** The reply bubble of `e` as the list lays it out. */
function replyRow(e: ChatHistoryEntry, streaming = false): ReplyRow {
  const row = toRows([{ key: "k", entry: e, delivery: "sent", streaming }]).find((r) => r.kind === "reply");
  if (row?.kind !== "reply") throw new Error("no reply bubble");
  return row;
}

describe("Continue on the newest reply", () => {
  it("offers it on a finished text reply written in the chat, when replies may be continued", () => {
    expect(offersContinue(replyRow(entry()), true)).toBe(true);
    expect(offersContinue(replyRow(entry()), false)).toBe(false);
    expect(offersContinue(replyRow(entry(), true), true)).toBe(false);
    expect(offersContinue(replyRow(entry({ chatHistoryUUID: "" })), true)).toBe(false);
  });

  it("never offers it on a greeting, even the newest message", () => {
    expect(offersContinue(replyRow(entry({ chatHistoryMessage: FIRST_MESSAGE_MARKER })), true)).toBe(false);
  });

  it("never offers it on a picture, made or being made, with words or without", () => {
    for (const picture of [
      entry({ chatHistoryReplyImage: "picture.jpg" }),
      entry({ chatHistoryReplyImage: "picture.jpg", chatHistoryReplyMessage: "" }),
      entry({ chatHistoryImageLoading: 1 }),
    ]) {
      expect(offersContinue(replyRow(picture), true)).toBe(false);
    }
  });
});
