import type { Browser, BrowserContextOptions, Page } from "playwright-core";
import { afterAll, beforeAll } from "vitest";
import type { Envelope, LoginData } from "../../common/api";
import { startTestServer } from "../../server/testing/server";
import { launchBrowser, openPage, storeSession } from "./browser";

/** The listening test server of a browser test file (built SPA, temporary database). */
export type TestServer = Awaited<ReturnType<typeof startTestServer>>;

/** What a browser test file starts once: the server and Chromium. */
export interface BrowserSuite {
  /** @throws Error when the server did not start (the `beforeAll` failed). */
  readonly server: TestServer;
  /** @throws Error when Chromium did not start. */
  readonly browser: Browser;
  /** The server's base URL, e.g. `http://127.0.0.1:40123` (no trailing slash). */
  readonly url: string;
  /**
   * Creates a member with a password on the Free plan, lets `prepare` change the user's row
   * first (role, plan flags: they are in the session then), and signs in through the API.
   * @throws Error with the server's message when the sign-in fails.
   */
  member(email: string, password: string, prepare?: (userId: string) => Promise<void>): Promise<LoginData>;
  /**
   * A new page (own context, see `openPage`) signed in as `session` and showing `path`.
   * `beforeVisit` runs on the blank page first (e.g. to route outside hosts).
   */
  openSignedIn(
    session: LoginData,
    path: string,
    options?: { context?: BrowserContextOptions; beforeVisit?: (page: Page) => Promise<void> },
  ): Promise<Page>;
}

/** POST /api/auth/login with e-mail and password, as the login form sends it. */
export async function passwordLogin(
  url: string,
  email: string,
  password: string,
): Promise<Envelope<LoginData>> {
  const answer = await fetch(`${url}/api/auth/login`, {
    method: "POST",
    body: new URLSearchParams({ id: "", email, password }),
  });
  return (await answer.json()) as Envelope<LoginData>;
}

export interface BrowserSuiteOptions {
  /**
   * Server settings over `startTestServer`'s defaults. A function is called inside the
   * `beforeAll`, so it can use doubles that the file's own earlier `beforeAll` started.
   */
  env?: Record<string, string> | (() => Record<string, string>);
  /** Extra Chromium flags (fake camera or microphone); a function is called like `env`. */
  browserArgs?: string[] | (() => string[]);
}

/**
 * Starts the test server and Chromium (`launchBrowser`: every page fails its test on a
 * Content-Security-Policy violation) in a `beforeAll` of up to 120 s, and closes both in an
 * `afterAll`. Call it inside the file's `describe`, after any `beforeAll` that starts a double
 * the settings point at: hooks run in the order they are registered, and `afterAll` hooks in
 * reverse, so the browser and server close before those doubles.
 */
export function useBrowserSuite(options: BrowserSuiteOptions = {}): BrowserSuite {
  let server: TestServer | undefined;
  let browser: Browser | undefined;

  beforeAll(async () => {
    const env = typeof options.env === "function" ? options.env() : options.env;
    const args = typeof options.browserArgs === "function" ? options.browserArgs() : options.browserArgs;
    await Promise.all([
      // The screens are under test here: an answer that breaks its response schema is logged, not a 500
      // (the API suites fail on it).
      startTestServer({ env: { API_CHECK_RESPONSES: "log", ...env } }).then((started) => {
        server = started;
      }),
      launchBrowser(args).then((started) => {
        browser = started;
      }),
    ]);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  return {
    get server() {
      if (server === undefined) throw new Error("server did not start");
      return server;
    },
    get browser() {
      if (browser === undefined) throw new Error("browser did not start");
      return browser;
    },
    get url() {
      return this.server.url;
    },
    async member(email, password, prepare) {
      const userId = await this.server.createMember(email, password);
      await prepare?.(userId);
      const envelope = await passwordLogin(this.url, email, password);
      if (envelope.success !== 1 || envelope.data === undefined) throw new Error(envelope.message);
      return envelope.data;
    },
    async openSignedIn(session, path, options = {}) {
      const page = await openPage(this.browser, options.context);
      await options.beforeVisit?.(page);
      await page.goto(`${this.url}/maintenance`);
      await storeSession(page, session);
      await page.goto(`${this.url}${path}`);
      return page;
    },
  };
}
