// Picture calls (product.md §7): a picture on request, a photo from the user, and the chat's photo history.
import type { Envelope, MessageReply, PhotoHistoryEntry, PhotoReply } from "../../common/api";
import type { PhotoType } from "../../common/constants";
import { apiRequest, ensureSuccess } from "./client";

/** Pictures on request and photos from the user (product.md §7). */

/** What every picture call names: the chat, its character and the user's words. */
export interface ChatPictureInput {
  chatId: string;
  characterId: string;
  message: string;
}

/** The multipart body of a picture call: id (chat), cid (character), message, then `more` in order. */
function pictureForm(input: ChatPictureInput, more: Array<[string, string | Blob, string?]>): FormData {
  const body = new FormData();
  body.set("id", input.chatId);
  body.set("cid", input.characterId);
  body.set("message", input.message);
  for (const [name, value, fileName] of more) {
    if (typeof value === "string") body.set(name, value);
    else body.set(name, value, fileName);
  }
  return body;
}

/**
 * POST /chat/request-photo (multipart: message, id, cid, mute, type 1 portrait / 2 landscape).
 * Returns the message reply whatever its `success`; on success `history[0]` is the entry whose
 * picture is loading (chatHistoryImageLoading 1).
 */
export function requestPicture(
  input: ChatPictureInput & { type: PhotoType; mute: boolean },
): Promise<MessageReply> {
  const body = pictureForm(input, [
    ["mute", input.mute ? "1" : "0"],
    ["type", String(input.type)],
  ]);
  return apiRequest<MessageReply>("/chat/request-photo", { method: "POST", body });
}

/** product.md §7 chat/photo-process reply: success, photo (file name), text (the character's answer), message (common/api). */
export type { PhotoReply } from "../../common/api";

/** POST /chat/photo-process (multipart: id, photo, plus our message and cid). Returns the reply whatever its `success`. */
export function sendPhoto(input: ChatPictureInput & { photo: Blob }): Promise<PhotoReply> {
  const body = pictureForm(input, [["photo", input.photo, "photo.jpg"]]);
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
