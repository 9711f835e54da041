import { describe, expect, it } from "vitest";
import {
  callApi,
  DESKTOP,
  ensureCharacters,
  openChat,
  signedInPage,
  withoutBrowserSpeech,
} from "./chat.helpers";
import { closePage, hasChromium, toastWith } from "./support/browser";
import { useBrowserSuite } from "./support/suite";

const header = {
  user_name: "Ada",
  character_name: "Mira",
  create_date: "2023-05-08@13h56m00s",
  chat_metadata: {},
};
const line = (isUser: boolean, mes: string) => ({
  name: isUser ? "Ada" : "Mira",
  is_user: isUser,
  is_system: false,
  send_date: "May 8, 2023 1:56pm",
  mes,
  extra: {},
});
const jsonl = (...values: unknown[]) => Buffer.from(`${values.map((v) => JSON.stringify(v)).join("\n")}\n`);

/**
 * "Import a SillyTavern chat" in Chromium: the chat's Settings take a .jsonl file, the popup
 * closes and the import asks as New Chat does; Cancel keeps the history, Import replaces it
 * (success toast, the chat shown afresh with the imported messages); a refused file shows the
 * server's sentence and keeps the history.
 */
describe.skipIf(!hasChromium)("chat import in Chromium", () => {
  const suite = useBrowserSuite();

  it("imports a chat file from the Settings popup after confirmation, and shows a refusal's sentence", async () => {
    const { browser, url } = suite;
    const { page } = await signedInPage(browser, url, DESKTOP);
    try {
      await withoutBrowserSpeech(page);
      const [character] = await ensureCharacters(page, 1);
      if (!character) throw new Error("no character");
      await openChat(page, url, character.characterUUID);
      const log = page.getByRole("log", { name: "Messages" });

      const choose = async (name: string, bytes: Buffer) => {
        await page.getByRole("button", { name: "Chat menu" }).click();
        await page.getByRole("button", { name: "Settings" }).click();
        const dialog = page.getByRole("dialog", { name: "Settings" });
        await dialog.getByRole("heading", { name: "Import a SillyTavern chat" }).waitFor();
        await dialog
          .getByLabel("Chat file (.jsonl)")
          .setInputFiles({ name, mimeType: "application/jsonl", buffer: bytes });
        await dialog.waitFor({ state: "hidden" });
      };
      const file = jsonl(
        header,
        line(true, "Do you remember the lighthouse?"),
        line(false, "Of course, the one by the harbour."),
      );

      // Cancel: nothing is sent.
      await choose("mira.jsonl", file);
      await page
        .getByRole("dialog", { name: "Import this chat?" })
        .getByRole("button", { name: "Cancel" })
        .click();
      await expect.poll(() => log.getByText("Do you remember the lighthouse?").count()).toBe(0);

      // Import: the chat is replaced by the file's messages.
      await choose("mira.jsonl", file);
      const confirm = page.getByRole("dialog", { name: "Import this chat?" });
      expect(await confirm.textContent()).toContain("mira.jsonl");
      await confirm.getByRole("button", { name: "Import" }).click();
      await toastWith(page, "The chat has been imported: 2 messages.").waitFor();
      await log.getByText("Do you remember the lighthouse?").waitFor();
      await log.getByText("Of course, the one by the harbour.").waitFor();

      // A refused file: the server's sentence, and the history stays.
      await choose("broken.jsonl", Buffer.from(`${JSON.stringify(header)}\n{"mes": \n`));
      await page
        .getByRole("dialog", { name: "Import this chat?" })
        .getByRole("button", { name: "Import" })
        .click();
      await toastWith(page, "Line 2 is not valid JSON.").waitFor();
      const kept = await callApi<{ data: Array<{ chatHistoryMessage: string }> }>(
        page,
        "GET",
        `/api/chat/history/paginated?id=${character.characterUUID}&offset=0&limit=50`,
      );
      expect(kept.data.map((entry) => entry.chatHistoryMessage)).toEqual(["Do you remember the lighthouse?"]);
      await log.getByText("Do you remember the lighthouse?").waitFor();
    } finally {
      await closePage(page);
    }
  }, 120_000);
});
