import { describe, expect, it } from "vitest";
import type { ChatHistoryEntry } from "../../../../common/api";
import { imageTexts } from "../imageTexts";
import { initialLiveChat, type LiveChatAction, liveChatReducer, localEntry } from "../liveChat";
import { imageAnswerOutcome } from "./useImageRequests";

/** a photo or picture request at the limit follows the answer's page like a text message. */

const LIMIT = "You have reached your limit of 2 messages for this month.";

describe("an image answer's outcome", () => {
  it("a refusal naming a page (429 at the limit) is followed with the server's message", () => {
    const answer = {
      success: 0 as const,
      message: LIMIT,
      code: "quota_reached" as const,
      page: "/pricing",
    };
    expect(imageAnswerOutcome(answer, imageTexts.failedToSendPhoto)).toEqual({
      kind: "follow",
      page: "/pricing",
      message: LIMIT,
    });
    expect(imageAnswerOutcome({ ...answer, message: "" }, imageTexts.failedToRequest)).toEqual({
      kind: "follow",
      page: "/pricing",
      message: imageTexts.failedToRequest,
    });
  });

  it("a refusal without a page stays a failure; a success is stored", () => {
    expect(imageAnswerOutcome({ success: 0, message: "Bad image." }, imageTexts.failedToSendPhoto)).toEqual({
      kind: "failed",
      message: "Bad image.",
    });
    expect(imageAnswerOutcome({ success: 0, message: "" }, imageTexts.failedToSendPhoto)).toEqual({
      kind: "failed",
      message: imageTexts.failedToSendPhoto,
    });
    const entry: ChatHistoryEntry = { ...localEntry("char-1", "hi", new Date(0)), chatHistoryUUID: "e1" };
    expect(imageAnswerOutcome({ success: 1, message: "", history: [entry] }, "")).toEqual({
      kind: "stored",
      entry,
    });
  });

  it("the followed photo leaves the chat without a 'Failed' mark, where the old failure path left one", () => {
    const queued: LiveChatAction = {
      type: "queued",
      key: "photo-1",
      entry: localEntry("char-1", "my wall", new Date(0), "blob:preview"),
      source: "picture",
    };
    const followed = [queued, { type: "refused", key: "photo-1" } as const].reduce(
      liveChatReducer,
      initialLiveChat,
    );
    expect(followed.items).toEqual([]);
    const failed = [
      queued,
      { type: "pictureFailed", key: "photo-1", message: imageTexts.photoUploadFailed } as const,
    ].reduce(liveChatReducer, initialLiveChat);
    expect(failed.items[0]?.delivery).toBe("failed");
  });
});
