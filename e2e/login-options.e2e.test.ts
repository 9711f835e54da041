import type { Page } from "playwright-core";
import { describe, expect, it } from "vitest";
import { closePage, hasChromium, openPage } from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * The login screen's options in a default install and in a configured one (product.md §2
 * "Login"), on a phone and a desktop: "Sign in with YouTube" shows only when the server has OAuth
 * configured, and `/login/{id}` signs in with the device when the user agent carries the
 * `CompanionDevice/<id>` marker (demo login otherwise).
 */

if (!hasChromium) console.warn("login-options e2e skipped: no Chromium found (set CHROMIUM_PATH)");

const VIEWPORTS = [
  ["phone", { width: 375, height: 812 }],
  ["desktop", { width: 1280, height: 800 }],
] as const;
/** Generous: the suite runs on a loaded 2-core machine; no step is timed, each waits for a state. */
const TIMEOUT_MS = 90_000;
const ANDROID =
  "Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36";

/** Opens /login and waits until the server has said which OAuth sign-ins it offers. */
async function openLogin(page: Page, base: string): Promise<string[]> {
  const answer = page.waitForResponse((r) => r.url().endsWith("/api/auth/oauth/platforms"));
  await page.goto(`${base}/login`);
  await page.getByRole("heading", { name: "Member Sign in" }).waitFor();
  const body = (await (await answer).json()) as { data: { platforms: string[] } };
  return body.data.platforms;
}

describe.skipIf(!hasChromium)("login options in a default install (no OAuth)", () => {
  const suite = useBrowserSuite({ env: { LLM_PROVIDER: "none" } });

  for (const [name, viewport] of VIEWPORTS) {
    it(
      `${name}: no 'Sign in with YouTube' when OAuth is not configured`,
      async () => {
        const page = await openPage(suite.browser, { viewport });
        expect(await openLogin(page, suite.url)).toEqual([]);
        await page.getByRole("button", { name: "Login" }).waitFor();
        // The form has rendered the server's answer (not merely the state before it arrived).
        await page.locator('form[data-sign-in-options="ready"]').waitFor();
        expect(await page.getByRole("link", { name: "Sign in with YouTube" }).count()).toBe(0);
        await closePage(page);
      },
      TIMEOUT_MS,
    );

    it(
      `${name}: /login/{id} signs in with the device when the agent carries the marker`,
      async () => {
        const email = `device-${name}@example.com`;
        const member = await suite.member(email, "device password 1");
        const registered = await fetch(`${suite.url}/api/auth/devices`, {
          method: "POST",
          headers: { Authorization: `Bearer ${member.token}` },
          body: new URLSearchParams({ name: `${name} wrapper` }),
        });
        const { data } = (await registered.json()) as { data: { deviceId: string; userAgentMarker: string } };

        const page = await openPage(suite.browser, {
          viewport,
          userAgent: `${ANDROID} ${data.userAgentMarker}`,
        });
        const request = page.waitForRequest((r) => /\/api\/auth\/(device|demo)-login$/.test(r.url()));
        await page.goto(`${suite.url}/login/demo`);
        const sent = await request;
        expect(new URL(sent.url()).pathname).toBe("/api/auth/device-login");
        expect(sent.postData()).toBe(new URLSearchParams({ id: data.deviceId }).toString());
        // While it runs the forms are hidden (product.md §2); then the member, not a demo guest, is signed in.
        expect(await page.getByRole("heading", { name: "Member Sign in" }).count()).toBe(0);
        await page.getByLabel("Signed in").waitFor();
        await expect
          .poll(() => page.evaluate(() => JSON.parse(localStorage.getItem("user") ?? "{}").id), {
            timeout: 15_000,
          })
          .toBe(member.user.id);
        await closePage(page);
      },
      TIMEOUT_MS,
    );

    it(
      `${name}: /login/{id} without the marker is still a demo login`,
      async () => {
        const page = await openPage(suite.browser, { viewport, userAgent: ANDROID });
        const request = page.waitForRequest((r) => /\/api\/auth\/(device|demo)-login$/.test(r.url()));
        await page.goto(`${suite.url}/login/demo`);
        expect(new URL((await request).url()).pathname).toBe("/api/auth/demo-login");
        await closePage(page);
      },
      TIMEOUT_MS,
    );
  }
});

describe.skipIf(!hasChromium)("login options with OAuth configured", () => {
  // Configured, never visited: the test only reads the button, it does not follow it.
  const suite = useBrowserSuite({
    env: {
      LLM_PROVIDER: "none",
      OAUTH_YOUTUBE_CLIENT_ID: "companion-client",
      OAUTH_YOUTUBE_CLIENT_SECRET: "companion-secret",
      OAUTH_YOUTUBE_AUTHORIZE_URL: "http://127.0.0.1:9/authorize",
      OAUTH_YOUTUBE_TOKEN_URL: "http://127.0.0.1:9/token",
      OAUTH_YOUTUBE_USERINFO_URL: "http://127.0.0.1:9/userinfo",
    },
  });

  for (const [name, viewport] of VIEWPORTS) {
    it(
      `${name}: 'Sign in with YouTube' leads to the server's OAuth start`,
      async () => {
        const page = await openPage(suite.browser, { viewport });
        expect(await openLogin(page, suite.url)).toEqual(["youtube"]);
        const link = page.getByRole("link", { name: "Sign in with YouTube" });
        await link.waitFor();
        expect(await link.getAttribute("href")).toBe("/api/auth/oauth/youtube/start");
        expect(await link.isVisible()).toBe(true);
        await closePage(page);
      },
      TIMEOUT_MS,
    );
  }
});
