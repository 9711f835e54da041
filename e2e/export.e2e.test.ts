import { readFile } from "node:fs/promises";
import { strFromU8, unzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { closePage, hasChromium } from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * "Take my data" in Chromium against the real server, on a phone and a desktop: the
 * profile's "Download my data" starts the export, shows that it is being prepared, then the
 * download button and when the link expires; the downloaded file is a ZIP that opens, with the
 * account, the user's character as a card and a chat file.
 */

if (!hasChromium) console.warn("export e2e skipped: no Chromium found (set CHROMIUM_PATH)");

const TIMEOUT = 120_000;
const PHONE = { width: 375, height: 812 };
const DESKTOP = { width: 1280, height: 800 };

describe.skipIf(!hasChromium)("download my data in Chromium", () => {
  const suite = useBrowserSuite({ env: { LLM_PROVIDER: "none" } });

  for (const [name, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    it(
      `${name}: starts the export, waits for the link and downloads a ZIP that opens`,
      async () => {
        const email = `export-${name}@example.com`;
        const session = await suite.member(email, "export password 1");
        // A character of the user's own (from the first preset) and its greeting chat.
        const auth = { authorization: `Bearer ${session.token}` };
        const presets = (await (
          await fetch(`${suite.url}/api/characters/selection`, { headers: auth })
        ).json()) as {
          data: Array<{ characterPreDefinedUUID: string }>;
        };
        const created = await fetch(`${suite.url}/api/characters/create-preselect`, {
          method: "POST",
          headers: auth,
          body: new URLSearchParams({ id: presets.data[0]!.characterPreDefinedUUID }),
        });
        expect(created.status).toBe(200);
        const characterId = ((await created.json()) as { data: { characterUUID: string } }).data
          .characterUUID;
        // Opening the chat writes the character's greeting (the chat the ZIP then holds).
        for (const path of ["/api/chat/profile/", "/api/chat/history"])
          expect((await fetch(`${suite.url}${path}?id=${characterId}`, { headers: auth })).status).toBe(200);

        const page = await suite.openSignedIn(session, "/user/profile", {
          context: { viewport, acceptDownloads: true },
        });
        const panel = page.getByRole("region", { name: "Download my data" });
        await panel.getByRole("heading", { name: "Download my data" }).waitFor();
        expect(await panel.textContent()).toContain("SillyTavern");
        // The panel fits the screen (no sideways scrolling on a phone).
        const box = await panel.boundingBox();
        expect(box).not.toBeNull();
        expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);

        await panel.getByRole("button", { name: "Download my data" }).click();
        const downloadButton = panel.getByRole("button", { name: "Download the ZIP" });
        await downloadButton.waitFor({ timeout: 30_000 });
        expect(await panel.textContent()).toMatch(/Your data is ready \(.+\)\. The link works until .+\./);
        if (process.env.EXPORT_SCREENSHOTS) {
          await panel.scrollIntoViewIfNeeded();
          await page.screenshot({ path: `/tmp/export-${name}-panel.png` });
        }

        const download = page.waitForEvent("download");
        await downloadButton.click();
        const file = await download;
        expect(file.suggestedFilename()).toMatch(/^my-data-\d{4}-\d\d-\d\d\.zip$/);
        const bytes = await readFile((await file.path())!);
        const files = unzipSync(new Uint8Array(bytes));
        const names = Object.keys(files);
        expect(JSON.parse(strFromU8(files["account.json"]!)).user.email).toBe(email);
        const cards = names.filter((n) => n.startsWith("characters/") && n.endsWith(".png"));
        expect(cards).toHaveLength(1);
        expect(names.some((n) => n.startsWith("chats/") && n.endsWith(".jsonl"))).toBe(true);
        await closePage(page);
      },
      TIMEOUT,
    );
  }
});
