// The SillyTavern chat file format of the data export: its header and message lines, file-name dates and safe names.
import { FIRST_MESSAGE_MARKER } from "../../../common/constants";
import type { ChatHistoryRow } from "../../db/schema";

/**
 * SillyTavern's chat-file format ("Take my data": "every chat as JSONL in SillyTavern's
 * chat-file format, so it opens there"). A chat file is JSON Lines: the first line is the header
 * `{user_name, character_name, create_date, chat_metadata}`, then one line per message
 * `{name, is_user, is_system, send_date, mes, extra}`, with `swipes` and `swipe_id` when the
 * message has swipes (as SillyTavern's own src/endpoints/chats.js reads and writes them).
 */

/** The header line of a SillyTavern chat file. */
export interface SillyTavernHeader {
  user_name: string;
  character_name: string;
  /** SillyTavern's `humanizedISO8601DateTime` form, e.g. "2026-11-26@10h30m09s". */
  create_date: string;
  chat_metadata: Record<string, unknown>;
}

/** One message line of a SillyTavern chat file. */
export interface SillyTavernMessage {
  name: string;
  is_user: boolean;
  is_system: false;
  /** ISO 8601 (SillyTavern reads ISO dates, numbers and its own humanized form). */
  send_date: string;
  mes: string;
  extra: Record<string, unknown>;
  /** Every reply the message has had, in order; absent without. */
  swipes?: string[];
  /** Which of `swipes` `mes` is (0-based). */
  swipe_id?: number;
}

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

/**
 * The message lines of one history entry: the user's message (when the entry has one),
 * then the reply (when it has one). A greeting, written by the server, has only the reply.
 * @param characterName the name of the character who replied (a group's member).
 * @param swipes the entry's reply swipes, in position order, or [].
 * @param pictures the ZIP paths of the entry's photo and picture, when they were exported.
 */
export function entryMessages(
  entry: Pick<
    ChatHistoryRow,
    | "message"
    | "message_image"
    | "send_time"
    | "reply_message"
    | "reply_image"
    | "reply_time"
    | "status"
    | "swipe_index"
  >,
  userName: string,
  characterName: string,
  swipes: string[],
  pictures: { message?: string; reply?: string } = {},
): SillyTavernMessage[] {
  const lines: SillyTavernMessage[] = [];
  // A greeting's entry holds the marker, not a user's message (product.md §3 ##first-message##).
  if ((entry.message && entry.message !== FIRST_MESSAGE_MARKER) || entry.message_image)
    lines.push({
      name: userName,
      is_user: true,
      is_system: false,
      send_date: new Date(entry.send_time).toISOString(),
      mes: entry.message,
      extra: pictures.message ? { image: pictures.message } : {},
    });
  if (entry.reply_message || entry.reply_image) {
    const reply: SillyTavernMessage = {
      name: characterName,
      is_user: false,
      is_system: false,
      send_date: new Date(entry.reply_time ?? entry.send_time).toISOString(),
      mes: entry.reply_message,
      extra: pictures.reply ? { image: pictures.reply } : {},
    };
    if (swipes.length > 0) {
      const index = Math.min(Math.max(entry.swipe_index, 0), swipes.length - 1);
      // The shown reply is the chosen swipe; an edit since is kept in its place.
      reply.swipes = swipes.map((text, i) => (i === index ? entry.reply_message : text));
      reply.swipe_id = index;
    }
    lines.push(reply);
  }
  return lines;
}

/** One JSON line (no line break inside: JSON escapes them). */
export const jsonLine = (value: object): string => `${JSON.stringify(value)}\n`;
