import type { Locator, Page } from "playwright-core";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { CharacterListItem, Envelope, LoginData } from "../common/api";
import {
  closePage,
  demoSession,
  expectRed,
  expectToast,
  hasChromium,
  SIGNED_IN_WARNING,
  SUCCESS,
} from "./support/browser";
import { recordForms, sentForm } from "./support/forms";
import { useBrowserSuite } from "./support/suite";

/**
 * The character form in Chromium against the real server (product.md §2 "Character form"; product.md §4, 5,
 * 6, 8): the plan flags pl and il decide the photo and appearance fields; required fields turn
 * red on Save and while typing with the 'Oops...' modal; counters and limits; the voice preview
 * button and its toast; create, edit, cancel and a server refusal.
 */

if (!hasChromium) console.warn("character form e2e skipped: no Chromium found (set CHROMIUM_PATH)");

const NO_TTS = "Voices are not available yet: no text-to-speech engine is configured on this server.";
const TIMEOUT = 90_000;

/** A mono 16-bit PCM WAV of silence lasting `seconds`. */
function silentWav(seconds: number, sampleRate = 8000): Buffer {
  const samples = Math.round(seconds * sampleRate);
  const wav = Buffer.alloc(44 + samples * 2);
  wav.write("RIFF", 0, "latin1");
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write("WAVEfmt ", 8, "latin1");
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(sampleRate, 24);
  wav.writeUInt32LE(sampleRate * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write("data", 36, "latin1");
  wav.writeUInt32LE(samples * 2, 40);
  return wav;
}

const jpeg = (colour: string) =>
  sharp({ create: { width: 80, height: 80, channels: 3, background: colour } })
    .jpeg()
    .toBuffer();

describe.skipIf(!hasChromium)("character form in Chromium", () => {
  const suite = useBrowserSuite({ env: { LLM_PROVIDER: "none" } });

  const base = (): string => suite.url;

  const createRandom = async (session: LoginData): Promise<CharacterListItem> => {
    const answer = await fetch(`${base()}/api/characters/create-random`, {
      method: "POST",
      headers: { Authorization: `Bearer ${session.token}` },
    });
    const envelope = (await answer.json()) as Envelope<CharacterListItem>;
    if (envelope.success !== 1 || envelope.data === undefined) throw new Error(envelope.message);
    return envelope.data;
  };

  /** A member on a plan with photo upload and image generation, signed in after the change. */
  const flaggedMember = (email: string): Promise<LoginData> =>
    suite.member(email, "a long enough password", async (userId) => {
      await suite.server.db
        .updateTable("users")
        .set({ photo_upload: 1, image_generation: 1, character_limit: 5 })
        .where("id", "=", userId)
        .execute();
    });

  const field = (page: Page, label: string): Locator => page.getByLabel(label, { exact: true });
  const rowOf = (page: Page, name: string) => page.locator(".tab-panel tbody tr").filter({ hasText: name });
  /** Waits until the voice and language lists have loaded. */
  const listsLoaded = async (page: Page) => {
    await expect.poll(() => field(page, "Voice").locator("option").count()).toBeGreaterThan(1);
    await expect.poll(() => field(page, "Language").locator("option").count()).toBeGreaterThan(1);
  };

  it(
    "on the Free plan: no photo or appearance, required fields and the 'Oops...' modal, counters, voice preview, create, edit and a refusal",
    async () => {
      const session = await demoSession(base());
      expect(session.user).toMatchObject({ pl: "0", il: "0", cl: 3 });
      const page = await suite.openSignedIn(session, "/characters/add");
      await page.getByRole("heading", { name: "New Character" }).waitFor();
      await listsLoaded(page);
      expect(await field(page, "Photo").count()).toBe(0);
      expect(await field(page, "Appearance").count()).toBe(0);

      // Save with everything blank: the modal, and every required field red.
      await page.getByRole("button", { name: "Save" }).click();
      const modal = page.getByRole("dialog");
      await modal.getByRole("heading", { name: "Oops..." }).waitFor();
      await modal.getByText("Please fill in all required fields!").waitFor();
      await modal.getByRole("button", { name: "Close" }).click();
      await modal.waitFor({ state: "detached" });
      for (const label of ["Name", "Sex", "Voice", "Language", "Backstory"])
        await expectRed(field(page, label), true);
      await expectRed(field(page, "Greeting"), false);

      // Live: red goes away with text, comes back when emptied (spaces count as blank).
      await field(page, "Name").fill("Ava Test");
      await expectRed(field(page, "Name"), false);
      await field(page, "Name").fill("   ");
      await expectRed(field(page, "Name"), true);
      await field(page, "Name").fill("Ava Test");
      await expectRed(field(page, "Name"), false);

      await field(page, "Sex").selectOption({ label: "Female" });
      await expectRed(field(page, "Sex"), false);
      expect(await field(page, "Sex").locator("option").allTextContents()).toEqual([
        "Select sex",
        "Female",
        "Male",
      ]);
      await field(page, "Voice").selectOption({ label: "English Female" });
      await field(page, "Language").selectOption({ label: "English" });
      await expectRed(field(page, "Voice"), false);
      await expectRed(field(page, "Language"), false);

      // Counters and limits (product.md §9: backstory 2000, greeting 800).
      await field(page, "Backstory").fill("b".repeat(2100));
      expect((await field(page, "Backstory").inputValue()).length).toBe(2000);
      await page.getByText("2000/2000").waitFor();
      const backstory = "Ava restores old clocks in a tiny shop by the harbour and hums while she works.";
      await field(page, "Backstory").fill(backstory);
      await page.getByText(`${backstory.length}/2000`).waitFor();
      await expectRed(field(page, "Backstory"), false);
      await page.getByText("0/800").waitFor();
      await field(page, "Greeting").fill("g".repeat(900));
      await page.getByText("800/800").waitFor();
      await field(page, "Greeting").fill("Tick tock, hello!");
      await page.getByText("17/800").waitFor();

      // Voice preview: stop image while the request runs, the server's message, then play again.
      const isPreview = (url: URL) => url.pathname === "/api/characters/voice/preview/";
      await page.route(isPreview, async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 700));
        await route.continue();
      });
      const preview = page.waitForRequest((request) =>
        request.url().includes("/api/characters/voice/preview/"),
      );
      await page.getByRole("button", { name: "Play voice preview" }).click();
      expect(new URL((await preview).url()).searchParams.get("v")).toBe("English Female");
      await page.getByRole("button", { name: "Stop voice preview" }).waitFor();
      await expectToast(page, NO_TTS, SIGNED_IN_WARNING);
      await page.getByRole("button", { name: "Play voice preview" }).waitFor();
      await page.unroute(isPreview);

      // Save: the multipart body, the success toast top-right for 2 s, then the list.
      const english = await field(page, "Language").inputValue();
      await recordForms(page);
      const sent = page.waitForRequest((request) => request.url().endsWith("/api/characters/create"));
      await page.getByRole("button", { name: "Save" }).click();
      expect((await sent).headers()["content-type"]).toMatch(/^multipart\/form-data/);
      await expect
        .poll(() => sentForm(page, "/api/characters/create"))
        .toEqual({
          name: "Ava Test",
          sex: "0",
          voice: "English Female",
          language: english,
          description: backstory,
          greeting: "Tick tock, hello!",
          appearance: "",
        });
      await expectToast(page, "Ava Test has been created.", SUCCESS);
      await page.waitForURL("**/characters/list");
      await rowOf(page, "Ava Test").waitFor();

      // Edit: the form is filled from GET /characters/?id=, Cancel goes back, Save updates.
      await rowOf(page, "Ava Test").getByRole("link", { name: "Edit Ava Test" }).click();
      await page.waitForURL("**/characters/update");
      await page.getByRole("heading", { name: "Edit Character" }).waitFor();
      await expect.poll(() => field(page, "Name").inputValue()).toBe("Ava Test");
      await listsLoaded(page);
      expect(await field(page, "Sex").inputValue()).toBe("0");
      expect(await field(page, "Voice").inputValue()).toBe("English Female");
      expect(await field(page, "Language").locator("option:checked").textContent()).toBe("English");
      expect(await field(page, "Backstory").inputValue()).toBe(backstory);
      expect(await field(page, "Greeting").inputValue()).toBe("Tick tock, hello!");
      await page.getByRole("button", { name: "Cancel" }).click();
      await page.waitForURL("**/characters/list");

      await rowOf(page, "Ava Test").getByRole("link", { name: "Edit Ava Test" }).click();
      await expect.poll(() => field(page, "Name").inputValue()).toBe("Ava Test");
      await field(page, "Name").fill("");
      await expectRed(field(page, "Name"), true);
      await field(page, "Name").fill("Ava Edited");
      await field(page, "Sex").selectOption({ label: "Male" });
      await page.getByRole("button", { name: "Save" }).click();
      await expect
        .poll(() => sentForm(page, "/api/characters/update"))
        .toMatchObject({
          name: "Ava Edited",
          sex: "1",
          id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          old_photo: expect.stringMatching(/\.jpg$/),
        });
      await expectToast(page, "Ava Edited has been updated.", SUCCESS);
      await page.waitForURL("**/characters/list");
      await rowOf(page, "Ava Edited").waitFor();
      expect(await rowOf(page, "Ava Test").count()).toBe(0);

      // /characters/update without a character id goes back to the list.
      await page.goto(`${base()}/characters/update`);
      await page.waitForURL("**/characters/list");

      // A refusal by the server (the creation limit cl 3) is a warning toast; the form stays.
      await createRandom(session);
      await createRandom(session);
      await page.goto(`${base()}/characters/add`);
      await listsLoaded(page);
      await field(page, "Name").fill("One Too Many");
      await field(page, "Sex").selectOption("1");
      await field(page, "Voice").selectOption({ label: "English Male" });
      await field(page, "Language").selectOption({ label: "English" });
      await field(page, "Backstory").fill("Should not fit.");
      await page.getByRole("button", { name: "Save" }).click();
      await expectToast(
        page,
        "You have reached your limit of 3 characters. Upgrade your plan to create more.",
        SIGNED_IN_WARNING,
      );
      expect(new URL(page.url()).pathname).toBe("/characters/add");
      await closePage(page);
    },
    TIMEOUT,
  );

  it(
    "with pl and il '1': photo with preview, appearance with its limit, and the sample played to its end",
    async () => {
      const session = await flaggedMember("flags@example.com");
      expect(session.user).toMatchObject({ pl: "1", il: "1", cl: 5 });
      const page = await suite.openSignedIn(session, "/characters/add");
      await listsLoaded(page);
      const photo = field(page, "Photo");
      expect(await photo.getAttribute("accept")).toBe(".jpg,.jpeg,.png");
      await photo.setInputFiles({ name: "zoe.jpg", mimeType: "image/jpeg", buffer: await jpeg("#3a7bd5") });
      await expect
        .poll(() => page.getByRole("img", { name: "Photo preview" }).getAttribute("src"))
        .toMatch(/^blob:/);

      await page.getByText("0/100").waitFor();
      await field(page, "Appearance").fill("a".repeat(150));
      expect((await field(page, "Appearance").inputValue()).length).toBe(100);
      await field(page, "Appearance").fill("Short silver hair, round glasses.");

      await field(page, "Name").fill("Zoe Photo");
      await field(page, "Sex").selectOption({ label: "Female" });
      await field(page, "Voice").selectOption({ label: "French Female" });
      await field(page, "Language").selectOption({ label: "French" });
      await field(page, "Backstory").fill("Zoe paints murals at night.");

      // A sample that plays: stop image while it plays, play image once it has ended.
      let audioRequested = false;
      await page.route(
        (url) => url.pathname === "/api/characters/voice/preview/",
        (route) =>
          route.fulfill({
            status: 200,
            contentType: "application/json",
            body: JSON.stringify({
              success: 1,
              message: "Voice preview.",
              audioUrl: "/content/voice/e2e.wav",
            }),
          }),
      );
      await page.route(
        (url) => url.pathname === "/content/voice/e2e.wav",
        (route) => {
          audioRequested = true;
          return route.fulfill({ status: 200, contentType: "audio/wav", body: silentWav(1.2) });
        },
      );
      await page.getByRole("button", { name: "Play voice preview" }).click();
      const stop = page.getByRole("button", { name: "Stop voice preview" });
      await stop.waitFor();
      await expect.poll(() => stop.getAttribute("data-state")).toBe("playing");
      const playingFrom = Date.now();
      await page.getByRole("button", { name: "Play voice preview" }).waitFor({ timeout: 5000 });
      expect(audioRequested).toBe(true);
      expect(Date.now() - playingFrom).toBeGreaterThan(600);

      // And stopping by hand.
      await page.getByRole("button", { name: "Play voice preview" }).click();
      await expect.poll(() => stop.getAttribute("data-state")).toBe("playing");
      await stop.click();
      await page.getByRole("button", { name: "Play voice preview" }).waitFor();

      await recordForms(page);
      await page.getByRole("button", { name: "Save" }).click();
      await expect
        .poll(() => sentForm(page, "/api/characters/create"))
        .toMatchObject({
          name: "Zoe Photo",
          appearance: "Short silver hair, round glasses.",
          photo: "file:zoe.jpg",
        });
      await expectToast(page, "Zoe Photo has been created.", SUCCESS);
      await page.waitForURL("**/characters/list");
      const avatar = rowOf(page, "Zoe Photo").getByRole("img", { name: "Zoe Photo" });
      await expect.poll(() => avatar.getAttribute("src")).toMatch(/^\/content\/characters\/[\w-]+\.jpg$/);
      await expect
        .poll(() => avatar.evaluate((element) => (element as HTMLImageElement).naturalWidth))
        .toBeGreaterThan(0);
      const firstPhoto = await avatar.getAttribute("src");

      // Edit shows the current photo and appearance; a new photo replaces the old one.
      await rowOf(page, "Zoe Photo").getByRole("link", { name: "Edit Zoe Photo" }).click();
      await expect
        .poll(() => field(page, "Appearance").inputValue())
        .toBe("Short silver hair, round glasses.");
      expect(await page.getByRole("img", { name: "Photo preview" }).getAttribute("src")).toBe(firstPhoto);
      await field(page, "Photo").setInputFiles({
        name: "zoe2.png",
        mimeType: "image/png",
        buffer: await sharp({ create: { width: 60, height: 60, channels: 3, background: "#22aa66" } })
          .png()
          .toBuffer(),
      });
      await page.getByRole("button", { name: "Save" }).click();
      await expect
        .poll(() => sentForm(page, "/api/characters/update"))
        .toMatchObject({
          photo: "file:zoe2.png",
          old_photo: firstPhoto?.split("/").pop(),
        });
      await expectToast(page, "Zoe Photo has been updated.", SUCCESS);
      await page.waitForURL("**/characters/list");
      await expect.poll(() => avatar.getAttribute("src")).not.toBe(firstPhoto);

      // cl 5 with three characters: the Create Character dropdown still shows (1 ≤ 3 < 5).
      await createRandom(session);
      await createRandom(session);
      await page.reload();
      await expect.poll(() => page.locator(".tab-panel tbody tr").count()).toBe(3);
      await page.getByRole("button", { name: "Create Character" }).waitFor();
      await closePage(page);
    },
    TIMEOUT,
  );
});
