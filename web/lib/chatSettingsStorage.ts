// Where the chat settings are kept (one local storage key) and a light read of their 'dark mode', for the entry chunk.
import { isChatPath, SIGNED_IN_FRAME } from "./appPaths";

/** The local storage key of the chat settings (product.md §3 "Settings"): one JSON object. */
export const CHAT_SETTINGS_KEY = "chatSettings";

/**
 * The stored chat setting 'dark mode' (product.md §2): true only when the stored settings are a JSON
 * object whose `darkMode` is `true`; missing, broken or non-boolean values give the default, false
 * (as `readChatSettings` in hooks/useChatSettings reads it). Kept apart from that module so the
 * entry chunk, which applies the dark mode before the signed-in pages' code arrives, does not
 * carry the whole settings module. Never throws.
 */
export function readStoredDarkMode(): boolean {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(CHAT_SETTINGS_KEY) ?? "{}");
    return (
      typeof parsed === "object" && parsed !== null && (parsed as { darkMode?: unknown }).darkMode === true
    );
  } catch {
    return false;
  }
}

/**
 * Applies the stored dark mode (product.md §2) to the page at once when `pathname` is the chat or
 * a page of the signed-in frame, before the app's code arrives (no light flash); useDarkMode keeps
 * it in step from then on. Public pages stay light.
 */
export function applyStoredDarkMode(pathname: string): void {
  if (isChatPath(pathname) || SIGNED_IN_FRAME.test(pathname)) {
    document.documentElement.classList.toggle("theme-dark", readStoredDarkMode());
  }
}
