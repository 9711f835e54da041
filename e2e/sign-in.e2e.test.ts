import { OAuth2Server } from "oauth2-mock-server";
import type { BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMailCatcher } from "../server/testing/mail";
import {
  closePage,
  expectRed,
  expectToast,
  hasChromium,
  json,
  LOGIN_SUCCESS,
  openPage,
  PUBLIC_WARNING,
  SUCCESS,
  toastWith,
} from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * Every sign-in route and the account recovery in Chromium against the real server (product.md §2
 * "Login", "Change Password"; product.md §4, 5, 8): password, demo, device and YouTube sign-in with
 * the success video and the 4 s toast, failures with the forbidden art, and forgot password →
 * e-mail (in-process SMTP catcher) → reset link → new password → sign in. The YouTube provider
 * is a local OAuth 2.0 server (oauth2-mock-server); the server's public address is a fake host
 * that a browser route forwards to the test server.
 */

if (!hasChromium) console.warn("sign-in e2e skipped: no Chromium found (set CHROMIUM_PATH)");

const PUBLIC_URL = "http://companion.test";

describe.skipIf(!hasChromium)("sign-in and account recovery in Chromium", () => {
  let mail: Awaited<ReturnType<typeof startMailCatcher>> | undefined;
  const provider = new OAuth2Server();
  /** What the provider's userinfo answers for the next sign-in. */
  let identity: Record<string, unknown> = {};

  beforeAll(async () => {
    await provider.issuer.keys.generate("RS256");
    await provider.start(0, "127.0.0.1");
    provider.service.on("beforeUserinfo", (response: { body: unknown }) => {
      response.body = identity;
    });
    mail = await startMailCatcher();
  });

  afterAll(async () => {
    await mail?.close();
    await provider.stop();
  });

  const suite = useBrowserSuite({
    env: () => {
      const issuer = provider.issuer.url ?? "";
      return {
        LLM_PROVIDER: "none",
        SMTP_URL: mail?.smtpUrl ?? "",
        PUBLIC_URL,
        OAUTH_YOUTUBE_CLIENT_ID: "companion-client",
        OAUTH_YOUTUBE_CLIENT_SECRET: "companion-secret",
        OAUTH_YOUTUBE_AUTHORIZE_URL: `${issuer}/authorize`,
        OAUTH_YOUTUBE_TOKEN_URL: `${issuer}/token`,
        OAUTH_YOUTUBE_USERINFO_URL: `${issuer}/userinfo`,
      };
    },
  });

  const base = (): string => suite.url;

  /** A page whose visits to the public address land on the test server. */
  const open = async (options?: BrowserContextOptions): Promise<Page> => {
    const { browser } = suite;
    const page = await openPage(browser, options);
    await page.context().route(`${PUBLIC_URL}/**`, (route) => {
      const url = new URL(route.request().url());
      return route.fulfill({ status: 302, headers: { location: `${base()}${url.pathname}${url.search}` } });
    });
    return page;
  };
  const catcher = () => {
    if (mail === undefined) throw new Error("mail catcher did not start");
    return mail;
  };

  /** Creates a member account through the YouTube OAuth flow, outside the browser. */
  const memberViaYouTube = async (email: string): Promise<void> => {
    identity = { sub: `sub-${email}`, email, email_verified: true, name: "Test Member" };
    const start = await fetch(`${base()}/api/auth/oauth/youtube/start`, { redirect: "manual" });
    const authorize = await fetch(start.headers.get("location") ?? "", { redirect: "manual" });
    const back = new URL(authorize.headers.get("location") ?? "");
    // The browser that started the flow posts the callback with its binding cookie.
    const cookie = (start.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const answer = await fetch(`${base()}/api/youtube/callback`, {
      method: "POST",
      headers: { cookie },
      body: new URLSearchParams({
        code: back.searchParams.get("code") ?? "",
        state: back.searchParams.get("state") ?? "",
      }),
    });
    expect(((await answer.json()) as { success: number }).success).toBe(1);
  };

  /** The success state of product.md §2/4: the video replaces the picture and is playing or played. */
  const expectSuccessVideo = async (page: Page): Promise<void> => {
    const video = page.getByLabel("Signed in");
    await video.waitFor();
    expect(await video.evaluate((element) => element.tagName)).toBe("VIDEO");
    await expect
      .poll(() => video.evaluate((element) => (element as HTMLVideoElement).currentTime), { timeout: 5000 })
      .toBeGreaterThan(0);
    expect(await page.getByRole("img", { name: "Access forbidden" }).count()).toBe(0);
  };

  /** The signed-in landing after the 4 s toast: still on the login route until it goes away. */
  const expectLanding = async (page: Page, message: string, loginPath: string): Promise<void> => {
    const toastShown = expectToast(page, message, LOGIN_SUCCESS);
    await page.waitForURL(/\/characters\/(selection|list)$/, { timeout: 20_000 });
    // By the page's own clock (a loaded machine only makes it later): the route left the login
    // screen no sooner than the toast's 4 s after it showed.
    const waited = await page.evaluate(
      ({ text, from }) => {
        const seen = window as unknown as {
          __toasts: Array<{ node: Element; shown: number }>;
          __routes: Array<{ path: string; at: number }>;
        };
        const toast = seen.__toasts.find((entry) => (entry.node.textContent ?? "").includes(text));
        const left = seen.__routes.find((route) => route.path !== from && route.at >= (toast?.shown ?? 0));
        return toast && left ? left.at - toast.shown : -1;
      },
      { text: message, from: loginPath },
    );
    expect(waited).toBeGreaterThanOrEqual(LOGIN_SUCCESS.durationMs - 500);
    await toastShown;
    expect(await page.evaluate(() => localStorage.getItem("token"))).not.toBeNull();
  };

  it("switches between Member Sign in and Recover Password and flags blank fields", async () => {
    const page = await open();
    await page.goto(`${base()}/login`);
    await page.getByRole("heading", { name: "Member Sign in" }).waitFor();
    expect(await page.getByRole("link", { name: "Sign in with YouTube" }).getAttribute("href")).toBe(
      "/api/auth/oauth/youtube/start",
    );
    await page.getByRole("button", { name: "Login" }).click();
    await expectRed(page.getByLabel("Email"), true);
    await expectRed(page.getByLabel("Password"), true);
    await page.getByLabel("Password").fill("x");
    await expectRed(page.getByLabel("Password"), false);
    await page.getByLabel("Password").fill("");
    await expectRed(page.getByLabel("Password"), true);

    await page.getByRole("button", { name: "Forgot Password" }).click();
    await page.getByRole("heading", { name: "Recover Password" }).waitFor();
    expect(await page.getByLabel("Password", { exact: true }).count()).toBe(0);
    await page.getByRole("button", { name: "Submit" }).click();
    await expectRed(page.getByLabel("Email"), true);
    await page.getByRole("button", { name: "Login to account" }).click();
    await page.getByRole("heading", { name: "Member Sign in" }).waitFor();
    await closePage(page);
  });

  it("forgot password → e-mail → reset link → new password → sign in", async () => {
    const email = `member-${Date.now()}@example.com`;
    await memberViaYouTube(email);
    const page = await open();
    await page.goto(`${base()}/login`);
    await page.getByRole("button", { name: "Forgot Password" }).click();
    await page.getByLabel("Email").fill(email);
    const forgot = page.waitForResponse((response) => response.url().endsWith("/api/auth/forgot-password"));
    await page.getByRole("button", { name: "Submit" }).click();
    const forgotAnswer = (await (await forgot).json()) as { success: number; message: string };
    expect(forgotAnswer.success).toBe(1);
    const forgotToast = expectToast(page, forgotAnswer.message, SUCCESS);
    // Back in sign-in mode after the request.
    await page.getByRole("heading", { name: "Member Sign in" }).waitFor();
    await forgotToast;

    const message = await catcher().waitFor((m) => m.to.includes(email) && /reset/i.test(m.subject));
    const link = /https?:\/\/\S+\/reset-password\/[\w-]+/.exec(message.text)?.[0];
    if (link === undefined) throw new Error(`no reset link in: ${message.text}`);
    const resetPath = new URL(link).pathname;

    await page.goto(`${base()}${resetPath}`);
    await page.getByRole("heading", { name: "Change Password" }).waitFor();
    const newPassword = page.getByLabel("New Password");
    const confirm = page.getByLabel("Confirm Password");
    const reset = page.getByRole("button", { name: "Reset" });
    let patches = 0;
    page.on("request", (request) => {
      if (request.url().endsWith("/api/users/change-password")) patches += 1;
    });
    await reset.click();
    await expectRed(newPassword, true);
    await expectRed(confirm, true);
    await newPassword.fill("a-new-Secret-42");
    await confirm.fill("a-different-one");
    await reset.click();
    await expectToast(page, "New and Confirm password do not match.", PUBLIC_WARNING);
    expect(patches).toBe(0);

    await confirm.fill("a-new-Secret-42");
    const change = page.waitForResponse((response) => response.url().endsWith("/api/users/change-password"));
    await reset.click();
    const changeAnswer = (await (await change).json()) as { success: number; message: string; page: string };
    expect(changeAnswer).toMatchObject({ success: 1, page: "/login" });
    expect((await change).request().method()).toBe("PATCH");
    await expectToast(page, changeAnswer.message, SUCCESS);
    await page.waitForURL("**/login");

    // The link works once: the server's refusal is shown as it is.
    await page.goto(`${base()}${resetPath}`);
    await page.getByLabel("New Password").fill("another-Secret-43");
    await page.getByLabel("Confirm Password").fill("another-Secret-43");
    const used = page.waitForResponse((response) => response.url().endsWith("/api/users/change-password"));
    await page.getByRole("button", { name: "Reset" }).click();
    const usedAnswer = await used;
    expect(usedAnswer.status()).toBe(400);
    const usedBody = (await usedAnswer.json()) as { message: string };
    await toastWith(page, usedBody.message).waitFor();
    expect(await toastWith(page, usedBody.message).getAttribute("data-type")).toBe("warning");

    // Sign in with the new password.
    await page.goto(`${base()}/login`);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("a-new-Secret-42");
    const login = page.waitForResponse((response) => response.url().endsWith("/api/auth/login"));
    await page.getByRole("button", { name: "Login" }).click();
    const loginAnswer = (await (await login).json()) as { success: number; message: string };
    expect(loginAnswer.success).toBe(1);
    await expectSuccessVideo(page);
    await expectLanding(page, loginAnswer.message, "/login");
    await closePage(page);
  }, 90_000);

  it("reset password: a network failure shows 'Failed to change password. Please try again.'", async () => {
    const page = await open();
    await page.route("**/api/users/change-password", (route) => route.abort("failed"));
    await page.goto(`${base()}/reset-password/${"x".repeat(43)}`);
    await page.getByLabel("New Password").fill("some-Secret-44");
    await page.getByLabel("Confirm Password").fill("some-Secret-44");
    await page.getByRole("button", { name: "Reset" }).click();
    await toastWith(page, "Failed to change password. Please try again.").waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/reset-password\//);
    await closePage(page);
  });

  it("a failed password sign-in shows the server message and the forbidden art", async () => {
    const page = await open();
    await page.goto(`${base()}/login`);
    await page.getByLabel("Email").fill("nobody@example.com");
    await page.getByLabel("Password").fill("wrong password");
    await page.getByRole("button", { name: "Login" }).click();
    await page.getByRole("img", { name: "Access forbidden" }).waitFor();
    await expectToast(page, "Invalid email or password.", PUBLIC_WARNING);
    expect(new URL(page.url()).pathname).toBe("/login");
    await closePage(page);
  });

  it("demo login (/login/demo): busy 'Enjoy..', success video, 4 s toast top-right, then the server's page", async () => {
    const page = await open();
    // The sign-in call is held until the busy state has been checked (not a fixed delay that a
    // loaded machine can outlast).
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/api/auth/demo-login", async (route) => {
      await held;
      await route.continue();
    });
    const answer = page.waitForResponse((response) => response.url().endsWith("/api/auth/demo-login"));
    await page.goto(`${base()}/login/demo`);
    const enjoy = page.getByRole("button", { name: "Enjoy.." });
    await enjoy.waitFor();
    expect(await enjoy.getAttribute("aria-busy")).toBe("true");
    expect(await enjoy.isDisabled()).toBe(true);
    expect(await page.getByLabel("Email").count()).toBe(0);
    release();
    const body = (await (await answer).json()) as { success: number; message: string };
    expect(body.success).toBe(1);
    await expectSuccessVideo(page);
    await expectLanding(page, body.message, "/login/demo");
    await closePage(page);
  });

  it("device login runs by itself for a CompanionDevice/<id> user agent", async () => {
    // Guests get no devices: a member registers one.
    await suite.server.createMember("device-e2e@example.com", "device password 1");
    const signedIn = await fetch(`${base()}/api/auth/login`, {
      method: "POST",
      body: new URLSearchParams({ email: "device-e2e@example.com", password: "device password 1" }),
    });
    const session = ((await signedIn.json()) as { data: { token: string } }).data;
    const registered = await fetch(`${base()}/api/auth/devices`, {
      method: "POST",
      headers: { Authorization: `Bearer ${session.token}` },
      body: new URLSearchParams({ name: "e2e phone" }),
    });
    const { data } = (await registered.json()) as { data: { userAgentMarker: string } };
    const userAgent = `Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36 ${data.userAgentMarker}`;

    const page = await open({ userAgent });
    const request = page.waitForRequest((r) => r.url().endsWith("/api/auth/device-login"));
    const answer = page.waitForResponse((r) => r.url().endsWith("/api/auth/device-login"));
    await page.goto(`${base()}/login`);
    expect((await request).postData()).toBe(
      new URLSearchParams({ id: data.userAgentMarker.replace("CompanionDevice/", "") }).toString(),
    );
    const body = (await (await answer).json()) as { success: number; message: string };
    expect(body.success).toBe(1);
    await expectSuccessVideo(page);
    await expectLanding(page, body.message, "/login");
    await closePage(page);

    // An unknown device: the server's message, the forbidden art, and the forms come back.
    const stranger = await open({
      userAgent: `${userAgent.split(" CompanionDevice/")[0]} CompanionDevice/${"z".repeat(32)}`,
    });
    const refused = stranger.waitForResponse((r) => r.url().endsWith("/api/auth/device-login"));
    await stranger.goto(`${base()}/login`);
    const refusal = (await (await refused).json()) as { success: number; message: string };
    expect(refusal.success).toBe(0);
    await stranger.getByRole("img", { name: "Access forbidden" }).waitFor();
    await expectToast(stranger, refusal.message, PUBLIC_WARNING);
    await stranger.getByRole("button", { name: "Login" }).waitFor();
    await closePage(stranger);
  }, 60_000);

  it("Sign in with YouTube: full navigation to the provider and back, then signed in", async () => {
    const page = await open();
    identity = {
      sub: `yt-${Date.now()}`,
      email: `yt-${Date.now()}@example.com`,
      email_verified: true,
      name: "Fan",
    };
    await page.goto(`${base()}/login`);
    const callback = page.waitForResponse((r) => r.url().endsWith("/api/youtube/callback"), {
      timeout: 20_000,
    });
    await page.getByRole("link", { name: "Sign in with YouTube" }).click();
    await page.waitForURL(/\/login\/youtube\?code=.+&state=.+/);
    const body = (await (await callback).json()) as { success: number; message: string };
    expect(body.success).toBe(1);
    await expectSuccessVideo(page);
    await expectLanding(page, body.message, "/login/youtube");
    await closePage(page);
  });

  it("a refused YouTube callback shows the server's message and the forbidden art", async () => {
    const page = await open();
    const refused = page.waitForResponse((r) => r.url().endsWith("/api/youtube/callback"));
    await page.goto(`${base()}/login/youtube?code=some-code&state=never-issued-state`);
    const answer = await refused;
    expect(answer.status()).toBe(400);
    const { message } = (await answer.json()) as { message: string };
    // Both at once: on a loaded machine the toast's few seconds may pass while the art loads.
    await Promise.all([
      page.getByRole("img", { name: "Access forbidden" }).waitFor(),
      toastWith(page, message).waitFor(),
    ]);
    await page.getByRole("heading", { name: "Member Sign in" }).waitFor();
    await closePage(page);
  });

  it("recover password: a refusal (HTTP 429) is shown and the screen stays in recover mode", async () => {
    const page = await open();
    await page.route("**/api/auth/forgot-password", (route) =>
      json(route, 429, { success: 0, message: "Too many attempts. Please wait a few minutes." }),
    );
    await page.goto(`${base()}/login`);
    await page.getByRole("button", { name: "Forgot Password" }).click();
    await page.getByLabel("Email").fill("someone@example.com");
    await page.getByRole("button", { name: "Submit" }).click();
    await toastWith(page, "Too many attempts. Please wait a few minutes.").waitFor();
    await page.getByRole("heading", { name: "Recover Password" }).waitFor();
    await closePage(page);
  });
});
