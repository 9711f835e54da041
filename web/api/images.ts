import type { Envelope, MessageReply, PhotoHistoryEntry } from "../../common/api";
import type { PhotoType } from "../../common/constants";
import { apiRequest, ensureSuccess } from "./client";

/** Pictures on request and photos from the user (product.md §7). */

/**
 * POST /chat/request-photo (multipart: message, id, cid, mute, type 1 portrait / 2 landscape).
 * Returns the message reply whatever its `success`; on success `history[0]` is the entry whose
 * picture is loading (chatHistoryImageLoading 1).
 */
export function requestPicture(input: {
  message: string;
  chatId: string;
  characterId: string;
  type: PhotoType;
  mute: boolean;
}): Promise<MessageReply> {
  const body = new FormData();
  body.set("message", input.message);
  body.set("id", input.chatId);
  body.set("cid", input.characterId);
  body.set("mute", input.mute ? "1" : "0");
  body.set("type", String(input.type));
  return apiRequest<MessageReply>("/chat/request-photo", { method: "POST", body });
}

/** product.md §7 chat/photo-process reply: success, photo (file name), text (the character's answer), message. */
export interface PhotoReply extends Envelope {
  photo?: string;
  text?: string;
  history?: MessageReply["history"];
}

/** POST /chat/photo-process (multipart: id, photo, plus our message and cid). Returns the reply whatever its `success`. */
export function sendPhoto(input: {
  chatId: string;
  characterId: string;
  photo: Blob;
  message: string;
}): Promise<PhotoReply> {
  const body = new FormData();
  body.set("id", input.chatId);
  body.set("cid", input.characterId);
  body.set("message", input.message);
  body.set("photo", input.photo, "photo.jpg");
  return apiRequest<PhotoReply>("/chat/photo-process", { method: "POST", body });
}

/** GET /chat/history/photos?id=<chat id>&uId=<user id>: the chat's photos, oldest first. */
export async function listChatPhotos(userId: string, chatId: string): Promise<PhotoHistoryEntry[]> {
  const answer = ensureSuccess(
    await apiRequest<Envelope<PhotoHistoryEntry[]>>("/chat/history/photos", {
      query: { id: chatId, uId: userId },
    }),
  );
  return answer.data ?? [];
}
