import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import type { ChatHistoryEntry, ChatProfileInfo, LoginData } from "../common/api";
import { demoSession, expectToast, hasChromium, installToastRecorder, json } from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * Session and error rules of the SPA in a real browser against the real server (product.md §4, 5, 8):
 * sign-in validation and failure, 401 and 503 from any call, the token extend, and history
 * paging. Error answers and long histories are injected with Playwright routes.
 */

if (!hasChromium) console.warn(`session e2e skipped: no Chromium found (set CHROMIUM_PATH)`);

describe.skipIf(!hasChromium)("session and errors in Chromium", () => {
  const suite = useBrowserSuite();

  const base = (): string => suite.url;

  const newPage = async (): Promise<Page> => {
    const { browser } = suite;
    const context = await browser.newContext({ viewport: { width: 1024, height: 800 } });
    await installToastRecorder(context);
    const page = await context.newPage();
    page.on("pageerror", (error) => console.error("[page error]", error.message));
    return page;
  };

  /** Signs in through the API (demo login) and stores the session the way the SPA does. */
  const signIn = async (page: Page, expiresInMs = 3_600_000): Promise<LoginData> => {
    const envelope = { data: await demoSession(base()) };
    await page.goto(`${base()}/maintenance`);
    await page.evaluate(
      ({ data, expiresIn }) => {
        localStorage.setItem(
          "token",
          JSON.stringify({ token: data.token, expirationTime: Date.now() + expiresIn }),
        );
        localStorage.setItem("user", JSON.stringify(data.user));
      },
      { data: envelope.data, expiresIn: expiresInMs },
    );
    return envelope.data;
  };

  const storedToken = (page: Page) => page.evaluate(() => localStorage.getItem("token"));

  it("flags blank sign-in fields and shows the forbidden art on a failed login", async () => {
    const page = await newPage();
    await page.goto(`${base()}/login`);
    await page.getByRole("button", { name: "Login" }).click();
    await expect.poll(() => page.getByLabel("Email").getAttribute("aria-invalid")).toBe("true");
    await expect.poll(() => page.getByLabel("Password").getAttribute("aria-invalid")).toBe("true");

    await page.getByLabel("Email").fill("nobody@example.com");
    await page.getByLabel("Password").fill("wrong password");
    await page.getByRole("button", { name: "Login" }).click();
    await page.getByRole("img", { name: "Access forbidden" }).waitFor();
    await page.getByText("Invalid email or password.").waitFor();
    expect(page.url()).toMatch(/\/login$/);
    await page.close();
  });

  it("shows the server message and the forbidden art for an invalid demo link", async () => {
    const page = await newPage();
    await page.goto(`${base()}/login/not-a-demo-id`);
    await page.getByRole("img", { name: "Access forbidden" }).waitFor();
    await page.getByRole("button", { name: "Login" }).waitFor();
    await page.close();
  });

  it("ends the session on a 401 with a toast and a redirect", async () => {
    const page = await newPage();
    await signIn(page);
    await page.route(
      (url) => url.pathname === "/api/characters/list/",
      (route) => json(route, 401, { success: 0, message: "Unauthorized" }),
    );
    await page.goto(`${base()}/characters/list`);
    // product.md §8: the signed-in area's warning toast sits bottom-right for 2 s; the app goes to /.
    await expectToast(page, "Session expired, please login again.", {
      type: "warning",
      x: "right",
      y: "bottom",
      durationMs: 2000,
    });
    expect(new URL(page.url()).pathname).toBe("/");
    expect(await storedToken(page)).toBeNull();
    await page.close();
  });

  it("colours dialog buttons: confirm #c70039, cancel #aaa (product.md §8)", async () => {
    const page = await newPage();
    await signIn(page);
    await page.goto(`${base()}/characters/selection`);
    const presets = page.getByRole("list", { name: "Preset characters" });
    await presets.getByRole("button").first().click();
    await page.getByRole("button", { name: /^Select (her|him)$/ }).click();
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("heading", { name: "Great choice!" }).waitFor();
    const background = (name: RegExp | string) =>
      dialog.getByRole("button", { name }).evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(await background(/^Yes, create (her|him)!$/)).toBe("rgb(199, 0, 57)");
    expect(await background("Cancel")).toBe("rgb(170, 170, 170)");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await page.close();
  });

  it("shows the 'Oops...' dialog on a 503, then logs out to /maintenance", async () => {
    const page = await newPage();
    await signIn(page);
    await page.route(
      (url) => url.pathname === "/api/characters/list/",
      (route) => json(route, 503, { success: 0, message: "Down for maintenance." }),
    );
    await page.goto(`${base()}/characters/list`);
    const dialog = page.getByRole("dialog");
    await dialog.getByRole("heading", { name: "Oops..." }).waitFor();
    await dialog.getByText("Down for maintenance.").waitFor();
    expect(
      await dialog
        .getByRole("button", { name: "Close" })
        .evaluate((element) => getComputedStyle(element).backgroundColor),
    ).toBe("rgb(199, 0, 57)");
    await dialog.getByRole("button", { name: "Close" }).click();
    await page.waitForURL("**/maintenance");
    await page.getByRole("heading", { name: "Under work" }).waitFor();
    expect(await storedToken(page)).toBeNull();
    await page.close();
  });

  it("extends a token with under five minutes left", async () => {
    const page = await newPage();
    await signIn(page, 120_000);
    const extend = page.waitForRequest((request) => request.url().endsWith("/api/auth/extend"));
    await page.goto(`${base()}/characters/list`);
    await extend;
    await expect
      .poll(async () => {
        const raw = await storedToken(page);
        return raw === null ? 0 : (JSON.parse(raw) as { expirationTime: number }).expirationTime - Date.now();
      })
      .toBeGreaterThan(50 * 60_000);
    await page.getByRole("heading", { name: "My Characters" }).waitFor();
    await page.close();
  });

  it("loads earlier history pages when scrolled to the top, keeping the view", async () => {
    const page = await newPage();
    const { user } = await signIn(page);
    const info: ChatProfileInfo = {
      userPicture: "",
      userName: user.userName,
      name: user.name,
      characters: [{ gId: "", id: "c1", sex: "0", photo: "", name: "Paging Pal", greeting: "", voice: "" }],
    };
    const entry = (index: number): ChatHistoryEntry => ({
      chatHistoryUUID: `h${index}`,
      characterUUID: "c1",
      chatHistoryMessage: `question ${index}`,
      chatHistoryMessageImage: "",
      chatHistorySendTime: new Date(Date.UTC(2024, 0, 1, 10, index)).toISOString(),
      chatHistoryReplyMessage: `answer ${index}`,
      chatHistoryReplyImage: "",
      chatHistoryReplyAudioUrl: "",
      chatHistoryReplyTime: new Date(Date.UTC(2024, 0, 1, 10, index)).toISOString(),
      chatHistoryImageLoading: 0,
    });
    const total = 25;
    const offsets: number[] = [];
    await page.route(
      (url) => url.pathname === "/api/chat/profile/",
      (route) => json(route, 200, { success: 1, message: "ok", info }),
    );
    await page.route(
      (url) => url.pathname === "/api/chat/history/paginated",
      (route) => {
        const url = new URL(route.request().url());
        const offset = Number(url.searchParams.get("offset"));
        const limit = Number(url.searchParams.get("limit"));
        offsets.push(offset);
        const end = Math.max(total - offset, 0);
        const start = Math.max(end - limit, 0);
        const data = Array.from({ length: end - start }, (_unused, i) => entry(start + i));
        return json(route, 200, { success: 1, message: "ok", data });
      },
    );
    await page.goto(`${base()}/character-select/c1`);
    await page.waitForURL("**/chat");
    const log = page.getByRole("log", { name: "Messages" });
    await log.getByText("answer 24").waitFor();
    expect(await log.getByText("question 14").count()).toBe(0);

    const anchor = log.getByText("question 15", { exact: true });
    /**
     * Scrolls to the top until the page at `offset` is asked for: under load the list's own first
     * scroll to the bottom may land after a single scroll to the top.
     */
    const scrollUpUntilAsked = (offset: number) =>
      expect
        .poll(
          async () => {
            if (!offsets.includes(offset))
              await log.evaluate((element) => {
                element.scrollTop = 0;
              });
            return offsets.includes(offset);
          },
          { timeout: 20_000, interval: 500 },
        )
        .toBe(true);
    await scrollUpUntilAsked(10);
    await log.getByText("question 14", { exact: true }).waitFor();
    // The entry that was at the top stays in view instead of jumping away.
    const logBox = await log.boundingBox();
    const anchorBox = await anchor.boundingBox();
    expect(logBox && anchorBox && anchorBox.y >= logBox.y && anchorBox.y < logBox.y + logBox.height).toBe(
      true,
    );

    await scrollUpUntilAsked(20);
    await log.getByText("question 0", { exact: true }).waitFor();
    expect(offsets.slice(0, 3)).toEqual([0, 10, 20]);
    await page.close();
  });
  it("reveals split replies one by one and marks a refused message 'Failed'", async () => {
    const page = await newPage();
    const { user } = await signIn(page);
    const info: ChatProfileInfo = {
      userPicture: "",
      userName: user.userName,
      name: user.name,
      characters: [{ gId: "", id: "c2", sex: "1", photo: "", name: "Split Sam", greeting: "", voice: "" }],
    };
    await page.route(
      (url) => url.pathname === "/api/chat/profile/",
      (route) => json(route, 200, { success: 1, message: "ok", info }),
    );
    await page.route(
      (url) => url.pathname === "/api/chat/history/paginated",
      (route) => json(route, 200, { success: 1, message: "ok", data: [] }),
    );
    let calls = 0;
    await page.route(
      (url) => url.pathname === "/api/chat/message",
      async (route) => {
        calls += 1;
        const form = route.request().postData() ?? "";
        expect(form).toContain('name="cId"');
        if (calls === 2) return json(route, 200, { success: 0, message: "Daily limit reached." });
        const now = new Date().toISOString();
        const entry: ChatHistoryEntry = {
          chatHistoryUUID: "s1",
          characterUUID: "c2",
          chatHistoryMessage: "first",
          chatHistoryMessageImage: "",
          chatHistorySendTime: now,
          chatHistoryReplyMessage: "part one part two",
          chatHistoryReplyImage: "",
          chatHistoryReplyAudioUrl: "",
          chatHistoryReplyTime: now,
          chatHistoryImageLoading: 0,
        };
        return json(route, 200, {
          success: 1,
          message: "ok",
          text: entry.chatHistoryReplyMessage,
          history: [entry],
          options: { splitCount: 2, splitMessages: ["part one", "part two"], picDesc: "" },
        });
      },
    );
    await page.goto(`${base()}/character-select/c2`);
    const log = page.getByRole("log", { name: "Messages" });
    const input = page.getByRole("textbox", { name: "Type a message" });
    await input.fill("first");
    await input.press("Enter");
    await log.getByRole("article", { name: "Reply from Split Sam" }).getByText("part one").waitFor();
    await log.getByRole("article", { name: "Reply from Split Sam" }).getByText("part two").waitFor();
    expect(await log.getByRole("article", { name: "Reply from Split Sam" }).count()).toBe(2);

    await input.fill("second");
    await page.getByRole("button", { name: "Send" }).click();
    await page.getByText("Daily limit reached.").waitFor();
    await log
      .getByRole("article", { name: "Your message" })
      .filter({ hasText: "second" })
      .getByText("Failed")
      .waitFor();
    await page.getByText("away", { exact: true }).waitFor();
    await page.close();
  });
});
