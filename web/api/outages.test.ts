import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { isActionableRefusal } from "../pages/chat/hooks/useChatRoomActions";
import { ApiError } from "./errors";
import { json, scriptFetch } from "./stream.fakes";

const dialogs = vi.hoisted(() => ({ fire: vi.fn(async () => ({ isConfirmed: true })) }));
vi.mock("../lib/dialogs", () => ({ AppSwal: { fire: dialogs.fire } }));
const navigation = vi.hoisted(() => ({ navigateTo: vi.fn() }));
vi.mock("../lib/navigation", () => navigation);
const session = vi.hoisted(() => ({ clearSession: vi.fn(), readToken: vi.fn(() => null) }));
vi.mock("../lib/session", () => session);

const { apiRequest, ensureSuccess, handleSessionStatus } = await import("./client");
const { apiStream } = await import("./stream");

/**
 * A 503 with an outage code (database_unavailable, redis_unavailable, storage_unavailable) is a
 * brief outage of one engine: the SPA shows the server's sentence where the call failed and the
 * user tries again; it is not the maintenance answer of product.md §8 (dialog, sign-out, /maintenance),
 * which a 503 without one of these codes still is.
 */
describe("a 503 outage keeps the session and shows the server's sentence", () => {
  const outage = {
    success: 0,
    message: "The service is briefly unavailable. Please try again in a few seconds.",
    code: "storage_unavailable",
  } as const;

  beforeEach(() => {
    dialogs.fire.mockClear();
    navigation.navigateTo.mockClear();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("a plain call: an envelope error with the sentence, the code and status 503; no maintenance dialog, no sign-out", async () => {
    scriptFetch([json(503, outage)]);
    const error = await apiRequest("/users/update", { method: "POST" })
      .then(ensureSuccess)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      kind: "envelope",
      message: outage.message,
      code: outage.code,
      status: 503,
    });
    expect((error as ApiError).handled).toBe(false);
    await Promise.resolve();
    expect(dialogs.fire).not.toHaveBeenCalled();
    expect(navigation.navigateTo).not.toHaveBeenCalled();
  });

  it("a streamed call answered with the outage envelope: an error event carrying it", async () => {
    scriptFetch([json(503, { ...outage, code: "database_unavailable" })]);
    const last = await apiStream("/chat/message", new URLSearchParams({ id: "c1" }), () => {});
    expect(last).toMatchObject({
      event: "error",
      data: { code: "database_unavailable", message: outage.message },
    });
    expect(dialogs.fire).not.toHaveBeenCalled();
  });

  it("a 503 without an outage code is still the maintenance answer", async () => {
    expect(() => handleSessionStatus(503, { ...outage, code: "redis_unavailable" })).not.toThrow();
    expect(dialogs.fire).not.toHaveBeenCalled();
    expect(() => handleSessionStatus(503, { success: 0, message: "Down for maintenance." })).toThrow(
      expect.objectContaining({ kind: "maintenance" }),
    );
    await vi.waitFor(() => expect(navigation.navigateTo).toHaveBeenCalledWith("/maintenance"));
    expect(dialogs.fire).toHaveBeenCalledTimes(1);
    expect(session.clearSession).toHaveBeenCalled();
  });

  it("a chat action refused by an outage shows its sentence (a plain 500 is only logged)", () => {
    const refused = ApiError.fromEnvelope(outage, 503, "Request failed");
    expect(isActionableRefusal(refused)).toBe(true);
    expect(isActionableRefusal(new ApiError("Internal error.", "envelope", { status: 500 }))).toBe(false);
  });
});
