// The SPA's entry point: the page's title and dark mode at once, then the app in steps of one task each (texts, React DOM, the app).
import { PRODUCT_NAME } from "../common/constants";
import "./styles/base.css";
import { applyStoredDarkMode } from "./lib/chatSettingsStorage";
import { nextTask } from "./lib/nextTask";

document.title = PRODUCT_NAME;
applyStoredDarkMode(window.location.pathname);

const container = document.getElementById("root");
if (container === null) throw new Error("#root is missing from index.html");

/**
 * The app's code is evaluated in three steps, each a task of its own: the texts (i18next and the
 * English catalogues, then the current language's), React DOM, then the app (router, queries,
 * pages) with its first render. Evaluated at once, the entry's module graph was one task of about
 * 200 ms on a phone (docs/benchmarks.md, the page loaded afresh); in steps, its longest task halved.
 * The chunks of all three are fetched at once (modulepreload links in index.html, vite.config.ts).
 */
async function boot(root: HTMLElement): Promise<void> {
  const { i18nReady } = await import("./i18n");
  await nextTask();
  const [{ createRoot }] = await Promise.all([import("react-dom/client"), i18nReady]);
  await nextTask();
  const { startApp } = await import("./root");
  await startApp(root, createRoot);
}

void boot(container);
