// SillyTavern's chat-file format, written by the data export and read by the chat import: its lines, dates, and history entries to and from them.
import {
  CHAT_IMPORT_MAX_MESSAGES,
  CHAT_IMPORT_MESSAGE_MAX_LENGTH,
  FIRST_MESSAGE_MARKER,
  REPLY_SWIPES_MAX,
} from "../../../common/constants";
import type { ChatHistoryRow } from "../../db/schema";
import { badRequest } from "../../errors";
import { msg } from "../../i18n/messages";
import { assertAllowedContent } from "../safety/content-rules";
import { newHistoryEntry, seqAfter } from "./history.repo";

/**
 * SillyTavern's chat-file format ("Take my data": "every chat as JSONL in SillyTavern's
 * chat-file format, so it opens there"; the chat import reads the same files). A chat file is JSON
 * Lines: the first line is the header `{user_name, character_name, create_date, chat_metadata}`,
 * then one line per message `{name, is_user, is_system, send_date, mes, extra}`, with `swipes` and
 * `swipe_id` when the message has swipes (as SillyTavern's own src/endpoints/chats.js reads and
 * writes them).
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
  is_system: boolean;
  /** The export writes ISO 8601; SillyTavern also writes its humanized form or epoch ms. */
  send_date: string | number;
  mes: string;
  extra: Record<string, unknown>;
  /** Every reply the message has had, in order; absent without. */
  swipes?: string[];
  /** Which of `swipes` `mes` is (0-based). */
  swipe_id?: number;
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

const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
/** SillyTavern's humanized message date, "May 8, 2023 1:56pm" (its `humanizedDateTime` of old chats). */
const HUMANIZED_DATE =
  /^([A-Za-z]{3})[a-z]*\.? (\d{1,2}), (\d{4}),? (\d{1,2}):(\d{2})(?::(\d{2}))? ?([ap]m)?$/i;

/** SillyTavern's file-name form, also found in `send_date`: "2023-05-08@13h56m00s" or "2023-5-8 @13h 56m 00s 123ms". */
const FILE_NAME_DATE = /^(\d{4})-(\d{1,2})-(\d{1,2}) ?@(\d{1,2})h ?(\d{1,2})m ?(\d{1,2})s(?: ?\d{1,3}ms)?$/;

/**
 * A message's `send_date` as epoch ms: SillyTavern's "May 8, 2023 1:56pm" form (month names in
 * English, full or short; 12- or 24-hour), its file-name form "2023-05-08@13h56m00s" (both read
 * as UTC: the file names no zone), ISO 8601, or epoch ms (a number or a numeric string;
 * SillyTavern wrote `Date.now()` in older versions). @returns undefined when it cannot be read.
 */
export function sillyTavernTime(sendDate: unknown): number | undefined {
  if (typeof sendDate === "number") return Number.isFinite(sendDate) && sendDate > 0 ? sendDate : undefined;
  if (typeof sendDate !== "string") return undefined;
  const text = sendDate.trim();
  if (/^\d{9,15}$/.test(text)) return Number(text);
  const humanized = HUMANIZED_DATE.exec(text);
  if (humanized) {
    const [, month, day, year, hour, minute, second, half] = humanized;
    const monthIndex = MONTHS.indexOf(month!.toLowerCase());
    let hours = Number(hour);
    if (half) hours = (hours % 12) + (half.toLowerCase() === "pm" ? 12 : 0);
    if (monthIndex < 0 || hours > 23) return undefined;
    return Date.UTC(Number(year), monthIndex, Number(day), hours, Number(minute), Number(second ?? 0));
  }
  const fileName = FILE_NAME_DATE.exec(text);
  if (fileName) {
    const [year, month, day, hours, minutes, seconds] = fileName.slice(1).map(Number) as number[];
    if (month! < 1 || month! > 12 || hours! > 23) return undefined;
    return Date.UTC(year!, month! - 1, day, hours, minutes, seconds);
  }
  // ISO 8601 only (Date.parse would guess at anything else); without a zone, UTC like the rest.
  const iso = /^(\d{4}-\d\d-\d\d)(?:[T ](\d\d:\d\d(?::\d\d(?:\.\d+)?)?)(Z|[+-]\d\d:?\d\d)?)?$/.exec(text);
  if (!iso) return undefined;
  const [, date, time, zone] = iso;
  const ms = Date.parse(time ? `${date}T${time}${zone ?? "Z"}` : `${date}`);
  return Number.isNaN(ms) ? undefined : ms;
}

/** One message of a chat file as the import keeps it (system lines and blank messages left out). */
export interface ImportedMessage {
  isUser: boolean;
  text: string;
  /** Epoch ms: its `send_date`, or the import time when that cannot be read. */
  time: number;
  /** A character message's replies (2 to REPLY_SWIPES_MAX) and which one `text` is; none without. */
  swipes: string[];
  swipeIndex: number;
}

/**
 * Reads a SillyTavern chat file whole, checking every line before anything is stored: the
 * header line (a first line without `mes`), then the messages. `is_system` lines (SillyTavern's
 * own notes, not said by anyone) and messages with blank `mes` are left out; pictures
 * (`extra.image`, paths inside an export's ZIP or SillyTavern's own folders) are not imported,
 * only the words. Each message's text is at most CHAT_IMPORT_MESSAGE_MAX_LENGTH characters (not
 * the 150 of typed messages: a chat written elsewhere is kept as it is), the file at most
 * CHAT_IMPORT_MAX_MESSAGES message lines (system lines count); swipes beyond REPLY_SWIPES_MAX are
 * dropped (the shown one is kept). Blank lines are skipped; line numbers count them.
 * @param bytes the file (its size is bounded by the route).
 * @param now epoch ms: the time of a message whose date cannot be read.
 * @returns the messages in the file's order (at least one).
 * @throws AppError 400 "bad_chat_file" for a file that is not UTF-8 text, empty, without
 *   messages, with too many, or with a line that is not JSON, not a message, or too long (the
 *   sentence names the line); 400 "content_minors" as the content rules.
 */
