import { describe, expect, it } from "vitest";
import { ApiError } from "./errors";
import { failureAction, PLAN_PAGE, refusalOf } from "./failureAction";

describe("failureAction decides from the error code", () => {
  it("the message quota opens the page it names, else the pricing page, whatever the wording", () => {
    expect(failureAction({ message: "Limit.", code: "quota_reached", page: "/pricing/addon" }, "x")).toEqual({
      kind: "plan",
      page: "/pricing/addon",
      message: "Limit.",
    });
    expect(failureAction({ message: "", code: "quota_reached", status: 429 }, "Failed.")).toEqual({
      kind: "plan",
      page: PLAN_PAGE,
      message: "Failed.",
    });
  });

  it("a page is followed only for the quota code; other codes with a page are shown in place", () => {
    expect(failureAction({ message: "No.", code: "no_subscription", page: "/pricing" }, "x")).toEqual({
      kind: "show",
      message: "No.",
    });
    // a server without codes: the page it names is still followed.
    expect(failureAction({ message: "Limit.", page: "/pricing" }, "x")).toEqual({
      kind: "plan",
      page: "/pricing",
      message: "Limit.",
    });
  });

  it("a signed-out answer goes to sign-in: by code, by 401 or as the client's session error", () => {
    expect(failureAction({ message: "", code: "unauthorized" }, "x")).toEqual({ kind: "signIn" });
    expect(failureAction({ message: "", status: 401 }, "x")).toEqual({ kind: "signIn" });
    expect(failureAction(new ApiError("Expired", "session"), "x")).toEqual({ kind: "signIn" });
  });

  it("a missing model is the chat banner's; a rate limit is a wait with its Retry-After", () => {
    expect(failureAction({ message: "No model.", code: "llm_unavailable" }, "x")).toEqual({
      kind: "modelMissing",
      message: "No model.",
    });
    expect(failureAction({ message: "Wait 30 s.", code: "rate_limit", retryAfterSeconds: 30 }, "x")).toEqual({
      kind: "wait",
      message: "Wait 30 s.",
      retryAfterSeconds: 30,
    });
    const limited = new ApiError("Too many attempts.", "envelope", { status: 429, code: "rate_limit" });
    expect(failureAction(limited, "x")).toEqual({ kind: "wait", message: "Too many attempts." });
  });

  it("anything else shows the server's message, or the fallback", () => {
    expect(failureAction({ message: "", code: "content_minors" }, "Failed.")).toEqual({
      kind: "show",
      message: "Failed.",
    });
    expect(failureAction(new ApiError("HTTP 500", "network", { status: 500 }), "Failed.")).toEqual({
      kind: "show",
      message: "HTTP 500",
    });
  });

  it("a thrown error: quiet when the client told the user, the refusal's own, else the fallback", () => {
    expect(refusalOf(new ApiError("Expired", "session", { status: 401 }))).toBeNull();
    expect(refusalOf(new ApiError("Oops", "maintenance", { status: 503 }))).toBeNull();
    const refused = new ApiError("Message not found.", "envelope", { status: 404 });
    expect(refusalOf(refused)).toBe(refused);
    expect(
      failureAction(refusalOf(new ApiError("HTTP 500", "network", { status: 500 })) ?? {}, "Failed."),
    ).toEqual({
      kind: "show",
      message: "Failed.",
    });
    expect(failureAction(refusalOf(new TypeError("boom")) ?? {}, "Failed.")).toEqual({
      kind: "show",
      message: "Failed.",
    });
  });
});
