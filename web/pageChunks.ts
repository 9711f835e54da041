// Loading the pages' chunks with their catalogues, and the chat screen's chunk ahead of a tap.
import { APP_NAMESPACES, loadNamespaces } from "./i18n";
import { nextTask, whenIdle } from "./lib/nextTask";

/**
 * `load` (a page's chunk) together with the catalogues `namespaces` in the current language, so
 * the page renders with its texts (only the common, public and auth catalogues
 * are in the entry chunk).
 */
export function withTexts<T>(load: Promise<T>, namespaces: readonly string[]): Promise<T> {
  return Promise.all([load, loadNamespaces(namespaces)]).then(([module]) => module);
}

/** `load` (a signed-in page's chunk) with the catalogues of the signed-in pages (characters, chat, profile, admin). */
export function withAppTexts<T>(load: Promise<T>): Promise<T> {
  return withTexts(load, APP_NAMESPACES);
}

/** Links appended a task: each costs about 3.5 ms of main thread at a phone's speed (CPU 4x). */
const PRELOAD_LINKS_PER_TASK = 4;

let chatModules: Promise<void> | undefined;

/**
 * Preloads the chat screen's chunk and the chunks it imports (index.html's `chat-modules` list,
 * written by vite.config.ts), PRELOAD_LINKS_PER_TASK `modulepreload` links a task, so their fetch
 * starts at once without one long task of appending (docs/benchmarks.md: the page loaded
 * afresh). Skips a link already in the page; resolves once all are appended (once per page).
 */
function preloadChatModules(): Promise<void> {
  chatModules ??= (async () => {
    const list = document.querySelector<HTMLMetaElement>('meta[name="chat-modules"]')?.content ?? "";
    const hrefs = list.split(" ").filter((href) => href !== "");
    for (let at = 0; at < hrefs.length; at += PRELOAD_LINKS_PER_TASK) {
      for (const href of hrefs.slice(at, at + PRELOAD_LINKS_PER_TASK)) {
        if (document.querySelector(`link[href="${CSS.escape(href)}"]`) !== null) continue;
        const link = document.createElement("link");
        link.rel = "modulepreload";
        link.crossOrigin = "";
        link.href = href;
        document.head.append(link);
      }
      await nextTask();
    }
  })();
  return chatModules;
}

/**
 * The Markdown stack (react-markdown, its remark plugins and what they import: a chunk of its own,
 * vite.config.ts), evaluated in a task before the chat screen's chunk: evaluating both at once was
 * one task of 80-90 ms at a phone's speed, more than half of it the stack's own tables (HTML and
 * SVG properties, named character references) built as its modules load (docs/benchmarks.md: the
 * page loaded afresh).
 */
async function evaluateMarkdownStack(): Promise<void> {
  await Promise.all([import("react-markdown"), import("remark-gfm"), import("remark-breaks")]);
  await nextTask();
}

/**
 * The chat screen's chunk with the signed-in pages' catalogues (one download, however often
 * asked): its modules are preloaded first, a few links a task (`preloadChatModules`), then the
 * Markdown stack is evaluated in a task of its own (`evaluateMarkdownStack`).
 */
export const loadChatPage = () =>
  withAppTexts(
    preloadChatModules()
      .then(evaluateMarkdownStack)
      .then(() => import("./pages/chat/ChatPage")),
  );

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
