import type { Page, Request } from "playwright-core";
import { describe, expect, it } from "vitest";
import {
  DESKTOP,
  ensureCharacters,
  openChat,
  PHONE,
  signedInPage,
  withoutBrowserSpeech,
} from "./chat.helpers";
import { closePage, expectToast, hasChromium, SUCCESS, toastWith } from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * Settings 'About you': the name the user goes by and a few words about themself are
 * kept with the chat settings and sent with each message as `pname` and `ptext`, with `time` as
 * the user's wall clock and UTC offset (README "How the chat works"; the server's side is
 * server/modules/chat/sender-context.test.ts).
 */

/** The text fields of a multipart body, by name. */
function formFields(request: Request): Record<string, string> {
  const type = request.headers()["content-type"] ?? "";
  const boundary = /boundary=(.+)$/.exec(type)?.[1];
  const body = request.postData() ?? "";
  if (!boundary) throw new Error(`not multipart: ${type}`);
  const fields: Record<string, string> = {};
  for (const part of body.split(`--${boundary}`)) {
    const name = /name="([^"]+)"/.exec(part)?.[1];
    const value = part.split("\r\n\r\n")[1];
    if (name && value !== undefined) fields[name] = value.replace(/\r\n$/, "");
  }
  return fields;
}

async function sendAndCapture(page: Page, text: string): Promise<Record<string, string>> {
  const sent = page.waitForRequest((r) => r.url().endsWith("/api/chat/message") && r.method() === "POST");
  await page.getByRole("textbox", { name: "Type a message" }).fill(text);
  await page.getByRole("button", { name: "Send" }).click();
  return formFields(await sent);
}

describe.skipIf(!hasChromium)("settings 'About you' in Chromium", () => {
  const suite = useBrowserSuite();

  for (const [label, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    it(`${label}: the name and words saved in Settings go with each message as pname and ptext, time with the offset`, async () => {
      const { server, browser } = suite;
      const { page } = await signedInPage(browser, server.url, viewport);
      const [character] = await ensureCharacters(page, 1);
      if (!character) throw new Error("no character");
      await withoutBrowserSpeech(page);
      await openChat(page, server.url, character.characterUUID);

      // Nothing set: no pname or ptext, and the time carries the browser's offset.
      const before = Date.now();
      const plain = await sendAndCapture(page, "hello");
      expect(plain.pname).toBeUndefined();
      expect(plain.ptext).toBeUndefined();
      expect(plain.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}[+-]\d{2}:\d{2}$/);
      expect(Math.abs(Date.parse(plain.time ?? "") - before)).toBeLessThan(60_000);
      const online = page.getByRole("banner").getByText("online", { exact: true });
      await online.waitFor({ timeout: 60_000 });

      await page.getByRole("button", { name: "Chat menu" }).click();
      await page.getByRole("button", { name: "Settings" }).click();
      const dialog = page.getByRole("dialog", { name: "Settings" });
      const name = dialog.getByLabel("The name you go by");
      expect(await name.getAttribute("maxlength")).toBe("50");
      await name.fill("  Sam ");
      await dialog.getByLabel("A few words about you").fill("a night nurse, just off shift");
      await dialog.getByRole("button", { name: "Save" }).click();
      // The toast's corner rule is checked on desktop (phone toasts span the width).
      if (label === "desktop") await expectToast(page, "Settings saved!", SUCCESS);
      else await toastWith(page, "Settings saved!").first().waitFor();

      // Kept after a reload, and sent trimmed.
      await page.reload();
      await page.getByRole("log", { name: "Messages" }).waitFor();
      await online.waitFor({ timeout: 60_000 });
      const withSender = await sendAndCapture(page, "back again");
      expect(withSender.pname).toBe("Sam");
      expect(withSender.ptext).toBe("a night nurse, just off shift");
      await closePage(page);
    }, 120_000);
  }
});
