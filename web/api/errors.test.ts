import { describe, expect, it } from "vitest";
import { ApiError, isHandledApiError } from "./errors";

describe("ApiError (the error contract)", () => {
  it("reads message, code and page from a failure envelope", () => {
    const error = ApiError.fromEnvelope(
      { success: 0, message: "Daily limit reached.", code: "quota_reached", page: "/pricing" },
      429,
      "Request failed",
    );
    expect(error).toMatchObject({
      kind: "envelope",
      message: "Daily limit reached.",
      code: "quota_reached",
      status: 429,
      page: "/pricing",
    });
  });

  it("keeps a code newer than the bundle, leaves out one that is not a string, falls back to the given message", () => {
    type Sent = Parameters<typeof ApiError.fromEnvelope>[0];
    const newer = { success: 0, message: "", code: "made_up" } as unknown as Sent;
    expect(ApiError.fromEnvelope(newer, undefined, "Request failed").code).toBe("made_up");
    const envelope = { success: 0, message: "", code: 42 } as unknown as Sent;
    const error = ApiError.fromEnvelope(envelope, undefined, "Request failed");
    expect(error.code).toBeUndefined();
    expect(error.message).toBe("Request failed");
    expect(error.page).toBeUndefined();
  });

  it("counts 401 and 503 as already handled, nothing else", () => {
    expect(isHandledApiError(ApiError.fromEnvelope(null, 401, "Unauthorized", "session"))).toBe(true);
    expect(isHandledApiError(new ApiError("down", "maintenance", { status: 503 }))).toBe(true);
    expect(isHandledApiError(new ApiError("no", "envelope"))).toBe(false);
    expect(isHandledApiError(new Error("plain"))).toBe(false);
  });
});
