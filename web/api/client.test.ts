// The API client: Retry-After on a 429 and JSON bodies.
import { afterEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "./errors";
import { failureAction } from "./failureAction";
import { json, scriptFetch } from "./stream.fakes";

vi.mock("../lib/dialogs", () => ({ AppSwal: { fire: vi.fn(async () => ({ isConfirmed: true })) } }));
vi.mock("../lib/navigation", () => ({ navigateTo: vi.fn() }));

const { apiRequest, ensureSuccess, failureOf, parseRetryAfter } = await import("./client");
const { apiStream } = await import("./stream");

afterEach(() => {
  vi.unstubAllGlobals();
});

const limited = { success: 0, message: "Too many requests. Please wait.", code: "rate_limit" } as const;

/** A 429 with `Retry-After: <value>`. */
function tooMany(value: string): Response {
  const response = json(429, limited);
  response.headers.set("Retry-After", value);
  return response;
}

describe("the client reads Retry-After on a 429, so the wait action says how long", () => {
  it("seconds or an HTTP date; nothing when absent or unreadable", () => {
    const now = Date.parse("2026-01-01T00:00:00Z");
    expect(parseRetryAfter("30", now)).toBe(30);
    expect(parseRetryAfter("Thu, 01 Jan 2026 00:00:42 GMT", now)).toBe(42);
    expect(parseRetryAfter("Wed, 31 Dec 2025 23:59:00 GMT", now)).toBe(0);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter("soon", now)).toBeUndefined();
  });

  it("a refused call throws an ApiError carrying the seconds: failureAction waits that long", async () => {
    scriptFetch([tooMany("30")]);
    const error = await apiRequest("/chat/swipe", { method: "POST" })
      .then(ensureSuccess)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, code: "rate_limit", retryAfterSeconds: 30 });
    expect(failureAction(error as ApiError, "x")).toEqual({
      kind: "wait",
      message: limited.message,
      retryAfterSeconds: 30,
    });
  });

  it("an envelope kept as an answer (a streamed call's JSON refusal) carries them too", async () => {
    scriptFetch([tooMany("12")]);
    const last = await apiStream("/chat/message", new URLSearchParams({ id: "c1" }), () => {});
    const refusal = failureOf(last.data as typeof limited);
    expect(refusal).toMatchObject({ status: 429, retryAfterSeconds: 12 });
    expect(failureAction(refusal, "x")).toEqual({
      kind: "wait",
      message: limited.message,
      retryAfterSeconds: 12,
    });
  });

  it("a JSON body is sent as application/json", async () => {
    const calls = scriptFetch([json(200, { success: 1, message: "" })]);
    await apiRequest("/admin/models/delete", { method: "POST", json: { id: "m1", key: null } });
    const fetchMock = vi.mocked(globalThis.fetch);
    const sent = fetchMock.mock.calls[0]?.[1]?.body as Blob;
    expect(calls[0]).toMatchObject({ url: "/api/admin/models/delete", method: "POST" });
    expect(sent.type).toBe("application/json");
    expect(JSON.parse(await sent.text())).toEqual({ id: "m1", key: null });
  });
});
