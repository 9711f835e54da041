import { describe, expect, it } from "vitest";
import { ADMIN_MENU_ITEM, SIGNED_IN_MENU, signedInMenuFor } from "./SiteMenu";

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
