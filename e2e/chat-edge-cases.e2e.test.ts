import type { Page, Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatHistoryEntry, ChatProfileInfo } from "../common/api";
import { PHOTO_ACCEPT, PHOTO_CAPTIONS, PHOTO_TYPE_LANDSCAPE } from "../common/constants";
import { type ImageDouble, startImageDouble } from "../server/testing/image-servers";
import { loadNamespaces } from "../web/i18n";
import { chatTexts } from "../web/pages/chat/texts";
import { callApi, DESKTOP, ensureCharacters, openChat, PHONE, signedInPage } from "./chat.helpers";
import {
  appErrors,
  closePage,
  expectToast,
  hasChromium,
  holdRoute,
  json,
  SIGNED_IN_WARNING,
  toastWith,
} from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * The chat screen's edge cases (docs/spec-coverage.md), on phone and
 * desktop against the real server and an AUTOMATIC1111 double: the Photo List's spinner, the
 * camera window's Close, the attachment's accepted types, the no-colour-emoji message, the
 * scroll-to-bottom delays (page clock), a landscape request and the 10 captions, and the
 * failures product.md §8 wants only logged (history page, photos, New Chat, chat data, member
 * transport failures) next to those shown ('Failed to reply.', a member refusal).
 */

/** No sonner toast on the page, after giving one the time to show. */
async function expectNoToast(page: Page): Promise<void> {
  await page.waitForTimeout(700);
  expect(await page.locator("[data-sonner-toast]").allTextContents()).toEqual([]);
}

/**
 * The signed-in warning toast of product.md §8 with `text`: on desktop every rule of `expectToast`; on
 * a phone sonner spans the width, so its type, the toaster's bottom-right setting and that it goes.
 */
async function expectWarning(page: Page, text: string, label: "phone" | "desktop"): Promise<void> {
  if (label === "desktop") {
    await expectToast(page, text, SIGNED_IN_WARNING);
    return;
  }
  const toast = toastWith(page, text);
  await toast.first().waitFor({ state: "visible", timeout: 15_000 });
  expect(await toast.count()).toBe(1);
  expect(await toast.getAttribute("data-type")).toBe("warning");
  const corner = await toast.evaluate((element) => {
    const toaster = element.closest("[data-sonner-toaster]");
    return { x: toaster?.getAttribute("data-x-position"), y: toaster?.getAttribute("data-y-position") };
  });
  expect(corner).toEqual({ x: "right", y: "bottom" });
  await expect.poll(() => toast.count(), { timeout: SIGNED_IN_WARNING.durationMs + 5000 }).toBe(0);
}

