import {
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  chromium,
  type Locator,
  type Page,
  type Route,
} from "playwright-core";
import { afterEach, expect } from "vitest";
import type { LoginData } from "../../common/api";
import { CHROMIUM } from "./chromium";

/**
 * Shared pieces of the browser tests: one Chromium per test file, pages that log their
 * errors, JSON route answers, an API sign-in, and the toast checks of product.md §8.
 */

export { CHROMIUM, hasChromium } from "./chromium";

/**
 * Content-Security-Policy violations reported by pages of this test file: every page
 * of a browser started by `launchBrowser` reports them, and the test during which one happened
 * fails (see the `afterEach` below).
 */
const cspViolations: string[] = [];
const CSP_MARKER = "[csp-violation]";

/** Makes every page of `context` report CSP violations into `cspViolations`. */
async function watchCsp(context: BrowserContext): Promise<void> {
  await context.addInitScript((marker: string) => {
    document.addEventListener("securitypolicyviolation", (event) => {
      console.error(
        `${marker} ${event.effectiveDirective} blocked ${event.blockedURI} on ${location.pathname}`,
      );
    });
  }, CSP_MARKER);
  context.on("console", (message) => {
    if (message.text().startsWith(CSP_MARKER)) cspViolations.push(message.text());
  });
}

/**
 * Takes the CSP violations seen so far in this test, so a test that attacks on purpose (an
 * inline handler in admin HTML) can assert that the policy blocked it instead of failing.
 */
export function takeCspViolations(): string[] {
  return cspViolations.splice(0);
}

afterEach(() => {
  const seen = cspViolations.splice(0);
  expect(seen, "Content-Security-Policy violations in the page").toEqual([]);
});

/**
 * Starts headless Chromium the way every e2e file does (`extraArgs`: e.g. the fake camera and
 * microphone flags). Every context and page it opens reports CSP violations, which fail the test.
 */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", ...extraArgs],
  });
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options?: BrowserContextOptions) => {
    const context = await newContext(options);
    await watchCsp(context);
    return context;
  };
  // browser.newPage opens its own context: give it the watcher too.
  browser.newPage = async (options?: BrowserContextOptions) => {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    page.once("close", () => void context.close().catch(() => {}));
    return page;
  };
  return browser;
}

export const VIEWPORT = { width: 1024, height: 800 };

/**
 * Records, inside the page, when each sonner toast is added and removed (performance.now) in
 * `window.__toasts`, and each client-side route change in `window.__routes`, so durations are
 * measured by the page's own clock, not by the slower test driver.
 */
export async function installToastRecorder(context: BrowserContext): Promise<void> {
  await context.addInitScript(() => {
    type Entry = { node: Element; shown: number; hidden: number | null };
    const log: Entry[] = [];
    (window as unknown as { __toasts: Entry[] }).__toasts = log;
    const toastsIn = (node: Node): Element[] =>
      node instanceof Element
        ? [
            ...(node.matches("[data-sonner-toast]") ? [node] : []),
            ...node.querySelectorAll("[data-sonner-toast]"),
          ]
        : [];
    new MutationObserver((mutations) => {
      const now = performance.now();
      for (const mutation of mutations) {
        for (const added of mutation.addedNodes)
          for (const node of toastsIn(added)) log.push({ node, shown: now, hidden: null });
        for (const removed of mutation.removedNodes) {
          for (const node of toastsIn(removed)) {
            const entry = log.find((e) => e.node === node && e.hidden === null);
            if (entry) entry.hidden = now;
          }
        }
      }
    }).observe(document, { childList: true, subtree: true });
    // Client-side route changes, by the same clock: { path, at } per pushState/replaceState.
    const routes: Array<{ path: string; at: number }> = [];
    (window as unknown as { __routes: typeof routes }).__routes = routes;
    for (const method of ["pushState", "replaceState"] as const) {
      const original = history[method].bind(history);
      history[method] = (data: unknown, unused: string, url?: string | URL | null) => {
        original(data, unused, url);
        routes.push({ path: location.pathname, at: performance.now() });
      };
    }
  });
}

/** A fresh context and page (own storage) with page errors printed to the test log. */
export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<Page> {
  const context = await browser.newContext({ viewport: VIEWPORT, ...options });
  await installToastRecorder(context);
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error("[page error]", error.message));
  return page;
}

/** Closes a page opened with `openPage`, with its context. */
export async function closePage(page: Page): Promise<void> {
  await page.context().close();
}

/** Answers an intercepted request with a JSON body. */
export function json(route: Route, status: number, body: unknown): Promise<void> {
  return route.fulfill({ status, contentType: "application/json", body: JSON.stringify(body) });
}

/** A request hold of {@link holdRoute}: its route handler, its release, and how many it holds. */
export interface RouteHold {
  handler: (route: Route) => Promise<void>;
  /** Lets every held request (and any later one) go on. */
  release: () => void;
  /** How many requests reached the handler so far. */
  held: () => number;
}

/**
 * A route handler (for `page.route`) that holds each request until `release()`, then lets it go
 * on to the server (`then` "continue", the default) or fails it as a network error ("abort").
 */
