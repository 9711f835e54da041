import type { MessageReply, PhotoHistoryEntry } from "../../../common/api";
import type { ChatHistoryRow } from "../../db/schema";
import { presentHistoryEntry } from "../chat/chat.presenter";
import { splitReply } from "../chat/split-reply";

/** spec 3 "Message reply" for a picture request: genimage 1 and options.picDesc. */
export function presentPictureReply(entry: ChatHistoryRow, picDesc: string, message: string): MessageReply {
  const text = entry.reply_message;
  const parts = splitReply(text);
  return {
    success: 1,
    message,
    text,
    history: [presentHistoryEntry(entry)],
    audioUrl: "",
    genimage: 1,
    options: { splitCount: parts.length, splitMessages: parts, picDesc },
  };
}

/**
 * spec 3 "Photo history entry": groupUUID (in a group) or characterUUID, with the entry's
 * file names: the user's photo (under {id}/user_photo/) and the generated picture (under {id}/).
 */
export function presentPhoto(
  row: Pick<ChatHistoryRow, "id" | "message_image" | "reply_image">,
  chatKey: string,
  isGroup: boolean,
): PhotoHistoryEntry {
  return {
    ...(isGroup ? { groupUUID: chatKey } : { characterUUID: chatKey }),
    chatHistoryUUID: row.id,
    chatHistoryMessageImage: row.message_image,
    chatHistoryReplyImage: row.reply_image,
  };
}

/** What the chat engine needs to offer a picture with a text reply (issue 8: genimage). */
export interface PictureOffer {
  offerForReply(
    user: import("../../db/schema").User,
    userMessage: string,
    entry: ChatHistoryRow,
  ): Promise<{ picDesc: string; entry: ChatHistoryRow } | undefined>;
}

/**
 * A text reply that also carries a picture (spec 3: genimage 1, options.picDesc): asks `offer`
 * whether the user asked for one in words, and if so marks the reply and its entry (loading 1).
 * Failures of the offer leave the text reply as it is.
 */
export async function withPicture(
  reply: MessageReply,
  offer: PictureOffer | undefined,
  user: import("../../db/schema").User,
  userMessage: string,
  entry: ChatHistoryRow | undefined,
  log: (error: unknown) => void,
): Promise<MessageReply> {
  if (!offer || !entry || reply.success !== 1) return reply;
  try {
    const picture = await offer.offerForReply(user, userMessage, entry);
    if (!picture) return reply;
    return {
      ...reply,
      genimage: 1,
      history: [presentHistoryEntry(picture.entry)],
      options: { ...(reply.options ?? { splitCount: 0, splitMessages: [] }), picDesc: picture.picDesc },
    };
  } catch (error) {
    log(error);
    return reply;
  }
}
