import { describe, expect, it } from "vitest";
import { ApiError, isHandledApiError } from "./errors";

describe("ApiError (issue 14 error contract)", () => {
  it("reads message, code and page from a failure envelope", () => {
    const error = ApiError.fromEnvelope(
      { success: 0, message: "Daily limit reached.", code: "rate_limit:chat", page: "/pricing" },
      429,
      "Request failed",
    );
    expect(error).toMatchObject({
      kind: "envelope",
      message: "Daily limit reached.",
      code: "rate_limit:chat",
      status: 429,
      page: "/pricing",
    });
  });

  it("leaves out a code the client does not know and falls back to the given message", () => {
    const envelope = { success: 0, message: "", code: "made_up" } as unknown as Parameters<
      typeof ApiError.fromEnvelope
    >[0];
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
