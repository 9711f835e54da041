import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DESKTOP, ensureCharacters, openChat, PHONE, signedInPage } from "./chat.helpers";
import { closePage, hasChromium } from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * The chat of an install with a model but no image engine and no Stripe, on phone and
 * desktop: a plan with `il` '1' gets Attach, Camera and the Photo List (the user's own photos need
 * no engine), the picture requests stay in the menu disabled with a visible one-line reason; at the
 * limit the chat follows the answer's page (/pricing) with the message shown there, the message
 * (a text or a photo) is not 'Failed'; a group of 4 offers no add button.
 */

if (!hasChromium) console.warn("default-install chat e2e skipped: no Chromium found (set CHROMIUM_PATH)");

const TIMEOUT = 150_000;
const VIEWPORTS = [
  ["phone", PHONE],
  ["desktop", DESKTOP],
] as const;
const NO_ENGINE = "Pictures are not available on this server: no image generator is configured.";

describe.skipIf(!hasChromium)("a default install's chat in Chromium (tiny model, no image engine)", () => {
  const suite = useBrowserSuite({
    browserArgs: ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"],
  });
  const jpegPath = path.join(os.tmpdir(), `default-install-chat-${process.pid}.jpg`);

  beforeAll(async () => {
    fs.writeFileSync(
      jpegPath,
      await sharp({ create: { width: 400, height: 300, channels: 3, background: { r: 200, g: 90, b: 40 } } })
        .jpeg()
        .toBuffer(),
    );
  });
  afterAll(() => fs.rmSync(jpegPath, { force: true }));

  /** A guest whose user row `change` sets first, in the chat of their first character. */
  async function chatWith(
    viewport: { width: number; height: number },
    change: Record<string, string | number>,
  ): Promise<{ page: Page; name: string }> {
    const { page, session } = await signedInPage(suite.browser, suite.url, viewport);
    await suite.server.db.updateTable("users").set(change).where("id", "=", session.user.id).execute();
    const [character] = await ensureCharacters(page, 1);
    if (character === undefined) throw new Error("no character");
    await openChat(page, suite.url, character.characterUUID);
    return { page, name: character.characterName };
  }

  for (const [label, viewport] of VIEWPORTS) {
    it(
      `${label}: il '1' without an image engine: Attach, Camera and the Photo List; picture requests disabled with the reason`,
      async () => {
        const { page } = await chatWith(viewport, { image_generation: 1 });
        await page.getByRole("button", { name: "Photos" }).click();
        const menu = page.getByRole("menu", { name: "Photos" });
        await menu.waitFor();
        await menu.getByRole("menuitem", { name: "Attach" }).waitFor();
        await menu.getByRole("menuitem", { name: "Camera" }).waitFor();
        for (const name of ["Send a portrait photo", "Send a landscape photo", "Send a photo of.."])
          expect(await menu.getByRole("menuitem", { name }).isDisabled()).toBe(true);
        const reason = menu.getByText(NO_ENGINE, { exact: true });
        await reason.waitFor();
        expect(await reason.isVisible()).toBe(true);
        await page.screenshot({ path: `test-results/default-install-photos-${label}.png` });

        // The user's own photo goes through with no engine.
        const chooser = page.waitForEvent("filechooser");
        await menu.getByRole("menuitem", { name: "Attach" }).click();
        await (await chooser).setFiles(jpegPath);
        await page.getByRole("figure", { name: "Photo to send" }).waitFor();
        await page.getByRole("textbox", { name: "Type a message" }).fill("my orange wall");
        await page.getByRole("button", { name: "Send" }).click();
        const log = page.getByRole("log", { name: "Messages" });
        const mine = log.getByRole("article", { name: "Your message" }).filter({ hasText: "my orange wall" });
        await expect
          .poll(async () => (await mine.getByRole("img", { name: "Your photo" }).getAttribute("src")) ?? "", {
            timeout: 30_000,
          })
          .toMatch(/^\/content\/[0-9a-f-]{36}\/user_photo\/[0-9a-f-]{36}\.jpg$/);
        expect(await mine.getByText("Failed", { exact: true }).count()).toBe(0);

        // The Photo List of the user's own photos.
        await page.getByRole("button", { name: "Photo List" }).click();
        const list = page.getByRole("complementary", { name: "Photo List" });
        await expect
          .poll(() => list.getByRole("button", { name: /^Open photo / }).count())
          .toBeGreaterThan(0);
        await closePage(page);
      },
      TIMEOUT,
    );

    it(
      `${label}: at the limit the chat opens /pricing with the message and the add-on; the message is not 'Failed'`,
      async () => {
        const month = new Date().toISOString().slice(0, 7);
        const { page } = await chatWith(viewport, {
          quota_period: "month",
          chat_limit: 2,
          chat_count: 2,
          chat_period: month,
          extra_messages: 0,
        });
        const box = page.getByRole("textbox", { name: "Type a message" });
        await expect.poll(() => box.isEnabled()).toBe(true);
        await box.fill("one more please");
        await box.press("Enter");
        await page.waitForURL("**/pricing", { timeout: 30_000 });
        const limit = "You have reached your limit of 2 messages for this month.";
        await page.getByRole("alert").filter({ hasText: limit }).waitFor();
        // Payments are off here: the add-on leads to the plan panel (not a Buy that fails).
        await page
          .getByRole("region", { name: "Add-on" })
          .getByRole("link", { name: "How to get 100 more messages" })
          .waitFor();
        await page.screenshot({ path: `test-results/default-install-limit-${label}.png` });

        // Back in the chat: the refused message left no 'Failed' mark behind.
        await page.goBack();
        await page.getByRole("log", { name: "Messages" }).waitFor();
        await page.getByRole("textbox", { name: "Type a message" }).waitFor();
        expect(await page.getByText("Failed", { exact: true }).count()).toBe(0);
        await closePage(page);
      },
      TIMEOUT,
    );

    it(
      `${label}: a photo at the limit opens /pricing with the message, like a text; the photo is not 'Failed'`,
      async () => {
        const month = new Date().toISOString().slice(0, 7);
        const { page } = await chatWith(viewport, {
          image_generation: 1,
          quota_period: "month",
          chat_limit: 2,
          chat_count: 2,
          chat_period: month,
          extra_messages: 0,
        });
        await page.getByRole("button", { name: "Photos" }).click();
        const menu = page.getByRole("menu", { name: "Photos" });
        const chooser = page.waitForEvent("filechooser");
        await menu.getByRole("menuitem", { name: "Attach" }).click();
        await (await chooser).setFiles(jpegPath);
        await page.getByRole("figure", { name: "Photo to send" }).waitFor();
        await page.getByRole("textbox", { name: "Type a message" }).fill("my wall at the limit");
        await page.getByRole("button", { name: "Send" }).click();
        await page.waitForURL("**/pricing", { timeout: 30_000 });
        const limit = "You have reached your limit of 2 messages for this month.";
        await page.getByRole("alert").filter({ hasText: limit }).waitFor();
        await page.goBack();
        await page.getByRole("log", { name: "Messages" }).waitFor();
        expect(await page.getByText("Failed", { exact: true }).count()).toBe(0);
        expect(await page.getByText("Photo upload failed. Please check and try again.").count()).toBe(0);
        await closePage(page);
      },
      TIMEOUT,
    );

    it(
      `${label}: a group of 4 offers no add button and says why`,
      async () => {
        const { page, session } = await signedInPage(suite.browser, suite.url, viewport);
        await suite.server.db
          .updateTable("users")
          .set({ character_limit: 10 })
          .where("id", "=", session.user.id)
          .execute();
        const [first, second, third, fourth, fifth] = await ensureCharacters(page, 5);
        if (!first || !second || !third || !fourth || !fifth) throw new Error("characters missing");
        await openChat(page, suite.url, first.characterUUID);
        await page.getByRole("button", { name: "Chat menu" }).click();
        await page.getByRole("button", { name: "Start Group" }).click();
        const sidebar = page.getByRole("complementary", { name: "Chat sidebar" });
        // The group's chat opens (Start Group of a one-to-one chat); on the phone the sidebar is a drawer.
        await page.getByRole("button", { name: "Start Group" }).waitFor({ state: "detached" });
        if (label === "phone") {
          await page.getByRole("log", { name: "Messages" }).waitFor();
          await page.getByRole("button", { name: "Toggle sidebar" }).click();
        }
        await sidebar.getByRole("heading", { name: "Not in Group" }).waitFor();
        // The phone's drawer closes when the group's chat loads again after a change: open it again.
        const drawerOpen = async () => {
          if (
            label === "phone" &&
            !(await sidebar.getByRole("heading", { name: "Not in Group" }).isVisible())
          )
            await page.getByRole("button", { name: "Toggle sidebar" }).click();
          await sidebar.getByRole("heading", { name: "Not in Group" }).waitFor();
        };
        for (const member of [second, third, fourth]) {
          await drawerOpen();
          await sidebar.getByRole("button", { name: `Add ${member.characterName} to the group` }).click();
          const remove = sidebar.getByRole("button", {
            name: `Remove ${member.characterName} from the group`,
          });
          await expect
            .poll(
              async () => {
                await drawerOpen();
                return remove.isVisible();
              },
              { timeout: 20_000 },
            )
            .toBe(true);
        }
        await drawerOpen();
        await sidebar.getByText("A group holds at most 4 members.").waitFor();
        const outside = sidebar.getByRole("region", { name: "Not in Group" });
        await outside.getByText(fifth.characterName, { exact: true }).waitFor();
        expect(await sidebar.getByRole("button", { name: /to the group$/ }).count()).toBe(0);

        // One member out: the add buttons are back.
        await sidebar.getByRole("button", { name: `Remove ${fourth.characterName} from the group` }).click();
        const addFifth = sidebar.getByRole("button", { name: `Add ${fifth.characterName} to the group` });
        await expect
          .poll(
            async () => {
              await drawerOpen();
              return addFifth.isVisible();
            },
            { timeout: 20_000 },
          )
          .toBe(true);
        expect(await sidebar.getByText("A group holds at most 4 members.").count()).toBe(0);
        await closePage(page);
      },
      TIMEOUT,
    );
  }
});
