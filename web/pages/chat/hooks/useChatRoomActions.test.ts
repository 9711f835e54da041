import { describe, expect, it } from "vitest";
import { ApiError } from "../../../api/errors";
import { isActionableRefusal } from "./useChatRoomActions";

/**
 * Group member changes (product.md §8 says "logged only"; README "How the chat works" says why a
 * refusal is still shown): which failures are refusals the user can act on.
 */
describe("a member change's failure", () => {
  it("is shown when the server refused it with a reason (an envelope with a 4xx status)", () => {
    const full = new ApiError("A group chat holds at most 4 members.", "envelope", { status: 403 });
    expect(isActionableRefusal(full)).toBe(true);
    expect(isActionableRefusal(new ApiError("Character not found.", "envelope", { status: 404 }))).toBe(true);
    expect(isActionableRefusal(new ApiError("Refused.", "envelope"))).toBe(true);
  });

  it("is only logged without an answer, with a server error, or when already handled (401, 503)", () => {
    expect(isActionableRefusal(new ApiError("Failed to fetch", "network"))).toBe(false);
    expect(isActionableRefusal(new ApiError("HTTP 502", "network", { status: 502 }))).toBe(false);
    expect(isActionableRefusal(new ApiError("Internal error.", "envelope", { status: 500 }))).toBe(false);
    expect(isActionableRefusal(new ApiError("Unauthorized", "session", { status: 401 }))).toBe(false);
    expect(isActionableRefusal(new ApiError("Down.", "maintenance", { status: 503 }))).toBe(false);
    expect(isActionableRefusal(new TypeError("Failed to fetch"))).toBe(false);
  });
});
