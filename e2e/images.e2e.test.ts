import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PhotoHistoryEntry } from "../common/api";
import { type ImageDouble, startImageDouble } from "../server/testing/image-servers";
import { callApi, DESKTOP, ensureCharacters, openChat, signedInPage } from "./chat.helpers";
import { closePage, demoSession, hasChromium, openPage, storeSession, toastWith } from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * Pictures and photos on the chat screen against the real server, an AUTOMATIC1111
 * double that draws real PNGs, and Chromium's fake camera: a portrait request shows the spinner,
 * then the picture; the Photo List shows it and its gallery zooms from 1 to 2; a real JPEG goes
 * through Attach (with Remove) and a captured frame through the Camera; the failure texts of
 * product.md §8; and no request menu for a plan without pictures.
 */

describe.skipIf(!hasChromium)("pictures and photos in Chromium", () => {
  let double: ImageDouble | undefined;
  const jpegPath = path.join(os.tmpdir(), `img-e2e-${process.pid}.jpg`);

  beforeAll(async () => {
    double = await startImageDouble("automatic1111", { hold: true });
    fs.writeFileSync(
      jpegPath,
      await sharp({ create: { width: 800, height: 600, channels: 3, background: { r: 30, g: 140, b: 200 } } })
        .jpeg()
        .toBuffer(),
    );
  }, 120_000);

  afterAll(async () => {
    await double?.close();
    fs.rmSync(jpegPath, { force: true });
  });

  const suite = useBrowserSuite({
    env: () => ({
      IMAGE_PROVIDER: "automatic1111",
      IMAGE_BASE_URL: double?.baseUrl ?? "",
      IMAGE_PORTRAIT_SIZE: "384x512",
      IMAGE_LANDSCAPE_SIZE: "512x384",
      // picture replies are spoken like any reply.
      TTS_PROVIDER: "espeak",
    }),
    browserArgs: ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"],
  });

  const ctx = () => {
    if (double === undefined) throw new Error("setup failed");
    return { server: suite.server, browser: suite.browser, double, url: suite.url };
  };

  /** A demo user whose plan has il = '1', in the chat of their first character. */
  async function pictureChat(): Promise<{ page: Page; userId: string; characterId: string; name: string }> {
    const { server, browser, url } = ctx();
    const { page, session } = await signedInPage(browser, url, DESKTOP);
    await server.db
      .updateTable("users")
      .set({ image_generation: 1 })
      .where("id", "=", session.user.id)
      .execute();
    const [character] = await ensureCharacters(page, 1);
    if (character === undefined) throw new Error("no character");
    await page.context().grantPermissions(["camera"], { origin: url });
    await openChat(page, url, character.characterUUID);
    return {
      page,
      userId: session.user.id,
      characterId: character.characterUUID,
      name: character.characterName,
    };
  }

  const openRequestMenu = async (page: Page) => {
    await page.getByRole("button", { name: "Photos" }).click();
    await page.getByRole("menu", { name: "Photos" }).waitFor();
  };

  it("a portrait request: spinner, then the picture; the Photo List shows it and the gallery zooms 1 → 2", async () => {
    const { double } = ctx();
    const { page, characterId, name } = await pictureChat();
    const log = page.getByRole("log", { name: "Messages" });
    await openRequestMenu(page);
    // The menu offers the spec's entries and the 10 canned captions.
    for (const entry of [
      "Attach",
      "Camera",
      "Send a portrait photo",
      "Send a landscape photo",
      "Send a photo of..",
      "Watching the sunset",
    ]) {
      await page.getByRole("menuitem", { name: entry }).waitFor();
    }
    await page.getByRole("menuitem", { name: "Send a portrait photo" }).click();
    await log
      .getByRole("article", { name: "Your message" })
      .filter({ hasText: "Send a portrait photo" })
      .waitFor();
    const reply = log.getByRole("article", { name: `Reply from ${name}` }).last();
    await reply.getByRole("status", { name: "Loading picture" }).waitFor({ timeout: 15_000 });
    const headerStatus = page.getByRole("banner").locator(".chat-header__status");
    await expect.poll(() => headerStatus.textContent()).toBe("downloading...");
    await page.screenshot({ path: "test-results/images-spinner.png" });
    await double.received(1);
    expect(double.drawn[0]).toMatchObject({ width: 384, height: 512 });
    double.release();
    const picture = reply.getByRole("img", { name: "Picture" });
    await picture.waitFor({ timeout: 20_000 });
    await expect
      .poll(() => picture.evaluate((img: HTMLImageElement) => img.naturalWidth), { timeout: 10_000 })
      .toBe(384);
    expect(await reply.getByRole("status", { name: "Loading picture" }).count()).toBe(0);
    await expect.poll(() => headerStatus.textContent()).toBe("online");
    const src = (await picture.getAttribute("src")) ?? "";
    expect(src).toMatch(new RegExp(`^/content/${characterId}/[0-9a-f-]{36}\\.jpg$`));
    // the picture reply's words are spoken like any reply's (request-photo audioUrl).
    await reply
      .getByRole("button", { name: new RegExp(`^(Play|Stop) ${name}'s reply$`) })
      .waitFor({ timeout: 20_000 });

    // The picture is this user's: their browser loads it, another user's browser gets 404.
    expect((await page.request.get(`${ctx().url}${src}`)).status()).toBe(200);
    const { page: stranger } = await signedInPage(ctx().browser, ctx().url, DESKTOP);
    await callApi(stranger, "GET", "/api/chat/capabilities");
    expect((await stranger.request.get(`${ctx().url}${src}`)).status()).toBe(404);
    await closePage(stranger);

    await page.getByRole("button", { name: "Photo List" }).click();
    const list = page.getByRole("complementary", { name: "Photo List" });
    await list.getByRole("button", { name: "Open photo 1" }).click();
    const gallery = page.getByRole("dialog", { name: "Photo gallery" });
    const image = gallery.getByRole("img", { name: "Photo 1 of 1" });
    await image.waitFor();
    expect(await image.getAttribute("src")).toBe(src);
    expect(await image.getAttribute("data-scale")).toBe("1");
    expect(await gallery.getByRole("button", { name: "Zoom out" }).isDisabled()).toBe(true);
    await gallery.getByRole("button", { name: "Zoom in" }).click();
    await gallery.getByRole("button", { name: "Zoom in" }).click();
    expect(await image.getAttribute("data-scale")).toBe("2");
    expect(await gallery.getByRole("button", { name: "Zoom in" }).isDisabled()).toBe(true);
    await expect
      .poll(() => image.evaluate((img) => getComputedStyle(img).transform))
      .toBe("matrix(2, 0, 0, 2, 0, 0)");
    await page.screenshot({ path: "test-results/images-gallery-zoomed.png" });
    await gallery.getByRole("button", { name: "Close" }).click();
    await expect.poll(() => gallery.count()).toBe(0);
    await closePage(page);
  }, 90_000);

  it("a real JPEG through Attach (Remove, then send) and a frame from the fake camera", async () => {
    const { server } = ctx();
    const { page, userId, characterId, name } = await pictureChat();
    const log = page.getByRole("log", { name: "Messages" });
    const preview = page.getByRole("figure", { name: "Photo to send" });

    const attach = async () => {
      await openRequestMenu(page);
      const chooser = page.waitForEvent("filechooser");
      await page.getByRole("menuitem", { name: "Attach" }).click();
      await (await chooser).setFiles(jpegPath);
      await preview.waitFor();
    };
    await attach();
    // A chosen photo forces the send button, even with an empty box (product.md §4).
    await page.getByRole("button", { name: "Send" }).waitFor();
    await preview.getByRole("button", { name: "Remove" }).click();
    await expect.poll(() => preview.count()).toBe(0);
    expect(await page.getByRole("button", { name: "Send" }).count()).toBe(0);
    await attach();
    await page.getByRole("textbox", { name: "Type a message" }).fill("my blue wall");
    await page.getByRole("button", { name: "Send" }).click();
    const mine = log.getByRole("article", { name: "Your message" }).filter({ hasText: "my blue wall" });
    await mine.getByRole("img", { name: "Your photo" }).waitFor();
    await expect.poll(() => preview.count()).toBe(0);
    // The character answers (the tiny model; no vision model here) and the photo is stored.
    await expect
      .poll(() => log.getByRole("article", { name: `Reply from ${name}` }).count(), { timeout: 30_000 })
      .toBeGreaterThan(1);
    await expect
      .poll(async () => (await mine.getByRole("img", { name: "Your photo" }).getAttribute("src")) ?? "", {
        timeout: 15_000,
      })
      .toMatch(new RegExp(`^/content/${characterId}/user_photo/[0-9a-f-]{36}\\.jpg$`));

    // The camera: front camera first, rotate, capture, then the preview is sent.
    await page.evaluate(() => {
      const calls: MediaStreamConstraints[] = [];
      (window as unknown as { __camera: MediaStreamConstraints[] }).__camera = calls;
      const original = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
      navigator.mediaDevices.getUserMedia = (constraints) => {
        calls.push(JSON.parse(JSON.stringify(constraints ?? {})) as MediaStreamConstraints);
        return original(constraints);
      };
    });
    await openRequestMenu(page);
    await page.getByRole("menuitem", { name: "Camera" }).click();
    const camera = page.getByRole("dialog", { name: "Camera" });
    await camera.waitFor();
    const capture = camera.getByRole("button", { name: "Capture" });
    await expect.poll(() => capture.isEnabled(), { timeout: 15_000 }).toBe(true);
    await camera.getByRole("button", { name: "Rotate camera" }).click();
    await expect.poll(() => capture.isEnabled(), { timeout: 15_000 }).toBe(true);
    await page.screenshot({ path: "test-results/images-camera.png" });
    // product.md §9: 1280x720, 'user' first, then 'environment'.
    const asked = await page.evaluate(
      () => (window as unknown as { __camera: MediaStreamConstraints[] }).__camera,
    );
    expect(asked.map((c) => c.video)).toEqual([
      { width: { ideal: 1280 }, height: { ideal: 720 }, facingMode: "user" },
      { width: { ideal: 1280 }, height: { ideal: 720 }, facingMode: "environment" },
    ]);
    await capture.click();
    await expect.poll(() => camera.count()).toBe(0);
    await preview.waitFor();
    await page.getByRole("button", { name: "Send" }).click();
    await expect
      .poll(() => log.getByRole("img", { name: "Your photo" }).count(), { timeout: 15_000 })
      .toBe(2);

    const storedPhotos = async () => {
      const photos = await callApi<{ data: PhotoHistoryEntry[] }>(
        page,
        "GET",
        `/api/chat/history/photos?id=${characterId}&uId=${userId}`,
      );
      return photos.data.map((p) => p.chatHistoryMessageImage).filter(Boolean);
    };
    await expect.poll(async () => (await storedPhotos()).length, { timeout: 15_000 }).toBe(2);
    const files = await storedPhotos();
    for (const file of files) {
      const served = await page.request.get(`${server.url}/content/${characterId}/user_photo/${file}`);
      expect(served.status()).toBe(200);
      const meta = await sharp(await served.body()).metadata();
      expect(meta.format).toBe("jpeg");
    }
    await closePage(page);
  }, 120_000);

  it("product.md §8 failure texts: 'Failed to send photo.', the placeholder and the 'Failed' mark, 'Failed to capture photo.'", async () => {
    const { page } = await pictureChat();
    const log = page.getByRole("log", { name: "Messages" });
    await page.route("**/api/chat/photo-process", (route) => route.abort("connectionfailed"));
    await openRequestMenu(page);
    const chooser = page.waitForEvent("filechooser");
    await page.getByRole("menuitem", { name: "Attach" }).click();
    await (await chooser).setFiles(jpegPath);
    await page.getByRole("button", { name: "Send" }).click();
    await toastWith(page, "Failed to send photo.").waitFor();
    const failed = log.getByRole("article", { name: "Your message" }).filter({
      hasText: "Photo upload failed. Please check and try again.",
    });
    await failed.getByText("Failed", { exact: true }).waitFor();
    // Retry sends the same photo once the network is back.
    await page.unroute("**/api/chat/photo-process");
    await failed.getByRole("button", { name: "Retry" }).click();
    await log
      .getByRole("article", { name: "Your message" })
      .getByRole("img", { name: "Your photo" })
      .waitFor();
    await expect
      .poll(() => log.getByText("Photo upload failed. Please check and try again.").count(), {
        timeout: 15_000,
      })
      .toBe(0);

    // A camera that cannot start.
    await page.evaluate(() => {
      navigator.mediaDevices.getUserMedia = () =>
        Promise.reject(new DOMException("denied", "NotAllowedError"));
    });
    await openRequestMenu(page);
    await page.getByRole("menuitem", { name: "Camera" }).click();
    await toastWith(page, "Failed to capture photo.").waitFor();
    await closePage(page);
  }, 60_000);

  it("no Camera on Apple devices (product.md §2)", async () => {
    const { server, browser, url } = ctx();
    const session = await demoSession(url);
    await server.db
      .updateTable("users")
      .set({ image_generation: 1 })
      .where("id", "=", session.user.id)
      .execute();
    const page = await openPage(browser, {
      viewport: DESKTOP,
      userAgent:
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15",
    });
    await page.goto(`${url}/maintenance`);
    await storeSession(page, session);
    const [character] = await ensureCharacters(page, 1);
    await openChat(page, url, character!.characterUUID);
    await openRequestMenu(page);
    await page.getByRole("menuitem", { name: "Attach" }).waitFor();
    expect(await page.getByRole("menuitem", { name: "Camera" }).count()).toBe(0);
    await closePage(page);
  }, 60_000);

  it("a plan without pictures gets no request menu and no Photo List button", async () => {
    const { browser, url } = ctx();
    const { page } = await signedInPage(browser, url, DESKTOP);
    const [character] = await ensureCharacters(page, 1);
    const capabilities = page.waitForResponse((r) => r.url().includes("/api/chat/capabilities"));
    await openChat(page, url, character!.characterUUID);
    const answer = (await (await capabilities).json()) as {
      data: { imageRequests: { enabled: boolean; reason: string } };
    };
    expect(answer.data.imageRequests).toEqual({
      enabled: false,
      reason: "Your plan does not include pictures. Premium Plus does.",
    });
    await page.getByRole("textbox", { name: "Type a message" }).waitFor();
    await page.getByRole("button", { name: "Chat menu" }).waitFor();
    expect(await page.getByRole("button", { name: "Photos" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Photo List" }).count()).toBe(0);
    await closePage(page);
  }, 60_000);
});
