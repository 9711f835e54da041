import { describe, expect, it } from "vitest";
import { CheckinsRepo } from "../server/modules/checkins/checkins.repo";
import { CheckinsService, nextWakingTime } from "../server/modules/checkins/checkins.service";
import { DESKTOP, ensureCharacters, openChat, PHONE, withoutBrowserSpeech } from "./chat.helpers";
import { closePage, demoSession, hasChromium, openPage, storeSession, toastWith } from "./support/browser";
import { useBrowserSuite } from "./support/suite";

const HOUR = 3_600_000;
const CHECK_IN = "Hey! How did the interview go?";
/** The browser's time zone in these tests: it must reach the server as the user's zone. */
const ZONE = "Asia/Tokyo";

/**
 * Characters that write first in Chromium on phone and desktop: the user lets the
 * character write first in the chat's Settings (the browser's time zone goes with it), the
 * scheduled job's work is run with a shifted clock (the check-in service on the server's
 * database, a scripted model), the characters list shows the unread badge, and opening the chat
 * shows the check-in as the character's message and clears the badge.
 */
describe.skipIf(!hasChromium)("check-ins in Chromium", () => {
  const suite = useBrowserSuite();

  /** The job's service on the test server's database, with a model that always checks in. */
  const job = () =>
    new CheckinsService(
      new CheckinsRepo(suite.server.db),
      {
        findOwnedCharacter: async () => undefined,
        resolveChat: async () => {
          throw new Error("not used by the job");
        },
      },
      {
        status: () => ({ ready: true }) as never,
        generate: async () => ({ text: CHECK_IN, modelMs: 1 }),
      },
      async () => [],
      { quietHours: 8, maxReplyTokens: 48, temperature: 0.7 },
    );

  for (const [label, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    it(`a check-in appears with its badge on ${label}`, async () => {
      const { browser, url, server } = suite;
      const session = await demoSession(url);
      const page = await openPage(browser, { viewport, timezoneId: ZONE });
      await page.goto(`${url}/maintenance`);
      await storeSession(page, session);
      await withoutBrowserSpeech(page);
      const [character] = await ensureCharacters(page, 1);
      if (character === undefined) throw new Error("no character");
      const name = character.characterName;
      await openChat(page, url, character.characterUUID);
      const log = page.getByRole("log", { name: "Messages" });
      const replies = log.getByRole("article", { name: `Reply from ${name}` });
      await replies.first().waitFor();

      // Settings: "Let {name} write first", saved with the browser's time zone.
      await page.getByRole("button", { name: "Chat menu" }).click();
      await page.getByRole("button", { name: "Settings" }).click();
      const dialog = page.getByRole("dialog", { name: "Settings" });
      const toggle = dialog.getByRole("switch", { name: `Let ${name} write first` });
      expect(await toggle.isChecked()).toBe(false);
      await toggle.check();
      await dialog.getByRole("button", { name: "Save" }).click();
      await toastWith(page, "Settings saved!").waitFor();
      const setting = () =>
        server.db
          .selectFrom("checkin_settings")
          .selectAll()
          .where("user_id", "=", session.user.id)
          .where("character_id", "=", character.characterUUID)
          .executeTakeFirst();
      await expect.poll(async () => (await setting())?.enabled, { timeout: 20_000 }).toBe(1);
      expect((await setting())?.time_zone).toBe(ZONE);

      // The job, 8 hours after the last message, in the user's waking hours.
      const rows = await server.db
        .selectFrom("chat_history as h")
        .innerJoin("chat_sessions as s", "s.id", "h.session_id")
        .select(["h.send_time", "h.reply_time"])
        .where("s.user_id", "=", session.user.id)
        .where("s.chat_key", "=", character.characterUUID)
        .execute();
      const last = Math.max(...rows.map((r) => Number(r.reply_time ?? r.send_time)));
      // (The other viewport's chat may be due too: this chat's entries are what is checked.)
      await job().sendDue(nextWakingTime(last + 8 * HOUR, ZONE));
      const checkIns = await server.db
        .selectFrom("chat_history as h")
        .innerJoin("chat_sessions as s", "s.id", "h.session_id")
        .select(["h.message", "h.reply_message"])
        .where("s.user_id", "=", session.user.id)
        .where("h.reply_message", "=", CHECK_IN)
        .execute();
      expect(checkIns).toEqual([{ message: "", reply_message: CHECK_IN }]);

      // The characters list shows the badge (reached in the app, the chat's history still cached).
      await page.getByRole("button", { name: "Chat menu" }).click();
      await page.getByRole("link", { name: "Change Character", exact: true }).click();
      await page.waitForURL("**/characters/list");
      const badge = page.getByRole("status", { name: `1 new message from ${name}` });
      await badge.waitFor({ timeout: 20_000 });
      expect(await badge.textContent()).toBe("1");
      await page.screenshot({ path: `test-results/checkins-badge-${label}.png` });

      // Opening the chat shows the check-in as the character's message, no bubble of the user.
      await page.getByRole("link", { name: "Start Chatting" }).first().click();
      await page.waitForURL("**/chat");
      await log.getByText(CHECK_IN).waitFor({ timeout: 20_000 });
      expect(await replies.last().textContent()).toContain(CHECK_IN);
      expect(await log.getByRole("article", { name: "Your message" }).count()).toBe(0);
      await page.screenshot({ path: `test-results/checkins-chat-${label}.png` });

      // The badge is cleared.
      await expect
        .poll(
          async () => {
            await page.goto(`${url}/characters/list`);
            await page.getByRole("link", { name: "Start Chatting" }).first().waitFor();
            return badge.count();
          },
          { timeout: 20_000 },
        )
        .toBe(0);
      await closePage(page);
    });
  }
});