describe.skipIf(!hasChromium)("chat rules, in Chromium", () => {
  let double: ImageDouble | undefined;

  beforeAll(async () => {
    // the chat texts are a lazy catalogue; this process reads them in English.
    await loadNamespaces(["chat"]);
    double = await startImageDouble("automatic1111");
  }, 60_000);

  afterAll(async () => {
    await double?.close();
  });

  const suite = useBrowserSuite({
    env: () => ({
      IMAGE_PROVIDER: "automatic1111",
      IMAGE_BASE_URL: double?.baseUrl ?? "",
      IMAGE_PORTRAIT_SIZE: "384x512",
      IMAGE_LANDSCAPE_SIZE: "512x384",
    }),
    browserArgs: ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"],
  });

  /** A demo user whose plan has il = '1', in the chat of their first character. */
  async function pictureChat(viewport: { width: number; height: number }) {
    const { page, session } = await signedInPage(suite.browser, suite.url, viewport);
    await suite.server.db
      .updateTable("users")
      .set({ image_generation: 1 })
      .where("id", "=", session.user.id)
      .execute();
    const [character] = await ensureCharacters(page, 1);
    if (character === undefined) throw new Error("no character");
    await page.context().grantPermissions(["camera"], { origin: suite.url });
    await openChat(page, suite.url, character.characterUUID);
    await page.getByRole("log", { name: "Messages" }).getByRole("article").first().waitFor();
    return { page, session, character };
  }

  const openRequestMenu = async (page: Page) => {
    await page.getByRole("button", { name: "Photos" }).click();
    await page.getByRole("menu", { name: "Photos" }).waitFor();
  };

  for (const [label, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    it(`${label}: the Photo List spins while its photos load; a failed load shows no toast and is logged (product.md §2, 8)`, async () => {
      const { page } = await pictureChat(viewport);
      const errors = appErrors(page);
      const photos = (url: URL) => url.pathname === "/api/chat/history/photos";
      const hold = holdRoute();
      await page.route(photos, hold.handler);
      await page.getByRole("button", { name: "Photo List" }).click();
      const list = page.getByRole("complementary", { name: "Photo List" });
      const spinner = list.getByRole("status", { name: "Loading photos" });
      await expect.poll(hold.held, { timeout: 15_000 }).toBe(1);
      await spinner.waitFor();
      hold.release();
      await list.getByText("No photos yet.").waitFor({ timeout: 15_000 });
      expect(await spinner.count()).toBe(0);
      await list.getByRole("button", { name: "Close photo list" }).click();
      await expect.poll(() => list.count()).toBe(0);

      // product.md §8: a photos failure (no answer, or refused with a message) is only logged; the
      // spinner goes, no toast.
      for (const answer of ["abort", "refused"] as const) {
        await page.unroute(photos);
        await page.route(photos, (route) =>
          answer === "abort"
            ? route.abort("failed")
            : json(route, 200, { success: 0, message: "Photos are not available." }),
        );
        const logged = errors.length;
        await page.getByRole("button", { name: "Photo List" }).click();
        await expect.poll(() => errors.length, { timeout: 15_000 }).toBeGreaterThan(logged);
        await expect.poll(() => spinner.count()).toBe(0);
        await expectNoToast(page);
        await list.getByRole("button", { name: "Close photo list" }).click();
        await expect.poll(() => list.count()).toBe(0);
      }
      await closePage(page);
    }, 60_000);

    it(`${label}: the camera window's Close camera button closes it and stops the camera (product.md §2)`, async () => {
      const { page } = await pictureChat(viewport);
      await page.evaluate(() => {
        const streams: MediaStream[] = [];
        (window as unknown as { __streams: MediaStream[] }).__streams = streams;
        const original = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
        navigator.mediaDevices.getUserMedia = async (constraints) => {
          const stream = await original(constraints);
          streams.push(stream);
          return stream;
        };
      });
      await openRequestMenu(page);
      await page.getByRole("menuitem", { name: "Camera" }).click();
      const camera = page.getByRole("dialog", { name: "Camera" });
      await camera.waitFor();
      await expect
        .poll(() => camera.getByRole("button", { name: "Capture" }).isEnabled(), { timeout: 15_000 })
        .toBe(true);
      await camera.getByRole("button", { name: "Close camera" }).click();
      await expect.poll(() => camera.isVisible()).toBe(false);
      expect(await page.getByRole("figure", { name: "Photo to send" }).count()).toBe(0);
      await expect
        .poll(() =>
          page.evaluate(() =>
            (window as unknown as { __streams: MediaStream[] }).__streams.flatMap((stream) =>
              stream.getTracks().map((track) => track.readyState),
            ),
          ),
        )
        .toEqual(["ended"]);
      await closePage(page);
    }, 60_000);

    it(`${label}: the attachment input accepts .jpg, .jpeg and .png (product.md §5)`, async () => {
      const { page } = await pictureChat(viewport);
      const input = page.locator('input[type="file"][aria-label="Attach"]');
      expect(await input.getAttribute("accept")).toBe(".jpg,.jpeg,.png");
      expect(PHOTO_ACCEPT).toBe(".jpg,.jpeg,.png");
      await closePage(page);
    }, 60_000);

    it(`${label}: the emoji picker says 'Your browser does not support color emoji.' only when emoji draw grey (product.md §5, 8)`, async () => {
      const { page } = await pictureChat(viewport);
      const picker = page.getByRole("dialog", { name: "Emoji picker" });
      const note = picker.getByText(chatTexts.noColorEmoji, { exact: true });
      expect(chatTexts.noColorEmoji).toBe("Your browser does not support color emoji.");
      /** Makes every canvas read back one colour: grey (no colour emoji) or red (colour emoji). */
      const paint = (colour: [number, number, number]) =>
        page.evaluate((rgb) => {
          CanvasRenderingContext2D.prototype.getImageData = (_x, _y, width, height) => {
            const data = new ImageData(width, height);
            for (let i = 0; i < data.data.length; i += 4) data.data.set([...rgb, 255], i);
            return data;
          };
        }, colour);
      const toggle = async () => {
        await page.getByRole("button", { name: "Emoji" }).click();
        await picker.waitFor();
      };

      await paint([128, 128, 128]);
      await toggle();
      await note.waitFor();
      await page.keyboard.press("Escape");
      await expect.poll(() => picker.count()).toBe(0);

      await paint([220, 40, 40]);
      await toggle();
      await picker
        .getByRole("searchbox")
        .or(picker.getByRole("textbox"))
        .first()
        .waitFor({ timeout: 15_000 });
      expect(await note.count()).toBe(0);
      await closePage(page);
    }, 60_000);

    it(`${label}: scrolls to the bottom 100 ms after a new message and 300 ms after the box gains focus (product.md §9)`, async () => {
      const { page } = await pictureChat(viewport);
      const log = page.getByRole("log", { name: "Messages" });
      const box = page.getByRole("textbox", { name: "Type a message" });
      const hold = holdRoute("abort");
      await page.route("**/api/chat/message", hold.handler);
      const atBottom = () =>
        log.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight < 2);
      /** Makes the list's content taller without React knowing (as a late image would). */
      const grow = () =>
        log.evaluate((element) => {
          const last = element.lastElementChild as HTMLElement;
          const padding = Number.parseFloat(getComputedStyle(last).paddingBottom) || 0;
          last.style.paddingBottom = `${padding + 1500}px`;
        });
      await expect.poll(atBottom).toBe(true);
      await box.evaluate((element) => (element as HTMLElement).blur());

      await page.clock.install();
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
      // Let what was already under way settle first: timers started before the clock was
      // installed (real ones) and a greeting still revealing its parts 1 s apart (fake ones).
      await page.waitForTimeout(300);
      await page.clock.runFor(10_000);
      await expect.poll(atBottom).toBe(true);
      // Focus: the list follows 300 ms later (by the page's paused clock).
      await grow();
      expect(await atBottom()).toBe(false);
      await box.focus();
      await page.clock.runFor(299);
      await page.waitForTimeout(100);
      expect(await atBottom()).toBe(false);
      await page.clock.runFor(1);
      await expect.poll(atBottom).toBe(true);

      // The focus scroll's own follow-up (a 0 ms timer) runs 1 ms later: let it pass first.
      await page.clock.runFor(50);

      // A new message: scrolled at its next frame (before it paints), then again 100 ms later
      // (content that grew meanwhile).
      await box.fill("scroll check");
      await box.press("Enter");
      await log.getByRole("article", { name: "Your message" }).filter({ hasText: "scroll check" }).waitFor();
      await log.getByRole("status", { name: chatTexts.typing }).waitFor();
      await expect.poll(hold.held, { timeout: 10_000 }).toBe(1);
      await grow();
      expect(await atBottom()).toBe(false);
      // A scroll event that did not move the view (Chromium sends one when a new bubble has made
      // the list taller, before the next frame follows it) must not stop the following.
      await log.evaluate((element) => element.dispatchEvent(new Event("scroll")));
      await page.clock.runFor(20);
      await expect.poll(atBottom).toBe(true);
      await grow();
      expect(await atBottom()).toBe(false);
      await page.clock.runFor(79);
      await page.waitForTimeout(100);
      expect(await atBottom()).toBe(false);
      await page.clock.runFor(1);
      await expect.poll(atBottom).toBe(true);
      await page.clock.resume();
      hold.release();
      await closePage(page);
    }, 60_000);

    it(`${label}: a history page that fails only clears its loading state: no toast, logged (product.md §8)`, async () => {
      const { page, session } = await pictureChat(viewport);
      const errors = appErrors(page);
      const info: ChatProfileInfo = {
        userPicture: "",
        userName: session.user.userName,
        name: session.user.name,
        characters: [{ gId: "", id: "p1", sex: "0", photo: "", name: "Paging Pia", greeting: "", voice: "" }],
      };
      const entry = (index: number): ChatHistoryEntry => ({
        chatHistoryUUID: `p${index}`,
        characterUUID: "p1",
        chatHistoryMessage: `question ${index}`,
        chatHistoryMessageImage: "",
        chatHistorySendTime: new Date(Date.UTC(2024, 0, 1, 10, index)).toISOString(),
        chatHistoryReplyMessage: `answer ${index}`,
        chatHistoryReplyImage: "",
        chatHistoryReplyAudioUrl: "",
        chatHistoryReplyTime: new Date(Date.UTC(2024, 0, 1, 10, index)).toISOString(),
        chatHistoryImageLoading: 0,
      });
      let release: () => void = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      const offsets: number[] = [];
      await page.route(
        (url) => url.pathname === "/api/chat/profile/",
        (route) => json(route, 200, { success: 1, message: "ok", info }),
      );
      await page.route(
        (url) => url.pathname === "/api/chat/history/paginated",
        async (route) => {
          const offset = Number(new URL(route.request().url()).searchParams.get("offset"));
          offsets.push(offset);
          if (offset === 0) {
            const data = Array.from({ length: 10 }, (_unused, i) => entry(10 + i));
            return json(route, 200, { success: 1, message: "ok", data });
          }
          await released;
          // Refused with a message: only an envelope could ever be shown as a toast.
          return json(route, 200, { success: 0, message: "History is not available." });
        },
      );
      await page.goto(`${suite.url}/character-select/p1`);
      await page.waitForURL("**/chat");
      const log = page.getByRole("log", { name: "Messages" });
      await log.getByText("answer 19").waitFor();
      // To the top (again, should the list's own follow-the-bottom scroll land after ours).
      await expect
        .poll(
          async () => {
            await log.evaluate((element) => {
              element.scrollTop = 0;
            });
            return offsets.includes(10);
          },
          { timeout: 15_000 },
        )
        .toBe(true);
      const earlier = log.getByRole("status", { name: chatTexts.loadingEarlier });
      await earlier.waitFor({ timeout: 15_000 });
      release();
      await expect.poll(() => earlier.count(), { timeout: 15_000 }).toBe(0);
      await expect.poll(() => errors.length, { timeout: 10_000 }).toBeGreaterThan(0);
      await expectNoToast(page);
      // What was loaded stays.
      await log.getByText("question 10", { exact: true }).waitFor();
      expect(await log.getByText("answer 19").count()).toBe(1);
      await closePage(page);
    }, 60_000);

    it(`${label}: chat data (profile, characters) that fails to load shows no toast and is logged (product.md §8)`, async () => {
      const { page, character } = await pictureChat(viewport);
      const errors = appErrors(page);
      // Each call fails alone (the characters are asked for once the profile has come), with
      // no answer and refused with a message.
      const cases = ["/api/chat/profile/", "/api/characters/list/chat"].flatMap((path) =>
        (["abort", "refused"] as const).map((answer) => ({ path, answer })),
      );
      for (const { path, answer } of cases) {
        let failed = 0;
        const match = (url: URL) => url.pathname === path;
        await page.route(match, (route) => {
          failed += 1;
          return answer === "abort"
            ? route.abort("failed")
            : json(route, 200, { success: 0, message: "Not available right now." });
        });
        const logged = errors.length;
        await page.goto(`${suite.url}/character-select/${character.characterUUID}`);
        await expect.poll(() => failed, { timeout: 15_000 }).toBeGreaterThan(0);
        await expect.poll(() => errors.length, { timeout: 10_000 }).toBeGreaterThan(logged);
        await expectNoToast(page);
        await page.unroute(match);
      }
      await closePage(page);
    }, 90_000);

    it(`${label}: a New Chat or Start Group that fails (no answer, or refused) shows no toast and is logged (product.md §8)`, async () => {
      const { page } = await pictureChat(viewport);
      const errors = appErrors(page);
      const log = page.getByRole("log", { name: "Messages" });
      const before = await log.getByRole("article").count();
      for (const answer of ["abort", "refused"] as const) {
        await page.unroute("**/api/chat/new**");
        await page.route("**/api/chat/new**", (route) =>
          answer === "abort"
            ? route.abort("failed")
            : json(route, 200, { success: 0, message: "Could not start a new chat." }),
        );
        const logged = errors.length;
        await page.getByRole("button", { name: "Chat menu" }).click();
        await page.getByRole("button", { name: "New Chat" }).click();
        await page.getByRole("dialog").getByRole("button", { name: "Yes, start new!" }).click();
        await expect.poll(() => errors.length, { timeout: 10_000 }).toBeGreaterThan(logged);
        await expectNoToast(page);
        expect(new URL(page.url()).pathname).toBe("/chat");
        expect(await log.getByRole("article").count()).toBe(before);
      }
      // Start Group (GET /chat/group/new) follows the same rule.
      for (const answer of ["abort", "refused"] as const) {
        await page.unroute("**/api/chat/group/new**");
        await page.route("**/api/chat/group/new**", (route) =>
          answer === "abort"
            ? route.abort("failed")
            : json(route, 200, { success: 0, message: "Could not start a group." }),
        );
        const logged = errors.length;
        await page.getByRole("button", { name: "Chat menu" }).click();
        await page.getByRole("button", { name: "Start Group" }).click();
        await expect.poll(() => errors.length, { timeout: 10_000 }).toBeGreaterThan(logged);
        await expectNoToast(page);
        expect(new URL(page.url()).pathname).toBe("/chat");
        await page.keyboard.press("Escape");
      }
      await closePage(page);
    }, 90_000);
  }

  /** A group of the user's first character (GET /chat/group/new), opened in the browser. */
  async function groupChat(viewport: { width: number; height: number }) {
    const { page, session } = await signedInPage(suite.browser, suite.url, viewport);
    const all = await ensureCharacters(page, 3);
    const [first, second] = all;
    if (!first || !second) throw new Error("characters missing");
    const started = await callApi<{ success: number; page: string }>(
      page,
      "GET",
      `/api/chat/group/new?cId=${first.characterUUID}`,
    );
    expect(started.success).toBe(1);
    await page.goto(`${suite.url}${started.page}`);
    await page.waitForURL("**/chat");
    await page.getByRole("log", { name: "Messages" }).waitFor();
    const sidebar = page.getByRole("complementary", { name: "Chat sidebar" });
    if (viewport === PHONE) await page.getByRole("button", { name: "Toggle sidebar" }).click();
    return { page, session, first, second, sidebar };
  }

  for (const [label, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    it(`${label}: adding or removing a member: a refusal is shown as a warning, a transport failure or server error only logged (product.md §8, README)`, async () => {
      const { page, second, sidebar } = await groupChat(viewport);
      const errors = appErrors(page);
      const add = sidebar.getByRole("button", { name: `Add ${second.characterName} to the group` });
      await add.waitFor();
      const answers: Array<(route: Route) => Promise<void>> = [
        (route) => route.abort("failed"),
        (route) => json(route, 500, { success: 0, message: "Internal server error." }),
        (route) => route.fulfill({ status: 502, contentType: "text/html", body: "<h1>Bad gateway</h1>" }),
      ];
      for (const answer of answers) {
        await page.unroute("**/api/chat/group/member/add**");
        await page.route("**/api/chat/group/member/add**", answer);
        const logged = errors.length;
        await add.click();
        await expect.poll(() => errors.length, { timeout: 10_000 }).toBeGreaterThan(logged);
        await expectNoToast(page);
      }
      // A refusal the user can act on (the group is full) is shown.
      await page.unroute("**/api/chat/group/member/add**");
      await page.route("**/api/chat/group/member/add**", (route) =>
        json(route, 403, { success: 0, message: "A group chat holds at most 4 members." }),
      );
      await add.click();
      await expectWarning(page, "A group chat holds at most 4 members.", label);
      // Without the routes the real call adds the member.
      await page.unroute("**/api/chat/group/member/add**");
      await add.click();
      // (On a phone the drawer closes as the group opens again: the button is there, hidden.)
      await page
        .getByRole("button", { name: `Remove ${second.characterName} from the group`, includeHidden: true })
        .waitFor({ state: "attached" });

      // Removing: the same rules.
      if (label === "phone") await page.getByRole("button", { name: "Toggle sidebar" }).click();
      const remove = sidebar.getByRole("button", { name: `Remove ${second.characterName} from the group` });
      await remove.waitFor();
      await page.route("**/api/chat/group/member/remove**", (route) => route.abort("failed"));
      const logged = errors.length;
      await remove.click();
      await expect.poll(() => errors.length, { timeout: 10_000 }).toBeGreaterThan(logged);
      await expectNoToast(page);
      await page.unroute("**/api/chat/group/member/remove**");
      await page.route("**/api/chat/group/member/remove**", (route) =>
        json(route, 404, { success: 0, message: "Character not found." }),
      );
      await remove.click();
      await expectWarning(page, "Character not found.", label);
      await closePage(page);
    }, 90_000);

    it(`${label}: a group member's reply that fails shows 'Failed to reply.' (product.md §8)`, async () => {
      const { page } = await groupChat(viewport);
      if (viewport === PHONE) await page.getByRole("button", { name: "Close sidebar" }).click();
      await page.route("**/api/chat/group/reply**", (route) => route.abort("failed"));
      const box = page.getByRole("textbox", { name: "Type a message" });
      await box.fill("anyone there?");
      await box.press("Enter");
      expect(chatTexts.failedToReply).toBe("Failed to reply.");
      await expectWarning(page, "Failed to reply.", label);
      const mine = page
        .getByRole("log", { name: "Messages" })
        .getByRole("article", { name: "Your message" })
        .filter({ hasText: "anyone there?" });
      await mine.getByText("Failed").first().waitFor();
      await closePage(page);
    }, 60_000);
  }

  it("a landscape request asks for type 2 and draws the landscape size; the menu offers the 10 captions (product.md §9)", async () => {
    if (double === undefined) throw new Error("no image double");
    const { page, character } = await pictureChat(DESKTOP);
    const drawnBefore = double.drawn.length;
    await openRequestMenu(page);
    const menu = page.getByRole("menu", { name: "Photos" });
    const names = (await menu.getByRole("menuitem").allTextContents()).map((text) => text.trim());
    const captions = names.slice(names.indexOf("Send a photo of..") + 1);
    expect(captions).toEqual(PHOTO_CAPTIONS.map((caption) => caption.text));
    expect(captions).toHaveLength(10);
    await menu.getByText("Ideas", { exact: true }).waitFor();

    const request = page.waitForRequest((sent) => sent.url().endsWith("/api/chat/request-photo"));
    await menu.getByRole("menuitem", { name: "Send a landscape photo" }).click();
    const form = (await request).postData() ?? "";
    expect(form).toMatch(new RegExp(`name="type"\\r\\n\\r\\n${PHOTO_TYPE_LANDSCAPE}\\r\\n`));
    const reply = page
      .getByRole("log", { name: "Messages" })
      .getByRole("article", { name: `Reply from ${character.characterName}` })
      .last();
    const picture = reply.getByRole("img", { name: "Picture" });
    await picture.waitFor({ timeout: 30_000 });
    expect(double.drawn.slice(drawnBefore)[0]).toMatchObject({ width: 512, height: 384 });
    await expect
      .poll(() => picture.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight]), {
        timeout: 10_000,
      })
      .toEqual([512, 384]);
    await closePage(page);
  }, 90_000);
});
