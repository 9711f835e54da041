import type { Locator, Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { Envelope, LoginData } from "../common/api";
import { RULES } from "../common/validation";
import { english } from "../server/i18n/messages";
import { closePage, demoSession, hasChromium, openPage, toastWith } from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * The browser knows the server's input rules (common/validation.ts). A form with a
 * broken rule sends nothing and shows the very sentence the server answers for the same input,
 * on a phone and on a desktop.
 */

if (!hasChromium) console.warn("validation e2e skipped: no Chromium found (set CHROMIUM_PATH)");

const TIMEOUT = 120_000;
const VIEWPORTS = [
  ["phone", { width: 375, height: 812 }],
  ["desktop", { width: 1280, height: 800 }],
] as const;

describe.skipIf(!hasChromium)("forms refuse bad input before sending", () => {
  const suite = useBrowserSuite({ env: { LLM_PROVIDER: "none" } });

  const field = (page: Page, label: string): Locator => page.getByLabel(label, { exact: true });

  /** Counts the requests of `method` to a path ending in `suffix` that the page sends from now on. */
  const countRequests = (page: Page, method: string, suffix: string) => {
    const seen = { count: 0 };
    page.on("request", (request) => {
      if (request.method() === method && new URL(request.url()).pathname.endsWith(suffix)) seen.count += 1;
    });
    return seen;
  };

  /** Waits for the warning toast with `text`. */
  const expectWarning = async (page: Page, text: string) => {
    const toast = toastWith(page, text);
    await toast.first().waitFor({ state: "visible", timeout: 20_000 });
    expect(await toast.first().getAttribute("data-type")).toBe("warning");
  };

  /** What the server answers to a request the browser refused to send. */
  const serverAnswer = async (path: string, init: RequestInit, token?: string): Promise<Envelope> => {
    const answer = await fetch(`${suite.url}${path}`, {
      ...init,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(init.headers ?? {}) },
    });
    expect(answer.status).toBe(400);
    return (await answer.json()) as Envelope;
  };

  describe.each(VIEWPORTS)("%s", (name, viewport) => {
    it(
      "change password: a short new password is refused in the page with the server's sentence",
      async () => {
        const session: LoginData = await suite.member(`pw-${name}@example.com`, "old password 123");
        const page = await suite.openSignedIn(session, "/user/change-password", { context: { viewport } });
        await page.getByRole("heading", { name: "Change Password" }).waitFor();
        const sent = countRequests(page, "PATCH", "/api/users/update-password");
        await field(page, "Current Password").fill("old password 123");
        await field(page, "New Password").fill("short");
        await field(page, "ReTyped Password").fill("short");
        await page.getByRole("button", { name: "Change" }).click();
        const sentence = english(RULES.newPassword.messages.tooShort);
        expect(sentence).toBe("The new password must be at least 8 characters.");
        await expectWarning(page, sentence);
        expect(sent.count).toBe(0);

        const server = await serverAnswer(
          "/api/users/update-password",
          {
            method: "PATCH",
            body: new URLSearchParams({
              cpassword: "old password 123",
              npassword: "short",
              rtpassword: "short",
            }),
          },
          session.token,
        );
        expect(server).toMatchObject({ success: 0, message: sentence });

        // The rule is the only thing that stopped it: a good password goes out.
        await field(page, "New Password").fill("a new password 456");
        await field(page, "ReTyped Password").fill("a new password 456");
        const change = page.waitForResponse((r) => r.url().endsWith("/api/users/update-password"));
        await page.getByRole("button", { name: "Change" }).click();
        expect(((await (await change).json()) as Envelope).success).toBe(1);
        expect(sent.count).toBe(1);
        await closePage(page);
      },
      TIMEOUT,
    );

    it(
      "character form: a 51-character name is refused in the page with the server's sentence",
      async () => {
        const session = await demoSession(suite.url);
        const page = await suite.openSignedIn(session, "/characters/add", { context: { viewport } });
        await page.getByRole("heading", { name: "New Character" }).waitFor();
        await expect
          .poll(() => field(page, "Voice").locator("option").count(), { timeout: 20_000 })
          .toBeGreaterThan(1);
        await expect
          .poll(() => field(page, "Language").locator("option").count(), { timeout: 20_000 })
          .toBeGreaterThan(1);
        const sent = countRequests(page, "POST", "/api/characters/create");
        const longName = "N".repeat(51);
        await field(page, "Name").fill(longName);
        await field(page, "Sex").selectOption({ label: "Female" });
        await field(page, "Voice").selectOption({ label: "English Female" });
        await field(page, "Language").selectOption({ label: "English" });
        await field(page, "Backstory").fill("A pilot who loves jazz.");
        await page.getByRole("button", { name: "Save" }).click();
        const sentence = "The name must be at most 50 characters.";
        await expectWarning(page, sentence);
        expect(sent.count).toBe(0);

        const language = await field(page, "Language").inputValue();
        const form = new FormData();
        for (const [key, value] of Object.entries({
          name: longName,
          sex: "0",
          voice: "English Female",
          language,
          description: "A pilot who loves jazz.",
        }))
          form.append(key, value);
        const server = await serverAnswer(
          "/api/characters/create",
          { method: "POST", body: form },
          session.token,
        );
        expect(server).toMatchObject({ success: 0, message: sentence });
        await closePage(page);
      },
      TIMEOUT,
    );

    it(
      "contact: a malformed e-mail address is refused in the page with the server's sentence",
      async () => {
        const page = await openPage(suite.browser, { viewport });
        await page.goto(`${suite.url}/contact`);
        await page.getByRole("heading", { name: "Contact us" }).waitFor();
        const sent = countRequests(page, "POST", "/api/contact");
        await page.getByLabel("Name").fill("Ada");
        await page.getByLabel("Email").fill("ada@example");
        await page.getByLabel("Subject").fill("Hello");
        await page.getByLabel("Message").fill("Text");
        await page.getByRole("button", { name: "Submit" }).click();
        const sentence = "The e-mail address is not valid.";
        await expectWarning(page, sentence);
        expect(sent.count).toBe(0);
        expect(await page.getByLabel("Email").inputValue()).toBe("ada@example");

        const server = await serverAnswer("/api/contact", {
          method: "POST",
          body: new URLSearchParams({ name: "Ada", email: "ada@example", subject: "Hello", message: "Text" }),
        });
        expect(server).toMatchObject({ success: 0, message: sentence });
        await closePage(page);
      },
      TIMEOUT,
    );
  });
});
