// The bubbles of the message list: each live or stored chat item laid out as its user and reply bubbles.
import type { ChatHistoryEntry } from "../../../../common/api";
import { FIRST_MESSAGE_MARKER } from "../../../../common/constants";
import { formatHourMinute } from "../../../lib/text";
import { isGreeting, isPictureReply } from "../historyEdits";
import type { LiveChatItem } from "../liveChat";

/** One bubble of the list. */
export type Row =
  | {
      key: string;
      kind: "user";
      itemKey: string;
      text: string;
      time: string;
      delivery: LiveChatItem["delivery"];
      /** The photo sent with the message: a file name under {chat id}/user_photo/, or a blob: URL. */
      image: string;
      entry: ChatHistoryEntry;
    }
  | {
      key: string;
      kind: "reply";
      /** The live item the bubble shows: the key its streamed text is kept under (StreamingText). */
      itemKey: string;
      text: string;
      time: string;
      characterId: string;
      entry: ChatHistoryEntry;
      streaming: boolean;
      /** The last bubble of the entry's reply: it carries the reply's audio. */
      last: boolean;
    };

/** One user bubble of the list. */
export type UserRow = Extract<Row, { kind: "user" }>;
/** One reply bubble of the list. */
export type ReplyRow = Extract<Row, { kind: "reply" }>;

/**
 * The bubbles of the history (product.md §2, 4): the user's message unless empty or the
 * '##first-message##' marker, then the reply, or the split parts revealed so far.
 */
export function toRows(items: LiveChatItem[]): Row[] {
  const rows: Row[] = [];
  for (const { key, entry, delivery, replyParts, streaming = false } of items) {
    const photo = entry.chatHistoryMessageImage ?? "";
    if (
      (entry.chatHistoryMessage !== "" || photo !== "") &&
      entry.chatHistoryMessage !== FIRST_MESSAGE_MARKER
    ) {
      rows.push({
        key: `${key}:user`,
        kind: "user",
        itemKey: key,
        text: entry.chatHistoryMessage,
        time: formatHourMinute(entry.chatHistorySendTime),
        delivery,
        image: photo,
        entry,
      });
    }
    // A reply that is only a picture (or one still being made) is a bubble too, and so is a
    // streaming one: its text so far may still be in the streaming store (it shows from its first token).
    const hasPicture = entry.chatHistoryImageLoading === 1 || Boolean(entry.chatHistoryReplyImage);
    const replies =
      replyParts ??
      (entry.chatHistoryReplyMessage !== "" || hasPicture || streaming
        ? [entry.chatHistoryReplyMessage]
        : []);
    const time = formatHourMinute(entry.chatHistoryReplyTime);
    replies.forEach((text, index) => {
      rows.push({
        key: `${key}:reply:${index}`,
        kind: "reply",
        itemKey: key,
        text,
        time,
        characterId: entry.characterUUID,
        entry,
        streaming,
        last: index === replies.length - 1,
      });
    });
  }
  return rows;
}

/**
 * Whether the reply bubble `row` offers Continue (product.md §4): the newest reply bubble while
 * replies may be continued (`mayContinue`), stored and finished, words the character wrote in
 * the chat: never a greeting (the card's words) nor a picture (the server refuses both too).
 */
export function offersContinue(row: ReplyRow, mayContinue: boolean): boolean {
  const entry = row.entry;
  return (
    mayContinue &&
    !row.streaming &&
    entry.chatHistoryUUID !== "" &&
    !isGreeting(entry) &&
    !isPictureReply(entry)
  );
}

/** The index of the last reply bubble in `rows`, or -1 when there is none. */
export function lastReplyIndex(rows: Row[]): number {
  return rows.findLastIndex((row) => row.kind === "reply");
}
