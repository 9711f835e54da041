import { describe, expect, it } from "vitest";
import { codeForStatus, ERROR_STATUS, isErrorCode } from "../../common/errors";
import { AppError, badRequest, forbidden, notFound, tooMany, unauthorized } from "../errors";
import { msg } from "../i18n/messages";
import { failBody, failStatus, ok } from "./envelope";

describe("error contract", () => {
  it("derives every status from the code, with the spec's 200 refusals kept", () => {
    expect(new AppError("quota_reached", "x").status).toBe(429);
    expect(new AppError("invalid_credentials", "x").status).toBe(200);
    expect(new AppError("payments_off", "x").status).toBe(200);
    expect(new AppError("tts_failed", "x").status).toBe(502);
    for (const [code, status] of Object.entries(ERROR_STATUS)) {
      expect(isErrorCode(code)).toBe(true);
      expect([200, 400, 401, 403, 404, 409, 413, 415, 429, 500, 502, 503]).toContain(status);
    }
    expect(isErrorCode("no_such_code")).toBe(false);
    expect(isErrorCode("toString")).toBe(false);
  });

  it("keeps the helpers' statuses and default codes", () => {
    expect(badRequest(msg("validation.messageEmpty"))).toMatchObject({
      code: "bad_request",
      status: 400,
      message: "The message is empty.",
    });
    expect(unauthorized()).toMatchObject({ code: "unauthorized", status: 401 });
    expect(forbidden(msg("server.notFound"), "plan_images")).toMatchObject({
      code: "plan_images",
      status: 403,
    });
    expect(notFound()).toMatchObject({ code: "not_found", status: 404, message: "Not found." });
    expect(tooMany(msg("server.notFound"), "quota_reached", "/pricing")).toMatchObject({
      status: 429,
      page: "/pricing",
    });
  });

  it("builds the failure envelope of any thrown value", () => {
    expect(failBody(new AppError("quota_reached", "Limit.", "/pricing"))).toEqual({
      success: 0,
      message: "Limit.",
      code: "quota_reached",
      page: "/pricing",
    });
    expect(failBody(badRequest(msg("validation.messageEmpty")))).toEqual({
      success: 0,
      message: "The message is empty.",
      code: "bad_request",
    });
    const unsupported = Object.assign(new Error("Unsupported Media Type"), { statusCode: 415 });
    expect(failStatus(unsupported)).toBe(415);
    expect(failBody(unsupported)).toEqual({
      success: 0,
      message: "Unsupported Media Type",
      code: "unsupported_media_type",
    });
    const crash = new Error("SQLITE_BUSY: secret detail");
    expect(failStatus(crash)).toBe(500);
    expect(failBody(crash)).toEqual({
      success: 0,
      message: "Something went wrong on our side. Please try again.",
      code: "internal",
    });
    expect(failStatus(Object.assign(new Error("x"), { statusCode: 503 }))).toBe(500);
    expect(failBody("thrown string").code).toBe("internal");
  });

  it("names the status family of framework errors", () => {
    expect(codeForStatus(400)).toBe("bad_request");
    expect(codeForStatus(405)).toBe("bad_request");
    expect(codeForStatus(413)).toBe("payload_too_large");
    expect(codeForStatus(503)).toBe("internal");
  });

  it("leaves the success envelope as it was", () => {
    expect(ok("Done.", { data: 1 })).toEqual({ success: 1, message: "Done.", data: 1 });
  });
});
