// How picture answers look (product.md §3): the reply to a picture request and a photo history entry.
import type { MessageReply, PhotoHistoryEntry } from "../../../common/api";
import type { ChatHistoryRow } from "../../db/schema";
import { carry, english, type Message } from "../../i18n/messages";
import { presentHistoryEntry } from "../conversation/conversation.presenter";
import { splitReply } from "../conversation/split-reply";

/**
 * product.md §3 "Message reply" for a picture request: genimage 1, options.picDesc and the reply's
 * spoken `audioUrl` ("" when muted or without speech).
 */
export function presentPictureReply(
  entry: ChatHistoryRow,
  picDesc: string,
  message: Message,
  audioUrl = "",
): MessageReply {
  const text = entry.reply_message;
  const parts = splitReply(text);
  const reply: MessageReply = {
    success: 1,
    message: english(message),
    text,
    history: [presentHistoryEntry({ ...entry, reply_audio_url: audioUrl || entry.reply_audio_url })],
    audioUrl,
    genimage: 1,
    options: { splitCount: parts.length, splitMessages: parts, picDesc },
  };
  return carry(reply, message);
}

/**
 * product.md §3 "Photo history entry": groupUUID (in a group) or characterUUID, with the entry's
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
