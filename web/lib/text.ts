// Text helpers for lists and popups: truncating backstories (product.md §9), first paragraphs, hour:minute, in-app paths.
import { BACKSTORY_PREVIEW_LENGTH } from "../../common/constants";

/** Text helpers for lists and popups. */

/**
 * Cuts `text` to `max` characters (product.md §9: backstories show 50 characters in lists) and adds
 * an ellipsis when something was cut. `truncated` says whether a 'Show more' is needed.
 */
export function truncate(
  text: string,
  max: number = BACKSTORY_PREVIEW_LENGTH,
): { text: string; truncated: boolean } {
  const chars = Array.from(text);
  if (chars.length <= max) return { text, truncated: false };
  return { text: `${chars.slice(0, max).join("").trimEnd()}...`, truncated: true };
}

/**
 * The first `count` paragraphs of a description (product.md §2: the preset popup shows two).
 * Paragraphs are split on line breaks; blank lines are skipped.
 */
export function firstParagraphs(text: string, count = 2): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "")
    .slice(0, count);
}

/** Hour:minute (24 h, local time) of an ISO time, or "" when it is not a valid time. */
export function formatHourMinute(iso: string): string {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  return `${String(date.getHours()).padStart(2, "0")}:${String(date.getMinutes()).padStart(2, "0")}`;
}

/** A path inside this app (starts with a single `/`), so a server-named page cannot leave the site. */
export function isInAppPath(path: string | undefined): path is string {
  return typeof path === "string" && path.startsWith("/") && !path.startsWith("//");
}
