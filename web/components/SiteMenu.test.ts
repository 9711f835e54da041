import { describe, expect, it } from "vitest";
import { ADMIN_MENU_ITEM, PUBLIC_MENU, publicMenuFor, SIGNED_IN_MENU, signedInMenuFor } from "./SiteMenu";

describe("signed-in menu from the session user", () => {
  it("an admin session user gets ADMIN just before LOGOUT", () => {
    const items = signedInMenuFor({ isAdmin: true });
    expect(items.map((item) => item.key)).toEqual([
      "home",
      "profile",
      "characters",
      "changePassword",
      "faq",
      "admin",
      "logout",
    ]);
    expect(items).toContain(ADMIN_MENU_ITEM);
  });

  it("a normal user, an older stored session without the flag and no user get no ADMIN", () => {
    expect(signedInMenuFor({ isAdmin: false })).toEqual(SIGNED_IN_MENU);
    expect(signedInMenuFor({})).toEqual(SIGNED_IN_MENU);
    expect(signedInMenuFor(null)).toEqual(SIGNED_IN_MENU);
  });
});

describe("public menu from the session user", () => {
  const publicKeys = ["home", "chat", "pricing", "faq", "contact", "terms"];

  it("a signed-out visitor gets SIGN IN (to /login) after the public entries", () => {
    const items = publicMenuFor(null);
    expect(items.map((item) => item.key)).toEqual([...publicKeys, "signIn"]);
    expect(items.at(-1)).toEqual({ label: "SIGN IN", key: "signIn", to: "/login" });
  });

  it("a signed-in user gets CHARACTERS and LOGOUT, an admin ADMIN between them; no SIGN IN", () => {
    expect(publicMenuFor({ isAdmin: false }).map((item) => item.key)).toEqual([
      ...publicKeys,
      "characters",
      "logout",
    ]);
    const admin = publicMenuFor({ isAdmin: true });
    expect(admin.map((item) => item.key)).toEqual([...publicKeys, "characters", "admin", "logout"]);
    expect(admin.map((item) => item.to).slice(-3)).toEqual(["/characters/list", "/admin", "/logout"]);
    expect(PUBLIC_MENU.map((item) => item.key)).toEqual(publicKeys);
  });
});