export function holdRoute(then: "continue" | "abort" = "continue"): RouteHold {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let count = 0;
  return {
    handler: async (route) => {
      count += 1;
      await released;
      if (then === "abort") await route.abort("failed");
      else await route.continue();
    },
    release: () => release(),
    held: () => count,
  };
}

/**
 * Collects the app's own console errors (what product.md §8 calls "logged") from now on, without
 * Chromium's "Failed to load resource" lines that any failed request prints by itself.
 * @returns the list, filled as errors arrive.
 */
export function appErrors(page: Page): string[] {
  const seen: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource"))
      seen.push(message.text());
  });
  return seen;
}

export { demoSession } from "./demo";

/** Stores a session in the page's local storage the way the SPA does (keys token and user). */
export async function storeSession(page: Page, data: LoginData, expiresInMs = 3_600_000): Promise<void> {
  await page.evaluate(
    ({ session, expiresIn }) => {
      localStorage.setItem(
        "token",
        JSON.stringify({ token: session.token, expirationTime: Date.now() + expiresIn }),
      );
      localStorage.setItem("user", JSON.stringify(session.user));
    },
    { session: data, expiresIn: expiresInMs },
  );
}

/** product.md §8 toast placement and lifetime. */
export interface ToastRule {
  type: "success" | "warning";
  x: "right";
  y: "top" | "bottom";
  durationMs: number;
}

export const PUBLIC_WARNING: ToastRule = { type: "warning", x: "right", y: "bottom", durationMs: 3000 };
/** product.md §8: warnings in the signed-in area sit bottom-right for 2 s. */
export const SIGNED_IN_WARNING: ToastRule = { type: "warning", x: "right", y: "bottom", durationMs: 2000 };
export const SUCCESS: ToastRule = { type: "success", x: "right", y: "top", durationMs: 2000 };
export const LOGIN_SUCCESS: ToastRule = { type: "success", x: "right", y: "top", durationMs: 4000 };

/** The sonner toast that shows `text`. */
export function toastWith(page: Page, text: string): Locator {
  return page.locator("[data-sonner-toast]").filter({ hasText: text });
}

/**
 * Waits for the toast with `text` and checks product.md §8: its type, its corner (the toaster's
 * data-x/y-position and the toast's box on screen), that it is still shown shortly before
 * `durationMs` and that it is gone soon after. Returns how long it stayed (ms).
 */
export async function expectToast(page: Page, text: string, rule: ToastRule): Promise<number> {
  const toast = toastWith(page, text);
  await toast.first().waitFor({ state: "visible", timeout: 15_000 });
  expect(await toast.count()).toBe(1);
  expect(await toast.getAttribute("data-type")).toBe(rule.type);
  const corner = await toast.evaluate((element) => {
    const toaster = element.closest("[data-sonner-toaster]");
    return { x: toaster?.getAttribute("data-x-position"), y: toaster?.getAttribute("data-y-position") };
  });
  expect(corner).toEqual({ x: rule.x, y: rule.y });
  const box = await toast.boundingBox();
  if (box === null) throw new Error(`toast '${text}' has no box`);
  const viewport = page.viewportSize() ?? VIEWPORT;
  expect(box.x + box.width / 2).toBeGreaterThan(viewport.width / 2);
  if (rule.y === "top") expect(box.y + box.height / 2).toBeLessThan(viewport.height / 2);
  else expect(box.y + box.height / 2).toBeGreaterThan(viewport.height / 2);

  // Gone after its time (sonner's exit animation takes about 0.2 s)…
  await expect.poll(() => toast.count(), { timeout: rule.durationMs + 5000, interval: 100 }).toBe(0);
  // …and it stayed for its duration, by the page's own clock (the recorder of installToastRecorder).
  const shownFor = await page.evaluate((wanted) => {
    const log = (
      window as unknown as { __toasts?: Array<{ node: Element; shown: number; hidden: number | null }> }
    ).__toasts;
    if (!log) throw new Error("toast recorder missing: open the page with openPage()");
    const entry = [...log]
      .reverse()
      .find((e) => e.hidden !== null && (e.node.textContent ?? "").includes(wanted));
    return entry ? entry.hidden! - entry.shown : -1;
  }, text);
  expect(shownFor).toBeGreaterThanOrEqual(rule.durationMs - 250);
  expect(shownFor).toBeLessThan(rule.durationMs + 1500);
  return shownFor;
}

/** The red "required" state of product.md §5: aria-invalid and a red border (#ff6b6b). */
export async function isFlaggedRed(field: Locator): Promise<boolean> {
  const invalid = await field.getAttribute("aria-invalid");
  const border = await field.evaluate((element) => getComputedStyle(element).borderTopColor);
  return invalid === "true" && border === "rgb(255, 107, 107)";
}

/** Waits until `field` is (or is not) flagged red; the border colour eases in over 0.15 s. */
export async function expectRed(field: Locator, red: boolean): Promise<void> {
  await expect.poll(() => isFlaggedRed(field), { timeout: 2000, interval: 50 }).toBe(red);
}
