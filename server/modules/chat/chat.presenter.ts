// The chat's answers (product.md §3): chat profile characters, message replies (live or stored), pictures, group replies.
import type { ChatProfileCharacter, GroupReply, MessageReply } from "../../../common/api";
import type { Character, ChatHistoryRow } from "../../db/schema";
import { carried, carry, english, type Message, msg } from "../../i18n/messages";
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
  message: string | Message;
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
  return carry(
    {
      success: result.success ? 1 : 0,
      message: english(result.message),
      text,
      history,
      audioUrl,
      genimage: 0,
      options: { splitCount: parts.length, splitMessages: parts, picDesc: "" },
    },
    result.message,
  );
}

/** What a stored entry's status says to a client who was not there when it was answered. */
const STORED_OUTCOMES: Record<string, { success: boolean; message: Message }> = {
  replied: { success: true, message: msg("chat.reply") },
  stopped: { success: true, message: msg("chat.stopped") },
  partial: { success: true, message: msg("chat.replyWasCutShort") },
  pending: { success: false, message: msg("chat.messageStillBeingAnswered") },
};

/**
 * The message reply (product.md §3) of an entry as stored, in the shape of the plain `chat/message`
 * answer: the `done` event of GET /api/chat/stream when the entry has no live reply.
 */
export function presentStoredReply(entry: ChatHistoryRow): MessageReply {
  const outcome = STORED_OUTCOMES[entry.status] ?? {
    success: false,
    message: msg("chat.messageCouldNotAnsweredSend"),
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
  const withIt = {
    ...reply,
    genimage: 1 as const,
    history: [presentHistoryEntry(picture.entry)],
    options: { ...(reply.options ?? { splitCount: 0, splitMessages: [] }), picDesc: picture.picDesc },
  };
  return carry(withIt, carried(reply) ?? reply.message);
}

/** product.md §7 `chat/group/reply`: who answered, in order, and their entries. */
export function presentGroupReply(result: {
  success: boolean;
  message: string | Message;
  whoReplies: string[];
  entries: ChatHistoryRow[];
}): GroupReply {
  return carry(
    {
      success: result.success ? 1 : 0,
      message: english(result.message),
      whoReplies: result.whoReplies,
      history: result.entries.map((entry) => presentHistoryEntry(entry)),
    },
    result.message,
  );
}
