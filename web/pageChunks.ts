// Loading the pages' chunks with their catalogues, and the chat screen's chunk ahead of a tap.
import { APP_NAMESPACES, loadNamespaces } from "./i18n";

/**
 * `load` (a page's chunk) together with the catalogues `namespaces` in the current language, so
 * the page renders with its texts (only the common, public and auth catalogues
 * are in the entry chunk).
 */
export function withTexts<T>(load: Promise<T>, namespaces: readonly string[]): Promise<T> {
  return Promise.all([load, loadNamespaces(namespaces)]).then(([module]) => module);
}

/** Runs `task` once the page is idle (at most 3 s later; 1 s later where the browser has no idle callback). */
export function whenIdle(task: () => void): void {
  if (typeof requestIdleCallback === "function") requestIdleCallback(task, { timeout: 3000 });
  else setTimeout(task, 1000);
}

/** `load` (a signed-in page's chunk) with the catalogues of the signed-in pages (characters, chat, profile, admin). */
export function withAppTexts<T>(load: Promise<T>): Promise<T> {
  return withTexts(load, APP_NAMESPACES);
}

/** The chat screen's chunk with the signed-in pages' catalogues (one download, however often asked). */
export const loadChatPage = () => withAppTexts(import("./pages/chat/ChatPage"));

/**
 * Fetches and evaluates the chat screen's chunk once the page is idle, then, idle again, lays out
 * the bubbles' text styles (`warmTextStyles`): a page whose next step is a chat (the chat list with
 * a character to start) calls it, so the tap waits neither for that code nor for the fonts
 * (docs/benchmarks.md: opening a long chat).
 */
export function preloadChatPage(): void {
  whenIdle(
    () =>
      void loadChatPage()
        .then((chat) => whenIdle(() => void chat.warmTextStyles()))
        .catch(() => undefined),
  );
}
