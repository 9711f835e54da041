import { describe, expect, it } from "vitest";
import { decideAutomaticLogin, deviceIdFromUserAgent } from "./autoLogin";

const CHROME =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36";
const DEVICE_ID = "abcDEF0123456789_-xy";

describe("deviceIdFromUserAgent", () => {
  it("reads the id after the CompanionDevice/ marker", () => {
    expect(deviceIdFromUserAgent(`${CHROME} CompanionDevice/${DEVICE_ID}`)).toBe(DEVICE_ID);
    expect(deviceIdFromUserAgent(`CompanionDevice/${DEVICE_ID} ${CHROME}`)).toBe(DEVICE_ID);
  });

  it("needs at least 20 allowed characters", () => {
    expect(deviceIdFromUserAgent(`${CHROME} CompanionDevice/short`)).toBeNull();
    expect(deviceIdFromUserAgent(`${CHROME} CompanionDevice/${"a".repeat(19)}`)).toBeNull();
    expect(deviceIdFromUserAgent(`${CHROME} CompanionDevice/${"a".repeat(20)}`)).toBe("a".repeat(20));
    expect(deviceIdFromUserAgent(`${CHROME} CompanionDevice/${DEVICE_ID}!x`)).toBeNull();
  });

  it("ignores agents without the marker or with it glued to another word", () => {
    expect(deviceIdFromUserAgent(CHROME)).toBeNull();
    expect(deviceIdFromUserAgent(`${CHROME} XCompanionDevice/${DEVICE_ID}`)).toBeNull();
  });
});

describe("decideAutomaticLogin", () => {
  const none = new URLSearchParams();

  it("shows the forms on /login in an ordinary browser", () => {
    expect(decideAutomaticLogin(undefined, none, CHROME)).toBeNull();
  });

  it("runs device login on /login when the agent carries the marker", () => {
    expect(decideAutomaticLogin(undefined, none, `${CHROME} CompanionDevice/${DEVICE_ID}`)).toEqual({
      kind: "device",
      id: DEVICE_ID,
    });
  });

  it("runs the YouTube callback on /login/youtube with code and state", () => {
    const search = new URLSearchParams({ code: "c0de", state: "st4te" });
    expect(decideAutomaticLogin("youtube", search, CHROME)).toEqual({
      kind: "youtube",
      code: "c0de",
      state: "st4te",
    });
  });

  it("runs demo login for any other id, and for youtube without code and state", () => {
    expect(decideAutomaticLogin("demo", none, CHROME)).toEqual({ kind: "demo", id: "demo" });
    expect(decideAutomaticLogin("youtube", new URLSearchParams({ code: "c" }), CHROME)).toEqual({
      kind: "demo",
      id: "youtube",
    });
  });

  it("runs device login on /login/<id> when the agent carries the marker", () => {
    const device = { kind: "device", id: DEVICE_ID };
    expect(decideAutomaticLogin("demo", none, `${CHROME} CompanionDevice/${DEVICE_ID}`)).toEqual(device);
    expect(decideAutomaticLogin("app", none, `${CHROME} CompanionDevice/${DEVICE_ID}`)).toEqual(device);
    expect(decideAutomaticLogin("app", none, `${CHROME} CompanionDevice/short`)).toEqual({
      kind: "demo",
      id: "app",
    });
  });

  it("completes an OAuth return even inside an app wrapper", () => {
    const search = new URLSearchParams({ code: "c0de", state: "st4te" });
    expect(decideAutomaticLogin("youtube", search, `${CHROME} CompanionDevice/${DEVICE_ID}`)).toEqual({
      kind: "youtube",
      code: "c0de",
      state: "st4te",
    });
  });
});
