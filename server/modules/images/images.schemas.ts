// Request shapes of the picture routes (asking for a photo, an image, a sent photo, the photo list), checked with zod, and the answers they declare.
import { z } from "zod";
import { answers } from "../../http/route-schemas";
import { uuidField } from "../../http/validate";
import { msg, zodText } from "../../i18n/messages";
import { ClientMessageId } from "../conversation/inputs";

const Id = z.string().max(100).default("");
/** product.md §7 chat/request-photo (multipart): message, id, cid, mute; ours: type 1 portrait, 2 landscape. */
export const RequestPhotoBody = z.object({
  message: z.string().max(1000).default(""),
  id: Id,
  cid: Id.describe("or cId"),
  cId: Id,
  mute: z.string().optional(),
  type: z.union([z.string(), z.number()]).optional().describe("1 portrait, 2 landscape"),
  clientMessageId: ClientMessageId,
});
/** product.md §7 chat/image: id (the entry), message, description, gid, cid, reply, ratio. */
export const ImageBody = z.object({
  id: uuidField(msg("chat.term.messageId")).describe("entry"),
  message: z.string().max(1000).optional(),
  description: z.string().max(1000).default(""),
  gid: z.string().max(100).optional(),
  cid: z.string().max(100).optional(),
  reply: z.string().max(4000).optional(),
  ratio: z.union([z.string(), z.number()]).optional(),
});
/** product.md §7 chat/photo-process (multipart): id, photo; ours: message (the words sent with it), cid. */
export const PhotoBody = z.object({
  id: Id,
  photo: z.instanceof(Buffer, { message: zodText(msg("images.photoRequiredJpegPngImage")) }),
  message: z.string().max(1000).default(""),
  cid: Id.describe("or cId"),
  cId: Id,
  clientMessageId: ClientMessageId,
});
/** GET chat/history/photos: the chat and the user's own id (product.md §7). */
export const PhotosQuery = z.object({ id: Id, uId: z.string().max(100).optional() });

/**
 * The documentation of a picture or voice route for the OpenAPI document (docs/api.md "Images and
 * voice"); who may call it ("signed in") is written by `signedIn`.
 * @param description what the route answers (docs/api.md's Answers cell, markdown kept).
 * @param from where the route comes from (the From cell: "§7" for product.md's, "ours").
 * @param answer the whole answer's schema (the envelope with its fields), its `response` at 200.
 */
export function imagesDoc<S extends z.ZodType>(description: string, from: string, answer: S) {
  return { tags: ["Images and voice"], description, "x-from": from, response: answers(answer) };
}
