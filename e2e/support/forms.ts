import type { Page } from "playwright-core";

/** What the browser tests read back from the page's own requests. */

/** Field name → text, or `file:<name>` for a file: what the page last sent as FormData, by path. */
export type SentForms = Record<string, Record<string, string>>;

/**
 * Wraps the page's fetch to record the FormData bodies it sends (Chromium does not report
 * multipart bodies that hold a file to the test). Read them with `sentForm`.
 */
export function recordForms(page: Page): Promise<void> {
  return page.evaluate(() => {
    const store = window as unknown as { sentForms?: SentForms };
    if (store.sentForms !== undefined) return;
    const forms: SentForms = {};
    store.sentForms = forms;
    const original = window.fetch.bind(window);
    window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
      if (init?.body instanceof FormData) {
        const href = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
        const entries = [...init.body.entries()].map(([key, value]) => [
          key,
          typeof value === "string" ? value : `file:${value.name}`,
        ]);
        forms[new URL(href, window.location.href).pathname] = Object.fromEntries(entries);
      }
      return original(input, init);
    };
  });
}

/** The FormData last sent to `path` (see `recordForms`), or null. */
export function sentForm(page: Page, path: string): Promise<Record<string, string> | null> {
  return page.evaluate(
    (target) => (window as unknown as { sentForms?: SentForms }).sentForms?.[target] ?? null,
    path,
  );
}
