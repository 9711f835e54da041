import type { Route } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { ModelDownloadProgress } from "../common/api";
import { DESKTOP, ensureCharacters, openChat, PHONE, signedInPage } from "./chat.helpers";
import { closePage, hasChromium, json } from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * No model yet / offline / downloading: the chat shows a visible banner (with the
 * download's progress while it runs) , in Chromium. The model cannot be downloaded here (no
 * internet), so the page's GET /api/chat/capabilities is intercepted: the server's own answer
 * with the chat off and `modelDownload` set the way the server adds it while it downloads. The
 * banner then shows a progress bar named "Language model download" and the percent as text, and
 * follows the progress as the chat screen asks again (every 5 s while the chat is off).
 */

if (!hasChromium) console.warn("model-progress e2e skipped: no Chromium found (set CHROMIUM_PATH)");

const TIMEOUT = 90_000;
const DOWNLOADING = "The default language model is being downloaded; please try again in a few minutes.";

describe.skipIf(!hasChromium)("the chat banner shows the model download's progress", () => {
  const suite = useBrowserSuite({ env: { LLM_PROVIDER: "none" } });

  for (const [label, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    it(
      `${label}: a named progress bar with the percent, updated as the download goes on, gone when it ends`,
      async () => {
        const { page } = await signedInPage(suite.browser, suite.url, viewport);
        let download: ModelDownloadProgress | undefined = { doneBytes: 420, totalBytes: 1_000, percent: 42 };
        await page.route("**/api/chat/capabilities*", async (route: Route) => {
          const answer = await route.fetch();
          const body = (await answer.json()) as { data: Record<string, unknown> };
          body.data.chat = { enabled: false, reason: DOWNLOADING };
          if (download) body.data.modelDownload = download;
          await json(route, answer.status(), body);
        });
        const [character] = await ensureCharacters(page, 1);
        if (character === undefined) throw new Error("no character");
        await openChat(page, suite.url, character.characterUUID);

        const banner = page.locator(".chat-banner");
        /** The banner's text with runs of white space as one space (the bar has no text). */
        const bannerText = async () => ((await banner.textContent()) ?? "").replace(/\s+/g, " ").trim();
        const bar = page.getByRole("progressbar", { name: "Language model download" });
        await bar.waitFor();
        expect(await banner.getAttribute("role")).toBe("status");
        expect(await bannerText()).toBe(`${DOWNLOADING} 42%`);
        expect(await bar.getAttribute("value")).toBe("42");
        expect(await bar.getAttribute("max")).toBe("100");
        expect((await bar.boundingBox())?.width ?? 0).toBeGreaterThan(20);
        await page.screenshot({ path: `test-results/model-progress-${label}.png` });

        // The screen asks again while the chat is off: the bar follows.
        download = { doneBytes: 730, totalBytes: 1_000, percent: 73 };
        await expect.poll(bannerText, { timeout: 30_000 }).toBe(`${DOWNLOADING} 73%`);
        expect(await bar.getAttribute("value")).toBe("73");

        // The download is over (the model loads): the reason stays, the bar goes.
        download = undefined;
        await expect.poll(() => bar.count(), { timeout: 30_000 }).toBe(0);
        expect(await bannerText()).toBe(DOWNLOADING);
        await closePage(page);
      },
      TIMEOUT,
    );
  }
});