export function parseSillyTavernChat(bytes: Buffer, now: number): ImportedMessage[] {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw badRequest(msg("conversation.fileNotSillytavernChatNot"), "bad_chat_file");
  }
  const lines = text.split(/\r?\n/);
  if (lines.every((line) => line.trim() === ""))
    throw badRequest(msg("conversation.fileEmpty"), "bad_chat_file");
  const messages: ImportedMessage[] = [];
  let seen = 0;
  let header = false;
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (raw === "") continue;
    const line = i + 1;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      throw badRequest(msg("conversation.lineNotValidJson", { line }), "bad_chat_file");
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw badRequest(msg("conversation.lineNotSillytavernChatLine", { line }), "bad_chat_file");
    }
    if (!header) {
      // The first line is the header; a file that starts with a message has none.
      header = true;
      if (!("mes" in value)) continue;
    }
    seen += 1;
    if (seen > CHAT_IMPORT_MAX_MESSAGES) {
      throw badRequest(
        msg("conversation.fileMoreThanMessagesImport", { CHAT_IMPORT_MAX_MESSAGES }),
        "bad_chat_file",
      );
    }
    const message = readMessage(value as Record<string, unknown>, line, now);
    if (message) messages.push(message);
  }
  if (messages.length === 0) throw badRequest(msg("conversation.fileNoMessagesImport"), "bad_chat_file");
  return messages;
}

/** One message line checked; undefined for a system line or a blank message. @throws as parseSillyTavernChat. */
function readMessage(value: Record<string, unknown>, line: number, now: number): ImportedMessage | undefined {
  const { mes } = value;
  if (typeof mes !== "string")
    throw badRequest(msg("conversation.lineNoMessageTextMes", { line }), "bad_chat_file");
  const tooLong = (text: string) => text.length > CHAT_IMPORT_MESSAGE_MAX_LENGTH;
  if (tooLong(mes)) {
    throw badRequest(
      msg("conversation.lineLongerThanCharacters", { line, CHAT_IMPORT_MESSAGE_MAX_LENGTH }),
      "bad_chat_file",
    );
  }
  if (value.is_system === true || mes.trim() === "") return undefined;
  if (mes === FIRST_MESSAGE_MARKER)
    throw badRequest(msg("conversation.lineHoldsTextThatReserved", { line }), "bad_chat_file");
  assertAllowedContent(msg("conversation.term.importedMessage"), mes);
  const isUser = value.is_user === true;
  let swipes: string[] = [];
  let swipeIndex = 0;
  if (!isUser && Array.isArray(value.swipes) && value.swipes.length > 1) {
    const all = value.swipes.map((s) => (typeof s === "string" ? s : ""));
    if (all.some(tooLong)) {
      throw badRequest(
        msg("conversation.lineSwipeLongerThanCharacters", { line, CHAT_IMPORT_MESSAGE_MAX_LENGTH }),
        "bad_chat_file",
      );
    }
    assertAllowedContent(msg("conversation.term.importedMessage"), ...all);
    const id = Number.isInteger(value.swipe_id) ? (value.swipe_id as number) : -1;
    swipeIndex = id >= 0 && id < all.length ? id : all.indexOf(mes);
    if (swipeIndex < 0) swipeIndex = 0;
    // At most REPLY_SWIPES_MAX: the first ones, with the shown one last when it lies beyond.
    swipes = all.slice(0, REPLY_SWIPES_MAX);
    if (swipeIndex >= REPLY_SWIPES_MAX) swipeIndex = REPLY_SWIPES_MAX - 1;
    swipes[swipeIndex] = mes;
  }
  return { isUser, text: mes, time: sillyTavernTime(value.send_date) ?? now, swipes, swipeIndex };
}

/** History entries built from a chat file, with the swipes of their replies by entry id. */
export interface ImportedHistory {
  entries: ChatHistoryRow[];
  swipes: Map<string, string[]>;
}

/**
 * The history entries of imported messages, in the file's order: a user's message opens an
 * entry and the character's message right after it is its reply; a character's message with no
 * user's message before it is an entry of its own whose `message` is FIRST_MESSAGE_MARKER (as
 * greetings are stored, product.md §4); a user's message followed by another is an entry without
 * a reply. Every entry is "replied". Order keys (epoch µs) keep the file's order even when dates
 * go backwards: each is max(previous + 1, time × 1000), with times after `now` read as `now` so
 * messages sent after the import come after it.
 */
export function importedHistory(
  messages: readonly ImportedMessage[],
  sessionId: string,
  characterId: string,
  now: number,
): ImportedHistory {
  const entries: ChatHistoryRow[] = [];
  const swipes = new Map<string, string[]>();
  let seq = 0;
  let open: ChatHistoryRow | undefined;
  for (const m of messages) {
    if (m.isUser || !open) {
      const time = Math.min(m.time, now);
      seq = Math.max(seq + 1, time * 1000);
      open = {
        ...newHistoryEntry(sessionId, characterId, m.isUser ? m.text : FIRST_MESSAGE_MARKER, time),
        send_time: m.time,
        seq,
        status: "replied",
      };
      entries.push(open);
      if (m.isUser) continue;
    }
    open.reply_message = m.text;
    open.reply_time = m.time;
    open.swipe_index = m.swipeIndex;
    if (m.swipes.length > 0) swipes.set(open.id, m.swipes);
    open = undefined;
  }
  seqAfter(seq);
  return { entries, swipes };
}
