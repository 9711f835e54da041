import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { closePage, demoSession, hasChromium, toastWith } from "./support/browser";
import { passwordLogin, useBrowserSuite } from "./support/suite";

/**
 * "Erase my account" in Chromium against the real server, on a phone and a desktop:
 * the profile's "Delete my account" warns what is removed, asks the password and a confirmation
 * (Cancel and a wrong password erase nothing), then the account is gone, the session is dropped
 * and the public home page shows a toast.
 */

if (!hasChromium) console.warn("account-erase e2e skipped: no Chromium found (set CHROMIUM_PATH)");

const TIMEOUT = 120_000;
const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 800 };

describe.skipIf(!hasChromium)("erase my account in Chromium", () => {
  const suite = useBrowserSuite({ env: { LLM_PROVIDER: "none" } });

  const usersWithEmail = async (email: string) =>
    (await suite.server.db.selectFrom("users").select("id").where("email", "=", email).execute()).length;

  const usersWithId = async (id: string) =>
    (await suite.server.db.selectFrom("users").select("id").where("id", "=", id).execute()).length;

  const panel = (page: Page) => page.getByRole("region", { name: "Delete my account" });

  /** Clicks the panel's button and answers the confirmation dialog. */
  async function submit(page: Page, answer: "Yes, delete my account" | "Cancel"): Promise<void> {
    await panel(page).getByRole("button", { name: "Delete my account" }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("heading", { name: "Delete your account?" }).waitFor();
    expect(await dialog.textContent()).toContain("It cannot be undone.");
    await dialog.getByRole("button", { name: answer }).click();
    await dialog.waitFor({ state: "detached" });
  }

  for (const [name, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    it(
      `${name}: warns, refuses a wrong password and Cancel, then erases, signs out and lands on the public page`,
      async () => {
        const email = `erase-${name}@example.com`;
        const password = "erase password 1";
        const session = await suite.member(email, password);
        const page = await suite.openSignedIn(session, "/user/profile", { context: { viewport } });
        const section = panel(page);
        await section.getByRole("heading", { name: "Delete my account" }).waitFor();
        const warning = (await section.textContent()) ?? "";
        for (const removed of [
          "every character",
          "all your chats",
          "voice messages",
          "remember",
          "cannot be undone",
        ])
          expect(warning).toContain(removed);
        // The panel fits the screen (no sideways scrolling on a phone).
        const box = await section.boundingBox();
        expect(box).not.toBeNull();
        expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);

        if (process.env.ERASE_SCREENSHOTS) {
          await section.scrollIntoViewIfNeeded();
          await page.screenshot({ path: `/tmp/erase-${name}-panel.png` });
        }
        const field = section.getByLabel("Your password", { exact: true });
        // Empty: flagged, no dialog, nothing sent.
        await section.getByRole("button", { name: "Delete my account" }).click();
        await section.getByText("Your password is required.").waitFor();
        expect(await page.getByRole("dialog").count()).toBe(0);

        // A wrong password, confirmed: the server refuses; still signed in, account intact.
        await field.fill("not the password");
        await submit(page, "Yes, delete my account");
        await section.getByText("The password is not correct.").waitFor();
        expect(new URL(page.url()).pathname).toBe("/user/profile");
        expect(await usersWithEmail(email)).toBe(1);

        // The right password, then Cancel: nothing is sent.
        const sent: string[] = [];
        page.on("request", (request) => {
          if (request.url().endsWith("/api/account/delete")) sent.push(request.method());
        });
        await field.fill(password);
        await submit(page, "Cancel");
        expect(sent).toEqual([]);
        expect(await usersWithEmail(email)).toBe(1);

        // Confirmed: erased, signed out, on the public page with a toast.
        await submit(page, "Yes, delete my account");
        await page.waitForURL((url) => url.pathname === "/", { timeout: 20_000 });
        const toast = toastWith(page, "Your account has been deleted.");
        await toast.first().waitFor({ state: "visible", timeout: 15_000 });
        expect(await toast.getAttribute("data-type")).toBe("success");
        expect(sent).toEqual(["POST"]);
        // A deliberate sign-out, not an expired session.
        expect(await toastWith(page, "Session expired").count()).toBe(0);
        if (process.env.ERASE_SCREENSHOTS) await page.screenshot({ path: `/tmp/erase-${name}-landing.png` });
        await expect
          .poll(() => page.evaluate(() => localStorage.getItem("token")), { timeout: 20_000 })
          .toBeNull();
        expect(await usersWithEmail(email)).toBe(0);
        expect((await passwordLogin(suite.url, email, password)).success).toBe(0);
        // The old token is refused.
        const profile = await fetch(`${suite.url}/api/users/profile/`, {
          headers: { authorization: `Bearer ${session.token}` },
        });
        expect(profile.status).toBe(401);
        // The signed-in area sends a visitor back out.
        await page.goto(`${suite.url}/user/profile`);
        await page.waitForURL((url) => url.pathname !== "/user/profile", { timeout: 20_000 });
        await closePage(page);
      },
      TIMEOUT,
    );
  }

  it(
    "phone: a guest confirms with its user name and lands on the public page",
    async () => {
      const session = await demoSession(suite.url);
      const page = await suite.openSignedIn(session, "/user/profile", { context: { viewport: PHONE } });
      const section = panel(page);
      const field = section.getByLabel("Type your user name to confirm", { exact: true });
      await field.fill("someone-else");
      await submit(page, "Yes, delete my account");
      await section.getByText("Please type your user name exactly as shown to confirm.").waitFor();
      expect(await usersWithId(session.user.id)).toBe(1);
      // The refusal's warning toast is still showing (held by the pointer) when the dialog opens
      // again: the dialog is above it, so the toast cannot cover the dialog's buttons.
      const refusal = toastWith(page, "Please type your user name exactly as shown to confirm.").first();
      await refusal.hover();
      await panel(page).getByRole("button", { name: "Delete my account" }).press("Enter");
      await page.getByRole("dialog").getByRole("heading", { name: "Delete your account?" }).waitFor();
      expect(await refusal.isVisible()).toBe(true);
      const onTop = await refusal.evaluate((toast) => {
        const box = toast.getBoundingClientRect();
        const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
        return top?.closest(".swal2-container") !== null && toast.contains(top) === false;
      });
      expect(onTop).toBe(true);
      await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click();
      await page.getByRole("dialog").waitFor({ state: "detached" });
      await field.fill(session.user.userName);
      await submit(page, "Yes, delete my account");
      await page.waitForURL((url) => url.pathname === "/", { timeout: 20_000 });
      await toastWith(page, "Your account has been deleted.")
        .first()
        .waitFor({ state: "visible", timeout: 15_000 });
      expect(await usersWithId(session.user.id)).toBe(0);
      await closePage(page);
    },
    TIMEOUT,
  );
});
