import { describe, expect, it } from "vitest";
import { TOKEN_LIFETIME_MS, TOKEN_REFRESH_MARGIN_MS } from "../../common/constants";
import { decideTokenAction, isTokenExpired } from "./tokenPolicy";

const now = 1_700_000_000_000;

describe("decideTokenAction (product.md §4)", () => {
  it("logs out without a token or with an expired one", () => {
    expect(decideTokenAction(null, now)).toBe("logout");
    expect(decideTokenAction({ token: "t", expirationTime: now }, now)).toBe("logout");
    expect(decideTokenAction({ token: "t", expirationTime: now - 1 }, now)).toBe("logout");
  });

  it("extends when under 5 minutes remain", () => {
    expect(decideTokenAction({ token: "t", expirationTime: now + TOKEN_REFRESH_MARGIN_MS - 1 }, now)).toBe(
      "extend",
    );
    expect(decideTokenAction({ token: "t", expirationTime: now + 1 }, now)).toBe("extend");
  });

  it("keeps a token with 5 minutes or more left", () => {
    expect(decideTokenAction({ token: "t", expirationTime: now + TOKEN_REFRESH_MARGIN_MS }, now)).toBe(
      "keep",
    );
    expect(decideTokenAction({ token: "t", expirationTime: now + TOKEN_LIFETIME_MS }, now)).toBe("keep");
  });
});

describe("isTokenExpired", () => {
  it("is true at or after the expiry time", () => {
    expect(isTokenExpired({ token: "t", expirationTime: now }, now)).toBe(true);
    expect(isTokenExpired({ token: "t", expirationTime: now + 1 }, now)).toBe(false);
  });
});
