import { describe, expect, it } from "vitest";
import { homeActions } from "./HomePage";
import { DEFAULT_DEMO_PATH, demoPathOf, tryFreeTarget } from "./hooks/useTryFreeTarget";

/**
 * The home page's ways in: Try for Free leads where this site lets people in (never to a
 * refusal), a visitor gets Sign in, a signed-in user the way back into the app.
 */

describe("Try for Free", () => {
  const closed = { demoPath: null, freeSubscription: false, registration: "closed" } as const;

  it("leads to the demo while it is on, whatever else the site offers", () => {
    expect(tryFreeTarget({ ...closed, demoPath: "/login/demo" })).toBe("/login/demo");
    expect(tryFreeTarget({ demoPath: "/login/guest", freeSubscription: true, registration: "open" })).toBe(
      "/login/guest",
    );
  });

  it("else to the free subscription where it is offered, else to sign-up while registration is open or by invitation", () => {
    expect(tryFreeTarget({ ...closed, freeSubscription: true, registration: "open" })).toBe("/free-chat");
    expect(tryFreeTarget({ ...closed, registration: "open" })).toBe("/signup");
    expect(tryFreeTarget({ ...closed, registration: "invite" })).toBe("/signup");
  });

  it("else to sign-in", () => {
    expect(tryFreeTarget(closed)).toBe("/login");
  });

  it("finds the demo's path in the site's info: none while closed or unknown, the named one, else the default", () => {
    expect(demoPathOf(undefined)).toBeNull();
    expect(demoPathOf({ demo: false, registration: "open" })).toBeNull();
    expect(demoPathOf({ demo: true, registration: "closed" })).toBe(DEFAULT_DEMO_PATH);
    expect(demoPathOf({ demo: true, registration: "closed", demoPath: "/login/guest-7" })).toBe(
      "/login/guest-7",
    );
    expect(demoPathOf({ demo: true, registration: "closed", demoPath: "https://elsewhere/x" })).toBe(
      DEFAULT_DEMO_PATH,
    );
  });
});

describe("the home page's buttons", () => {
  it("a visitor: Try for Free (to where the site lets people in), Chat with AI Girls and Sign in", () => {
    expect(homeActions(null, "/signup").map(({ to, label }) => [label, to])).toEqual([
      ["home.tryFree", "/signup"],
      ["home.chatGirls", "/start-chat"],
      ["home.signIn", "/login"],
    ]);
  });

  it("a signed-in user: My characters and Log out; an admin also the admin console", () => {
    expect(homeActions({ isAdmin: false }, "/login").map(({ to }) => to)).toEqual([
      "/characters/list",
      "/logout",
    ]);
    expect(homeActions({ isAdmin: true }, "/login").map(({ to }) => to)).toEqual([
      "/characters/list",
      "/admin",
      "/logout",
    ]);
  });
});
