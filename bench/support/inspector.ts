// A page measured as a user's browser runs it: without the stack traces Playwright's DevTools session makes V8 record for every Error.
import { chromium, type Page } from "playwright-core";

/** Playwright's own objects behind a page, reached through its in-process connection (not a public API). */
interface PlaywrightInternals {
  _connection?: {
    toImpl?: (page: Page) => {
      delegate?: {
        _mainFrameSession?: { _client?: { send(method: string, params: object): Promise<unknown> } };
      };
    };
  };
}

/**
 * Stops the page's DevTools session from capturing a detailed stack trace (with line and column)
 * for every Error the page creates.
 *
 * Playwright enables the `Runtime` domain on its own session of each page; from then on V8 records,
 * for each `new Error()`, where every frame on the stack is, and finding a position in a function
 * compiled without its position table makes V8 parse that function again. React DOM builds its
 * Errors (the Suspense signals) while its client module's function runs, most of React's 219 kB
 * chunk, so loading the app afresh paid one task of 150-220 ms at 4x CPU for that parse alone,
 * which a browser without DevTools attached never does
 * (docs/benchmarks.md, "The page loaded afresh, measured without DevTools' stack traces").
 * `Runtime.setMaxCallStackSizeToCapture` with size 0, sent on Playwright's session (V8 takes the
 * largest size any session asked for), turns the capture off.
 * @returns false when Playwright's internals are not where this version keeps them (the page then
 *   keeps paying for the capture; the caller says so).
 */
export async function withoutInspectorStackTraces(page: Page): Promise<boolean> {
  const session = (chromium as unknown as PlaywrightInternals)._connection?.toImpl?.(page)?.delegate
    ?._mainFrameSession?._client;
  if (session === undefined) return false;
  await session.send("Runtime.setMaxCallStackSizeToCapture", { size: 0 });
  return true;
}
