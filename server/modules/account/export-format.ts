// The data export's SillyTavern chat files: the format's lines (shared with the chat import), file-name dates and safe names.

/** The format itself (its lines, and history entries to and from them) lives with the history, shared with the chat import. */
export { entryMessages } from "../conversation/sillytavern";

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** SillyTavern's file-name date form "YYYY-MM-DD@HHhMMmSSs" (UTC) of epoch ms. */
export function humanizedDate(ms: number): string {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}@${pad(d.getUTCHours())}h${pad(d.getUTCMinutes())}m${pad(d.getUTCSeconds())}s`;
}

/** A name safe in a ZIP entry (letters, digits, "-", "_", "."), at most 60 characters; "chat" if empty. */
export function safeFileName(name: string, fallback = "chat"): string {
  const clean = name
    .normalize("NFKD")
    .replace(/[^\w.-]+/g, "_")
    .replace(/^[._]+|_+$/g, "")
    .slice(0, 60);
  return clean || fallback;
}

/** One JSON line (no line break inside: JSON escapes them). */
export const jsonLine = (value: object): string => `${JSON.stringify(value)}\n`;
