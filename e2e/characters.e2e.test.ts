import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { CharacterListItem, Envelope, LoginData } from "../common/api";
import { readPngTextChunks, writePngTextChunks } from "../server/modules/characters/png-chunks";
import {
  closePage,
  demoSession,
  expectToast,
  hasChromium,
  json,
  SUCCESS,
  type ToastRule,
} from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * The characters list in Chromium against the real server (product.md §2 "Characters and Groups",
 * "Preset selection", "Signed-in menu"; product.md §4, 6, 8): the empty state, a preset, the Create
 * Character dropdown and its limit cl, random characters, Show more, delete with its
 * confirmation and its refusal, card import and export, and groups.
 */

if (!hasChromium) console.warn("characters e2e skipped: no Chromium found (set CHROMIUM_PATH)");

/** product.md §8: warnings in the signed-in area sit bottom-right for 2 s. */
const SIGNED_IN_WARNING: ToastRule = { type: "warning", x: "right", y: "bottom", durationMs: 2000 };
const TIMEOUT = 90_000;

/** A Character Card V2 `data` object with every field (the spec's shape). */
function cardData(name: string, description: string, firstMessage: string) {
  return {
    name,
    description,
    personality: "",
    scenario: "",
    first_mes: firstMessage,
    mes_example: "",
    creator_notes: "",
    system_prompt: "",
    post_history_instructions: "",
    alternate_greetings: [],
    tags: ["test"],
    creator: "e2e",
    character_version: "1",
    extensions: {},
  };
}

/** A small PNG carrying a V2 card in its `chara` tEXt chunk (base64 JSON). */
async function cardPng(name: string, description: string, firstMessage: string): Promise<Buffer> {
  const png = await sharp({ create: { width: 48, height: 48, channels: 3, background: "#d94f8a" } })
    .png()
    .toBuffer();
  const card = {
    spec: "chara_card_v2",
    spec_version: "2.0",
    data: cardData(name, description, firstMessage),
  };
  return writePngTextChunks(png, { chara: Buffer.from(JSON.stringify(card)).toString("base64") });
}

