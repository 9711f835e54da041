import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { TOKEN_CHECK_INTERVAL_MS, TOKEN_LIFETIME_MS, TOKEN_REFRESH_MARGIN_MS } from "../common/constants";
import { DESKTOP, PHONE } from "./chat.helpers";
import {
  appErrors,
  closePage,
  demoSession,
  hasChromium,
  holdRoute,
  openPage,
  storeSession,
} from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * The SPA session from guard to logout (docs/spec-coverage.md): the
 * browser guard of protected routes (product.md §2, 6), the one-hour expiry stored at sign-in and the
 * busy Login and Submit buttons (product.md §4), the 180 s token check and a failed extend ending the
 * session (product.md §4, 8, 9), and a signed-in request failure that is only logged (product.md §8).
 */

if (!hasChromium) console.warn(`session-lifecycle e2e skipped: no Chromium found (set CHROMIUM_PATH)`);

describe.skipIf(!hasChromium)("session rules, in Chromium", () => {
  const suite = useBrowserSuite();

  const storedToken = async (page: Page): Promise<{ token: string; expirationTime: number } | null> => {
    const raw = await page.evaluate(() => localStorage.getItem("token"));
    return raw === null ? null : (JSON.parse(raw) as { token: string; expirationTime: number });
  };

  for (const [label, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    it(`${label}: a protected route opened without a stored user goes to /login (product.md §2, 6)`, async () => {
      const page = await openPage(suite.browser, { viewport });
      for (const path of ["/characters/list", "/chat", "/user/profile"]) {
        await page.goto(`${suite.url}${path}`);
        await page.waitForURL("**/login");
        await page.getByRole("heading", { name: "Member Sign in" }).waitFor();
      }
      // A token without a stored user is no session either.
      await page.evaluate(() =>
        localStorage.setItem("token", JSON.stringify({ token: "t", expirationTime: Date.now() + 3_600_000 })),
      );
      await page.goto(`${suite.url}/characters/list`);
      await page.waitForURL("**/login");
      await closePage(page);
    });

    it(`${label}: Login is busy while signing in, and the session expires one hour after sign-in (product.md §4)`, async () => {
      const email = `busy-${label}@example.com`;
      const password = "a long enough password";
      await suite.server.createMember(email, password);
      const page = await openPage(suite.browser, { viewport });
      const hold = holdRoute();
      await page.route("**/api/auth/login", hold.handler);
      await page.goto(`${suite.url}/login`);
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill(password);
      const before = await page.evaluate(() => Date.now());
      await page.getByRole("button", { name: "Login" }).click();
      await expect.poll(hold.held, { timeout: 20_000 }).toBe(1);
      const busy = page.getByRole("button", { name: "Signing in..." });
      await busy.waitFor();
      expect(await busy.isDisabled()).toBe(true);
      expect(await busy.getAttribute("aria-busy")).toBe("true");
      expect(await page.getByRole("button", { name: "Login", exact: true }).count()).toBe(0);
      hold.release();
      await expect.poll(() => storedToken(page), { timeout: 20_000 }).not.toBeNull();
      const after = await page.evaluate(() => Date.now());
      const token = await storedToken(page);
      // saveSession stores "now + 1 h" (product.md §4): now lies between the click and the check.
      expect(token?.expirationTime).toBeGreaterThanOrEqual(before + TOKEN_LIFETIME_MS);
      expect(token?.expirationTime).toBeLessThanOrEqual(after + TOKEN_LIFETIME_MS);
      expect(TOKEN_LIFETIME_MS).toBe(3_600_000);
      await closePage(page);
    });

    it(`${label}: Submit is busy while the recovery mail is asked for (product.md §4)`, async () => {
      const page = await openPage(suite.browser, { viewport });
      const hold = holdRoute();
      await page.route("**/api/auth/forgot-password", hold.handler);
      await page.goto(`${suite.url}/login`);
      await page.getByRole("button", { name: "Forgot Password" }).click();
      await page.getByLabel("Email").fill("nobody-busy@example.com");
      await page.getByRole("button", { name: "Submit" }).click();
      await expect.poll(hold.held, { timeout: 20_000 }).toBe(1);
      const busy = page.getByRole("button", { name: "Sending..." });
      await busy.waitFor();
      expect(await busy.isDisabled()).toBe(true);
      expect(await busy.getAttribute("aria-busy")).toBe("true");
      hold.release();
      // The answer ends the busy state: the mode goes back to sign in or stays with Submit.
      await expect.poll(() => busy.count(), { timeout: 20_000 }).toBe(0);
      await closePage(page);
    });
  }

  it("checks the token every 180 s: none between, an extend at 180 s (product.md §4, 9)", async () => {
    const session = await demoSession(suite.url);
    const page = await openPage(suite.browser);
    const extended: number[] = [];
    page.on("request", (request) => {
      if (request.url().endsWith("/api/auth/extend")) extended.push(Date.now());
    });
    await page.clock.install();
    // After the clock's own script: records each interval the app starts, by the page's (fake) clock.
    await page.addInitScript(() => {
      const started: Array<{ at: number; delay: number }> = [];
      (window as unknown as { __intervals: typeof started }).__intervals = started;
      const original = window.setInterval.bind(window);
      window.setInterval = ((handler: TimerHandler, delay?: number, ...rest: unknown[]) => {
        started.push({ at: Date.now(), delay: delay ?? 0 });
        return original(handler, delay, ...rest);
      }) as typeof window.setInterval;
    });
    await page.goto(`${suite.url}/maintenance`);
    await storeSession(page, session);
    await page.goto(`${suite.url}/characters/list`);
    await page.getByRole("heading", { name: "My Characters" }).waitFor();
    const interval = async () =>
      (
        await page.evaluate(
          () => (window as unknown as { __intervals: Array<{ at: number; delay: number }> }).__intervals,
        )
      ).filter((entry) => entry.delay === TOKEN_CHECK_INTERVAL_MS);
    await expect.poll(async () => (await interval()).length).toBe(1);
    const mountedAt = (await interval())[0]!.at;
    // From now on any check extends: the token has just over the 5-minute margin left.
    await page.evaluate(
      ({ token, margin }) =>
        localStorage.setItem("token", JSON.stringify({ token, expirationTime: Date.now() + margin + 50 })),
      { token: session.token, margin: TOKEN_REFRESH_MARGIN_MS },
    );
    await page.clock.pauseAt(mountedAt + TOKEN_CHECK_INTERVAL_MS - 1000);
    await page.clock.runFor(999);
    // A request the timer had started would show within a few real milliseconds.
    await page.waitForTimeout(300);
    expect(extended).toEqual([]);
    expect(TOKEN_CHECK_INTERVAL_MS).toBe(180_000);
    await page.clock.runFor(1);
    await expect.poll(() => extended.length, { timeout: 10_000 }).toBe(1);
    await page.clock.resume();
    await expect
      .poll(
        async () =>
          ((await storedToken(page))?.expirationTime ?? 0) - (await page.evaluate(() => Date.now())),
      )
      .toBeGreaterThan(50 * 60_000);
    await closePage(page);
  });

  it("a failed extend ends the session: token and user removed, back to / (product.md §4, 8)", async () => {
    const session = await demoSession(suite.url);
    const page = await openPage(suite.browser);
    const errors = appErrors(page);
    let asked = 0;
    await page.route("**/api/auth/extend", (route) => {
      asked += 1;
      return route.abort("failed");
    });
    await page.goto(`${suite.url}/maintenance`);
    await storeSession(page, session, 120_000);
    await page.goto(`${suite.url}/characters/list`);
    await page.waitForURL((url) => url.pathname === "/", { timeout: 20_000 });
    expect(asked).toBe(1);
    expect(await page.evaluate(() => [localStorage.getItem("token"), localStorage.getItem("user")])).toEqual([
      null,
      null,
    ]);
    expect(errors.some((text) => text.startsWith("extend"))).toBe(true);
    // The server no longer accepts the token either (logout was called; the page does not wait
    // for its answer before it leaves, so the revocation may land a moment later).
    await expect
      .poll(
        async () =>
          (
            await fetch(`${suite.url}/api/users/profile/`, {
              headers: { authorization: `Bearer ${session.token}` },
            })
          ).status,
        { timeout: 10_000 },
      )
      .toBe(401);
    await closePage(page);
  });

  for (const [label, viewport] of [
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ] as const) {
    it(`${label}: a signed-in request that fails without an answer is only logged, no toast (product.md §8)`, async () => {
      const session = await demoSession(suite.url);
      const page = await openPage(suite.browser, { viewport });
      const errors = appErrors(page);
      let asked = 0;
      await page.route(
        (url) => url.pathname === "/api/characters/list/",
        (route) => {
          asked += 1;
          return route.abort("failed");
        },
      );
      await page.goto(`${suite.url}/maintenance`);
      await storeSession(page, session);
      await page.goto(`${suite.url}/characters/list`);
      await expect.poll(() => asked, { timeout: 20_000 }).toBeGreaterThan(0);
      await expect.poll(() => errors.length, { timeout: 10_000 }).toBeGreaterThan(0);
      // Give a toast the time to show (it would within a frame of the error being logged).
      await page.waitForTimeout(500);
      expect(await page.locator("[data-sonner-toast]").count()).toBe(0);
      expect(new URL(page.url()).pathname).toBe("/characters/list");
      expect(await storedToken(page)).not.toBeNull();
      await closePage(page);
    });
  }
});
