import type { Locator, Page } from "playwright-core";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { Envelope, LoginData, SessionUser } from "../common/api";
import { APP_VERSION, PRODUCT_NAME } from "../common/constants";
import {
  closePage,
  expectRed,
  expectToast,
  hasChromium,
  SIGNED_IN_WARNING,
  SUCCESS,
} from "./support/browser";
import { recordForms, sentForm } from "./support/forms";
import { passwordLogin, useBrowserSuite } from "./support/suite";

/**
 * Profile, signed-in password change, and the signed-in menu and footer in Chromium against
 * the real server (product.md §2 "Profile", "Change password", "Signed-in menu and footer"; product.md §4, 5, 8).
 */

if (!hasChromium) console.warn("profile e2e skipped: no Chromium found (set CHROMIUM_PATH)");

const TIMEOUT = 90_000;

describe.skipIf(!hasChromium)("profile and password in Chromium", () => {
  const suite = useBrowserSuite({ env: { LLM_PROVIDER: "none" } });

  const base = (): string => suite.url;

  const login = (email: string, password: string) => passwordLogin(base(), email, password);

  /** A new member with a password (Free plan), signed in. */
  const member = (email: string, password: string): Promise<LoginData> => suite.member(email, password);

  const field = (page: Page, label: string): Locator => page.getByLabel(label, { exact: true });
  const storedUser = (page: Page) =>
    page.evaluate(() => JSON.parse(localStorage.getItem("user") ?? "null") as SessionUser | null);

  it(
    "shows the profile, flags blank names with the 'Oops...' modal, saves name and photo and stores the new user",
    async () => {
      const session = await member("profile@example.com", "first password 1");
      const page = await suite.openSignedIn(session, "/user/profile");
      await page.getByRole("heading", { name: "My Profile" }).waitFor();
      await expect.poll(() => field(page, "Full Name").inputValue()).toBe("Test Member");
      expect(await field(page, "User Name").inputValue()).toBe("profile");
      expect(await field(page, "Email").inputValue()).toBe("profile@example.com");
      expect(await field(page, "Plan").inputValue()).toBe("Free");
      expect(await field(page, "Chat Limit").inputValue()).toBe("15");
      expect(await field(page, "Chat Count").inputValue()).toBe("0");
      for (const label of ["Email", "Plan", "Chat Limit", "Chat Count"]) {
        expect(await field(page, label).getAttribute("readonly")).not.toBeNull();
      }
      // No picture yet: the fallback user.jpg.
      expect(await page.getByRole("img", { name: "Photo preview" }).getAttribute("src")).toBe(
        "/content/user.jpg",
      );

      // Cancel goes back to the list.
      await page.getByRole("button", { name: "Cancel" }).click();
      await page.waitForURL("**/characters/list");
      await page.goto(`${base()}/user/profile`);
      await expect.poll(() => field(page, "Full Name").inputValue()).toBe("Test Member");

      await field(page, "Full Name").fill("");
      await expectRed(field(page, "Full Name"), true);
      await expectRed(field(page, "User Name"), false);
      await page.getByRole("button", { name: "Save" }).click();
      const modal = page.getByRole("dialog");
      await modal.getByRole("heading", { name: "Oops..." }).waitFor();
      await modal.getByText("Please fill in all required fields!").waitFor();
      await modal.getByRole("button", { name: "Close" }).click();
      await modal.waitFor({ state: "detached" });

      await field(page, "Full Name").fill("Petra Profile");
      await expectRed(field(page, "Full Name"), false);
      await field(page, "User Name").fill("petra");
      const picture = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#aa3355" } })
        .jpeg()
        .toBuffer();
      await field(page, "Photo").setInputFiles({
        name: "petra.jpg",
        mimeType: "image/jpeg",
        buffer: picture,
      });
      await expect
        .poll(() => page.getByRole("img", { name: "Photo preview" }).getAttribute("src"))
        .toMatch(/^blob:/);
      await recordForms(page);
      await page.getByRole("button", { name: "Save" }).click();
      await expect
        .poll(() => sentForm(page, "/api/users/update"))
        .toEqual({
          fname: "Petra Profile",
          name: "petra",
          photo: "file:petra.jpg",
          old_photo: "",
          id: session.user.id,
        });
      await expectToast(page, "Profile updated.", SUCCESS);
      await page.waitForURL("**/characters/list");

      const user = await storedUser(page);
      expect(user).toMatchObject({ id: session.user.id, name: "Petra Profile", userName: "petra" });
      expect(user?.userPicture).toMatch(/^[\w-]+\.jpg$/);

      await page.goto(`${base()}/user/profile`);
      await expect.poll(() => field(page, "Full Name").inputValue()).toBe("Petra Profile");
      const preview = page.getByRole("img", { name: "Photo preview" });
      expect(await preview.getAttribute("src")).toBe(`/content/users/${user?.userPicture}`);
      await expect
        .poll(() => preview.evaluate((element) => (element as HTMLImageElement).naturalWidth))
        .toBeGreaterThan(0);
      await closePage(page);
    },
    TIMEOUT,
  );

  it(
    "changes the password: required fields, the mismatch toast, the server's refusal, then success",
    async () => {
      const session = await member("password@example.com", "old password 123");
      const page = await suite.openSignedIn(session, "/user/change-password");
      await page.getByRole("heading", { name: "Change Password" }).waitFor();

      // All blank: three red fields and nothing sent.
      let calls = 0;
      page.on("request", (request) => {
        if (request.url().includes("/api/users/update-password")) calls += 1;
      });
      await page.getByRole("button", { name: "Change" }).click();
      for (const label of ["Current Password", "New Password", "ReTyped Password"]) {
        await expectRed(field(page, label), true);
      }
      await field(page, "Current Password").fill("x");
      await expectRed(field(page, "Current Password"), false);
      await field(page, "Current Password").fill("");
      await expectRed(field(page, "Current Password"), true);
      expect(calls).toBe(0);

      await field(page, "Current Password").fill("old password 123");
      await field(page, "New Password").fill("new password 456");
      await field(page, "ReTyped Password").fill("new password 789");
      await page.getByRole("button", { name: "Change" }).click();
      await expectToast(page, "New and ReTyped password do not match.", SIGNED_IN_WARNING);
      expect(calls).toBe(0);

      await field(page, "Current Password").fill("not my password");
      await field(page, "ReTyped Password").fill("new password 456");
      await page.getByRole("button", { name: "Change" }).click();
      await expectToast(page, "The current password is not correct.", SIGNED_IN_WARNING);
      expect(calls).toBe(1);
      expect(new URL(page.url()).pathname).toBe("/user/change-password");

      await field(page, "Current Password").fill("old password 123");
      const sent = page.waitForRequest((request) => request.url().endsWith("/api/users/update-password"));
      await page.getByRole("button", { name: "Change" }).click();
      const request = await sent;
      expect(request.method()).toBe("PATCH");
      expect(Object.fromEntries(new URLSearchParams(request.postData() ?? ""))).toEqual({
        cpassword: "old password 123",
        npassword: "new password 456",
        rtpassword: "new password 456",
        id: session.user.id,
      });
      await expectToast(page, "Your password has been changed.", SUCCESS);
      await page.waitForURL("**/characters/list");

      expect((await login("password@example.com", "old password 123")).success).toBe(0);
      expect((await login("password@example.com", "new password 456")).success).toBe(1);

      // Cancel goes back to the list.
      await page.goto(`${base()}/user/change-password`);
      await page.getByRole("button", { name: "Cancel" }).click();
      await page.waitForURL("**/characters/list");
      await closePage(page);
    },
    TIMEOUT,
  );

  it(
    "lists the signed-in devices and revokes one: it is gone and can no longer sign in",
    async () => {
      const session = await member("devices@example.com", "devices password 1");
      const register = async (name: string): Promise<string> => {
        const answer = await fetch(`${base()}/api/auth/devices`, {
          method: "POST",
          headers: { Authorization: `Bearer ${session.token}` },
          body: new URLSearchParams({ name }),
        });
        return ((await answer.json()) as Envelope<{ deviceId: string }>).data?.deviceId ?? "";
      };
      const phone = await register("Kitchen tablet");
      await register("Work phone");
      const page = await suite.openSignedIn(session, "/user/profile");
      const panel = page.getByRole("region", { name: "Signed-in devices" });
      const devices = panel.getByRole("list", { name: "Signed-in devices" });
      await devices.getByRole("listitem").filter({ hasText: "Kitchen tablet" }).waitFor();
      expect(await devices.getByRole("listitem").count()).toBe(2);
      expect(
        await devices.getByRole("listitem").filter({ hasText: "Kitchen tablet" }).textContent(),
      ).toContain("not used yet");

      const revoked = page.waitForResponse(
        (response) =>
          response.url().includes("/api/auth/devices?id=") && response.request().method() === "DELETE",
      );
      await panel.getByRole("button", { name: "Revoke Kitchen tablet" }).click();
      expect((await revoked).status()).toBe(200);
      await expectToast(page, "Kitchen tablet can no longer sign in.", SUCCESS);
      await devices
        .getByRole("listitem")
        .filter({ hasText: "Kitchen tablet" })
        .waitFor({ state: "detached" });
      expect((await devices.getByRole("listitem").allTextContents()).join()).toContain("Work phone");
      const deviceLogin = await fetch(`${base()}/api/auth/device-login`, {
        method: "POST",
        body: new URLSearchParams({ id: phone }),
      });
      expect(((await deviceLogin.json()) as Envelope).success).toBe(0);
      await closePage(page);
    },
    TIMEOUT,
  );

  it(
    "slides the signed-in menu over 0.3 s, follows its entries, shows the footer and logs out",
    async () => {
      const session = await member("menu@example.com", "menu password 1");
      const page = await suite.openSignedIn(session, "/characters/list");
      await page.getByRole("heading", { name: "My Characters" }).waitFor();

      const footer = page.getByRole("contentinfo");
      const footerText = await footer.textContent();
      expect(footerText).toContain(PRODUCT_NAME);
      expect(footerText).toContain(String(new Date().getFullYear()));
      expect(footerText).toContain(APP_VERSION);

      const toggle = page.getByRole("button", { name: "Open menu" });
      const nav = page.getByRole("navigation", { name: "Main", includeHidden: true });
      expect(await nav.evaluate((element) => getComputedStyle(element).transitionDuration)).toContain("0.3s");
      await toggle.click();
      await nav.getByRole("link", { name: "MY PROFILE" }).waitFor();
      expect((await nav.getByRole("link").allTextContents()).map((label) => label.trim())).toEqual([
        "HOME",
        "MY PROFILE",
        "CHARACTERS",
        "CHANGE PASSWORD",
        "F.A.Q",
        "LOGOUT",
      ]);
      const hrefs = await nav
        .getByRole("link")
        .evaluateAll((links) => links.map((link) => link.getAttribute("href")));
      expect(hrefs).toEqual([
        "/",
        "/user/profile",
        "/characters/list",
        "/user/change-password",
        "/faq",
        "/logout",
      ]);

      await nav.getByRole("link", { name: "MY PROFILE" }).click();
      await page.waitForURL("**/user/profile");
      await page.getByRole("heading", { name: "My Profile" }).waitFor();

      // A menu opened while the next page (loaded on demand, held back here) is still arriving
      // stays open when that page appears.
      let releasePage = () => {};
      const held = new Promise<void>((resolve) => {
        releasePage = resolve;
      });
      await page.route(/\/assets\/ChangePasswordPage-[^/]*\.js$/, async (route) => {
        await held;
        await route.continue();
      });
      await page.getByRole("button", { name: "Open menu" }).click();
      await nav.getByRole("link", { name: "CHANGE PASSWORD" }).click();
      await page.waitForURL("**/user/change-password");
      await page.getByRole("button", { name: "Open menu" }).click();
      await nav.getByRole("link", { name: "CHARACTERS" }).waitFor();
      releasePage();
      await page.getByRole("heading", { name: "Change Password" }).waitFor();
      await page.waitForTimeout(400);
      expect(await page.getByRole("button", { name: "Close menu" }).getAttribute("aria-expanded")).toBe(
        "true",
      );
      await page.getByRole("button", { name: "Close menu" }).click();

      await page.getByRole("button", { name: "Open menu" }).click();
      await nav.getByRole("link", { name: "CHARACTERS" }).click();
      await page.waitForURL("**/characters/list");
      await page.getByRole("heading", { name: "My Characters" }).waitFor();

      await page.getByRole("button", { name: "Open menu" }).click();
      await nav.getByRole("link", { name: "LOGOUT" }).click();
      await page.waitForURL((url) => url.pathname === "/");
      expect(await storedUser(page)).toBeNull();
      await closePage(page);
    },
    TIMEOUT,
  );
});