describe.skipIf(!hasChromium)("characters list in Chromium", () => {
  const suite = useBrowserSuite({ env: { LLM_PROVIDER: "none" } });

  const base = (): string => suite.url;

  /** Calls the API as the given session (bearer token), returning the envelope. */
  const api = async <T extends Envelope>(session: LoginData, path: string, init: RequestInit = {}) => {
    const answer = await fetch(`${base()}/api${path}`, {
      ...init,
      headers: { Authorization: `Bearer ${session.token}` },
    });
    return (await answer.json()) as T;
  };

  const createRandom = async (session: LoginData): Promise<CharacterListItem> => {
    const answer = await api<Envelope<CharacterListItem>>(session, "/characters/create-random", {
      method: "POST",
    });
    if (answer.success !== 1 || answer.data === undefined) throw new Error(answer.message);
    return answer.data;
  };

  /** A fresh demo user (Free plan: cl 3, pl '0', il '0') with `characters` random characters. */
  const demoUser = async (characters: number) => {
    const session = await demoSession(base());
    const created: CharacterListItem[] = [];
    for (let index = 0; index < characters; index += 1) created.push(await createRandom(session));
    return { session, created };
  };

  /** Opens `path` in a new page signed in as `session`. */
  const openSignedIn = (session: LoginData, path: string): Promise<Page> =>
    suite.openSignedIn(session, path, { context: { acceptDownloads: true } });

  const rows = (page: Page) => page.getByRole("tabpanel").locator("tbody tr");
  const rowOf = (page: Page, name: string) => rows(page).filter({ hasText: name });
  const createButton = (page: Page) => page.getByRole("button", { name: "Create Character" });
  const menuLinks = async (page: Page): Promise<string[]> => {
    await page.getByRole("button", { name: "Open menu" }).click();
    const nav = page.getByRole("navigation", { name: "Main" });
    await nav.getByRole("link", { name: "CHARACTERS" }).waitFor();
    const labels = await nav.getByRole("link").allInnerTexts();
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Open menu" }).waitFor();
    return labels.map((label) => label.trim());
  };
  /** The navigation state React Router keeps in the browser history (`{ id }`). */
  const navigationState = (page: Page) =>
    page.evaluate(() => (window.history.state as { usr?: { id?: string } } | null)?.usr?.id ?? null);

  it(
    "starts empty, leaves F.A.Q out on the preset page only, goes back, and creates a preset",
    async () => {
      const { session } = await demoUser(0);
      const page = await openSignedIn(session, "/characters/list");
      await page.getByRole("heading", { name: "My Characters" }).waitFor();
      await page.getByText("No characters found.").waitFor();
      expect(await createButton(page).count()).toBe(0);
      expect(await menuLinks(page)).toEqual([
        "HOME",
        "MY PROFILE",
        "CHARACTERS",
        "CHANGE PASSWORD",
        "F.A.Q",
        "LOGOUT",
      ]);

      await page.getByRole("link", { name: "Choose a preset character" }).click();
      await page.waitForURL("**/characters/selection");
      const presets = page.getByRole("list", { name: "Preset characters" });
      await presets.getByRole("button").first().waitFor();
      expect(await menuLinks(page)).toEqual([
        "HOME",
        "MY PROFILE",
        "CHARACTERS",
        "CHANGE PASSWORD",
        "LOGOUT",
      ]);
      await page.getByRole("button", { name: "Go Back" }).click();
      await page.waitForURL("**/characters/list");
      await page.getByText("No characters found.").waitFor();
      await page.goBack();
      await page.waitForURL("**/characters/selection");

      const card = presets.getByRole("button").first();
      const presetName = ((await card.textContent()) ?? "").trim();
      await card.click();
      const details = page.getByRole("dialog");
      await details.getByRole("heading", { name: presetName }).waitFor();
      await details.getByRole("button", { name: /^Select (her|him)$/ }).click();
      await page.getByRole("heading", { name: "Great choice!" }).waitFor();
      await page.getByText(`Do you want to go with ${presetName}?`).waitFor();
      await page.getByRole("button", { name: /^Yes, create (her|him)!$/ }).click();
      await page.waitForURL("**/characters/list");
      await rowOf(page, presetName).waitFor();
      expect(await rows(page).count()).toBe(1);
      // One character: no delete (product.md §6); 1 ≤ count < cl: the dropdown shows (product.md §2).
      expect(await page.getByRole("button", { name: /^Delete / }).count()).toBe(0);
      await createButton(page).waitFor();
      await closePage(page);
    },
    TIMEOUT,
  );

  it(
    "offers the dropdown entries, creates a random character, shows more, deletes with a confirmation and hides the dropdown at cl",
    async () => {
      const { session, created } = await demoUser(1);
      const first = created[0]!;
      const page = await openSignedIn(session, "/characters/list");
      await rowOf(page, first.characterName).waitFor();

      // Start Chatting passes the character id as navigation state.
      await rowOf(page, first.characterName).getByRole("link", { name: "Start Chatting" }).click();
      await page.waitForURL("**/chat");
      expect(await navigationState(page)).toBe(first.characterUUID);
      await page.goBack();
      await page.waitForURL("**/characters/list");

      await createButton(page).click();
      const newCharacter = page.getByRole("link", { name: "New Character" });
      expect(await newCharacter.getAttribute("href")).toBe("/characters/add");
      expect(await page.getByRole("link", { name: "Select Preset Character" }).getAttribute("href")).toBe(
        "/characters/selection",
      );
      await newCharacter.click();
      await page.waitForURL("**/characters/add");
      await page.getByRole("button", { name: "Cancel" }).click();
      await page.waitForURL("**/characters/list");

      await createButton(page).click();
      await page.getByRole("link", { name: "Select Preset Character" }).click();
      await page.waitForURL("**/characters/selection");
      await page.getByRole("button", { name: "Go Back" }).click();
      await page.waitForURL("**/characters/list");

      // Random: a toast with the server's message, the dropdown closes, the list reloads.
      await createButton(page).click();
      const answer = page.waitForResponse((response) =>
        response.url().endsWith("/api/characters/create-random"),
      );
      await page.getByRole("button", { name: "Random Character" }).click();
      const random = (await (await answer).json()) as Envelope<CharacterListItem>;
      expect(random.success).toBe(1);
      const second = random.data!;
      await rowOf(page, second.characterName).waitFor();
      expect(await page.getByRole("button", { name: "Random Character" }).count()).toBe(0);
      expect(await rows(page).count()).toBe(2);
      await expectToast(page, random.message, SUCCESS);

      // Show more opens the whole backstory (the list shows 50 characters).
      const secondRow = rowOf(page, second.characterName);
      expect(second.characterDescription.length).toBeGreaterThan(50);
      await secondRow.getByRole("button", { name: "Show more" }).click();
      const popup = page.getByRole("dialog");
      await popup.getByText(second.characterDescription).waitFor();
      await popup.getByRole("button", { name: "Close" }).click();
      await popup.waitFor({ state: "hidden" });

      // Delete: two characters → both rows offer it; the confirmation's texts and colours.
      expect(await page.getByRole("button", { name: /^Delete / }).count()).toBe(2);
      await secondRow.getByRole("button", { name: `Delete ${second.characterName}` }).click();
      const confirm = page.getByRole("dialog");
      await confirm
        .getByRole("heading", { name: "Are you sure you want to delete this character?" })
        .waitFor();
      await confirm.getByText("You won't be able to revert this!").waitFor();
      const colour = (name: string) =>
        confirm
          .getByRole("button", { name, exact: true })
          .evaluate((element) => getComputedStyle(element).backgroundColor);
      expect(await colour("Yes, delete it!")).toBe("rgb(199, 0, 57)");
      expect(await colour("Cancel")).toBe("rgb(170, 170, 170)");
      await confirm.getByRole("button", { name: "Cancel" }).click();
      await confirm.waitFor({ state: "hidden" });
      expect(await rows(page).count()).toBe(2);

      await secondRow.getByRole("button", { name: `Delete ${second.characterName}` }).click();
      const deleted = page.waitForResponse((response) => response.url().includes("/api/characters/delete/"));
      await page.getByRole("dialog").getByRole("button", { name: "Yes, delete it!" }).click();
      expect((await (await deleted).json()) as Envelope).toMatchObject({ success: 1 });
      await secondRow.waitFor({ state: "detached" });
      // sweetalert2 hides the page from assistive technology until its dialog has gone.
      await page.getByRole("dialog").waitFor({ state: "detached" });
      expect(await rows(page).count()).toBe(1);
      expect(await page.getByRole("button", { name: /^Delete / }).count()).toBe(0);

      // At the creation limit (cl 3 on the Free plan) the dropdown goes away.
      await createRandom(session);
      await createRandom(session);
      await page.reload();
      await expect.poll(() => rows(page).count()).toBe(3);
      expect(await createButton(page).count()).toBe(0);
      await closePage(page);
    },
    TIMEOUT,
  );

  it(
    "shows the server's refusal to delete the only character as a warning toast",
    async () => {
      const { session, created } = await demoUser(2);
      const [kept, goneElsewhere] = [created[0]!, created[1]!];
      const page = await openSignedIn(session, "/characters/list");
      await rowOf(page, kept.characterName).waitFor();
      // Another tab deletes one of the two: this list still offers delete on the other.
      await api(session, `/characters/delete/?id=${goneElsewhere.characterUUID}`, { method: "DELETE" });
      await rowOf(page, kept.characterName)
        .getByRole("button", { name: `Delete ${kept.characterName}` })
        .click();
      await page.getByRole("dialog").getByRole("button", { name: "Yes, delete it!" }).click();
      await expectToast(page, "You cannot delete your only character.", SIGNED_IN_WARNING);
      expect(await rowOf(page, kept.characterName).count()).toBe(1);
      await closePage(page);
    },
    TIMEOUT,
  );

  it(
    "imports V2 cards (PNG and JSON) and exports a card as a PNG download",
    async () => {
      const { session } = await demoUser(1);
      const page = await openSignedIn(session, "/characters/list");
      await createButton(page).waitFor();

      const png = await cardPng("Card Carla", "A lighthouse keeper who collects sea glass.", "Ahoy there!");
      await createButton(page).click();
      const chooser = page.waitForEvent("filechooser");
      await page.getByRole("button", { name: "Import Character Card" }).click();
      await (await chooser).setFiles({ name: "carla.png", mimeType: "image/png", buffer: png });
      await rowOf(page, "Card Carla").waitFor();
      expect(await page.getByRole("button", { name: "Import Character Card" }).count()).toBe(0);
      await expectToast(page, "Card Carla has been imported.", SUCCESS);
      await rowOf(page, "Card Carla").getByText("A lighthouse keeper who collects sea glass.").waitFor();

      const jsonCard = JSON.stringify({
        spec: "chara_card_v2",
        spec_version: "2.0",
        data: cardData("Jason Json", "Writes everything down in curly braces.", "{ hello }"),
      });
      await createButton(page).click();
      const jsonChooser = page.waitForEvent("filechooser");
      await page.getByRole("button", { name: "Import Character Card" }).click();
      await (await jsonChooser).setFiles({
        name: "jason.json",
        mimeType: "application/json",
        buffer: Buffer.from(jsonCard),
      });
      await rowOf(page, "Jason Json").waitFor();
      await expect.poll(() => rows(page).count()).toBe(3);

      const download = page.waitForEvent("download");
      await rowOf(page, "Card Carla").getByRole("button", { name: "Export card of Card Carla" }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe("Card_Carla.png");
      const filePath = await file.path();
      const bytes = await readFile(filePath);
      const chunks = readPngTextChunks(bytes);
      const v2 = JSON.parse(Buffer.from(chunks.get("chara") ?? "", "base64").toString("utf8")) as {
        spec: string;
        data: { name: string; first_mes: string; description: string };
      };
      expect(v2.spec).toBe("chara_card_v2");
      expect(v2.data.name).toBe("Card Carla");
      expect(v2.data.first_mes).toBe("Ahoy there!");
      expect(v2.data.description).toContain("sea glass");
      expect(chunks.has("ccv3")).toBe(true);
      await closePage(page);
    },
    TIMEOUT,
  );

  it(
    "lists groups with round 40x40 member avatars, starts a group chat, deletes a group, and shows 'No Members'",
    async () => {
      const { session, created } = await demoUser(2);
      const [ann, bea] = [created[0]!, created[1]!];
      const page = await openSignedIn(session, "/characters/list");
      await rowOf(page, ann.characterName).waitFor();

      // Group creation lives in the chat screen; here it goes through the API with the stored token.
      const groupId = await page.evaluate(
        async ({ first, second }) => {
          const raw = localStorage.getItem("token");
          const token = raw === null ? "" : (JSON.parse(raw) as { token: string }).token;
          const headers = { Authorization: `Bearer ${token}` };
          const made = (await (await fetch(`/api/chat/group/new?cId=${first}`, { headers })).json()) as {
            page: string;
          };
          const id = made.page.split("/").pop() ?? "";
          await fetch(`/api/chat/group/member/add?gId=${id}&cId=${second}`, { headers });
          return id;
        },
        { first: ann.characterUUID, second: bea.characterUUID },
      );
      expect(groupId).toMatch(/^[0-9a-f-]{36}$/);

      await page.getByRole("tab", { name: "Groups" }).click();
      const groupRow = rows(page).first();
      const avatars = groupRow.getByRole("img");
      await expect.poll(() => avatars.count()).toBe(2);
      for (const [index, member] of [ann, bea].entries()) {
        const avatar = avatars.nth(index);
        expect(await avatar.getAttribute("title")).toBe(member.characterName);
        expect(await avatar.getAttribute("alt")).toBe(member.characterName);
        const look = await avatar.evaluate((element) => {
          const style = getComputedStyle(element);
          const box = element.getBoundingClientRect();
          return { width: box.width, height: box.height, radius: style.borderRadius };
        });
        expect(look).toEqual({ width: 40, height: 40, radius: "50%" });
      }

      await groupRow.getByRole("link", { name: "Start Chatting" }).click();
      await page.waitForURL("**/chat");
      expect(await navigationState(page)).toBe(groupId);
      await page.goBack();
      await page.waitForURL("**/characters/list");

      await page.getByRole("tab", { name: "Groups" }).click();
      await rows(page)
        .first()
        .getByRole("button", { name: `Delete group of ${ann.characterName} and ${bea.characterName}` })
        .click();
      const confirm = page.getByRole("dialog");
      await confirm.getByRole("heading", { name: "Are you sure you want to delete this group?" }).waitFor();
      await confirm.getByText("You won't be able to revert this!").waitFor();
      await confirm.getByRole("button", { name: "Yes, delete it!" }).click();
      await page.getByText("No Groups created.").waitFor();
      const groups = (
        await api<Envelope<unknown[]>>(session, `/characters/group/list/?id=${session.user.id}`)
      ).data;
      expect(groups).toEqual([]);

      // A group whose members are all gone shows 'No Members'.
      await page.route(
        (url) => url.pathname === "/api/characters/group/list/",
        (route) =>
          json(route, 200, { success: 1, message: "Groups.", data: [{ groupUUID: groupId, members: [] }] }),
      );
      await page.reload();
      await page.getByRole("tab", { name: "Groups" }).click();
      await rows(page).first().getByText("No Members").waitFor();
      await closePage(page);
    },
    TIMEOUT,
  );
});
