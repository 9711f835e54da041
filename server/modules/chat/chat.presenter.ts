// The chat's answers (product.md §3): chat profile characters, message replies (live or stored), pictures, group replies.
import type { ChatProfileCharacter, GroupReply, MessageReply } from "../../../common/api";
import type { Character, ChatHistoryRow } from "../../db/schema";
import { presentHistoryEntry } from "../conversation/conversation.presenter";
import { splitReply } from "../conversation/split-reply";

/** product.md §3 "Chat profile" character; gId is empty outside a group. */
export function presentProfileCharacter(c: Character, groupId: string): ChatProfileCharacter {
  return {
    gId: groupId,
    id: c.id,
    sex: c.sex === "1" ? "1" : "0",
    photo: c.photo,
    name: c.name,
    greeting: c.greeting,
    voice: c.voice,
  };
}

/** The outcome of one model run on an entry (a send, a continuation, a repeated send). */
export interface ReplyOutcome {
  success: boolean;
  /** The user-facing message (the reason when success is false). */
  message: string;
  /** The stored entry, present whenever the user's message was stored. */
  entry?: ChatHistoryRow;
  /** The entry's replies when it has two or more (swipes). */
  swipes?: string[];
}

/**
 * The spec's message reply (product.md §3) for a send, a continuation or a repeated send.
 * @param audioUrl the reply's spoken audio ("" when muted or none).
 */
export function presentReply(result: ReplyOutcome, audioUrl = ""): MessageReply {
  const history = result.entry ? [presentHistoryEntry(result.entry, result.swipes)] : [];
  const text = result.entry?.reply_message ?? "";
  // A stopped or cut-short reply is one unfinished message that Continue extends: never split.
  const parts = result.entry?.status === "replied" ? splitReply(text) : text ? [text] : [];
  return {
    success: result.success ? 1 : 0,
    message: result.message,
    text,
    history,
    audioUrl,
    genimage: 0,
    options: { splitCount: parts.length, splitMessages: parts, picDesc: "" },
  };
}

/** What a stored entry's status says to a client who was not there when it was answered. */
const STORED_OUTCOMES: Record<string, { success: boolean; message: string }> = {
  replied: { success: true, message: "Reply." },
  stopped: { success: true, message: "Stopped." },
  partial: { success: true, message: "The reply was cut short." },
  pending: { success: false, message: "This message is still being answered." },
};

/**
 * The message reply (product.md §3) of an entry as stored, in the shape of the plain `chat/message`
 * answer: the `done` event of GET /api/chat/stream when the entry has no live reply.
 */
export function presentStoredReply(entry: ChatHistoryRow): MessageReply {
  const outcome = STORED_OUTCOMES[entry.status] ?? {
    success: false,
    message: "This message could not be answered. Please send it again.",
  };
  return presentReply({ ...outcome, entry }, entry.reply_audio_url);
}

/**
 * A text reply that also carries a picture (product.md §3: genimage 1, options.picDesc, the entry with
 * its picture loading). Pure: the picture's job was started by the turn service.
 */
export function withPicture(
  reply: MessageReply,
  picture: { picDesc: string; entry: ChatHistoryRow } | undefined,
): MessageReply {
  if (!picture) return reply;
  return {
    ...reply,
    genimage: 1,
    history: [presentHistoryEntry(picture.entry)],
    options: { ...(reply.options ?? { splitCount: 0, splitMessages: [] }), picDesc: picture.picDesc },
  };
}

/** product.md §7 `chat/group/reply`: who answered, in order, and their entries. */
export function presentGroupReply(result: {
  success: boolean;
  message: string;
  whoReplies: string[];
  entries: ChatHistoryRow[];
}): GroupReply {
  return {
    success: result.success ? 1 : 0,
    message: result.message,
    whoReplies: result.whoReplies,
    history: result.entries.map((entry) => presentHistoryEntry(entry)),
  };
}
