import { afterAll, beforeAll, describe, expect, it } from "vitest";
import i18n, { loadNamespaces, setLanguage } from "../../i18n";
import { bannerTexts } from "./components/ChatBanner";
import { editTexts } from "./editTexts";
import { imageTexts } from "./imageTexts";
import { chatTexts, headerStatus } from "./texts";
import { voiceTexts } from "./voiceTexts";

/**
 * the chat screen's text modules read the "chat" catalogue when a text is used, so
 * every name they offer is a key of the catalogue and a language switch changes what they say.
 */
const MODULES = { main: chatTexts, voice: voiceTexts, images: imageTexts, edits: editTexts } as const;

describe("chat texts through the catalogue", () => {
  // the chat catalogue is loaded on demand (with the signed-in pages).
  beforeAll(() => loadNamespaces(["chat"]));
  afterAll(() => setLanguage("en"));

  it("every text name of texts.ts, voiceTexts.ts and imageTexts.ts is a key of the English catalogue", () => {
    for (const [section, texts] of Object.entries(MODULES)) {
      for (const [name, value] of Object.entries(texts)) {
        if (typeof value === "function") continue;
        expect(
          i18n.exists(`chat:${section}.${name}`, { lng: "en", fallbackLng: false }),
          `${section}.${name}`,
        ).toBe(true);
      }
    }
  });

  it("speaks English, then German after a switch, texts with variables included", async () => {
    await setLanguage("en");
    expect(chatTexts.newChat).toBe("New Chat");
    expect(chatTexts.groupFull(4)).toBe("A group holds at most 4 members.");
    expect(chatTexts.status("replying...")).toBe("replying...");
    expect(imageTexts.photoNumber(2, 5)).toBe("Photo 2 of 5");
    expect(bannerTexts.downloaded(12_345_678)).toBe("12.3 MB downloaded");
    expect(editTexts.rewind).toBe("Rewind to here");
    expect(editTexts.replyPositionLabel(1, 3)).toBe("Reply 2 of 3");
    await setLanguage("de");
    expect(chatTexts.newChat).toBe("Neuer Chat");
    expect(chatTexts.groupFull(4)).toBe("Eine Gruppe hat höchstens 4 Mitglieder.");
    expect(chatTexts.status("replying...")).toBe("antwortet...");
    expect(voiceTexts.playReply("Mia")).toBe("Antwort von Mia abspielen");
    expect(imageTexts.photoNumber(2, 5)).toBe("Foto 2 von 5");
    expect(bannerTexts.downloaded(12_345_678)).toBe("12,3 MB heruntergeladen");
    expect(editTexts.rewind).toBe("Bis hierher zurückspulen");
    expect(editTexts.replyPosition(1, 3)).toBe("2/3");
    expect(editTexts.replyPositionLabel(1, 3)).toBe("Antwort 2 von 3");
  });
});

/** The header's status is truthful: not "online" while the chat cannot answer (no model). */
describe("the chat header's status", () => {
  beforeAll(() => loadNamespaces(["chat"]));
  afterAll(() => setLanguage("en"));

  it("is unavailable, not online or away, while the chat is off", () => {
    expect(headerStatus("online", false, false)).toBe("unavailable");
    expect(headerStatus("away", true, false)).toBe("unavailable");
    expect(chatTexts.status(headerStatus("online", false, false))).toBe("unavailable");
  });

  it("is the sender's status while the chat is on or not known yet", () => {
    expect(headerStatus("online", false, true)).toBe("online");
    expect(headerStatus("online", false, undefined)).toBe("online");
    expect(headerStatus("online", true, true)).toBe("downloading...");
    expect(headerStatus("sending...", false, false)).toBe("sending...");
  });

  it("says unavailable in the user's language", async () => {
    await setLanguage("fr");
    expect(chatTexts.status("unavailable")).toBe("indisponible");
  });
});
