// Addresses of pictures on the content host (product.md §3 "Image locations") and the fallback picture.
import { DEFAULT_PICTURE } from "../../common/constants";

/**
 * URLs of pictures on the content host (product.md §3: "Image locations"). The server answers file
 * names; the SPA builds `/content/<area>/<file>`.
 */

export type ContentArea = "users" | "characters" | "predefined-characters" | "pricing";

/** product.md §3: the fallback picture `user.jpg`, used when a picture is missing or fails to load. */
export const FALLBACK_PICTURE_URL = `/content/${DEFAULT_PICTURE}`;

/** `/content/<area>/<file>`, or the fallback picture when `file` is empty. */
export function contentUrl(area: ContentArea, file: string | undefined | null): string {
  if (!file) return FALLBACK_PICTURE_URL;
  return `/content/${area}/${encodeURIComponent(file)}`;
}

/**
 * A chat picture (product.md §3 image locations): the character's generated pictures under
 * `/content/{group or character id}/`, the user's photos under `{id}/user_photo/`. A `blob:` or
 * `data:` URL (a photo not sent yet) is returned as it is.
 */
export function chatImageUrl(chatId: string, file: string, kind: "reply" | "user"): string {
  if (/^(blob|data):/.test(file)) return file;
  const dir = kind === "user" ? `${encodeURIComponent(chatId)}/user_photo` : encodeURIComponent(chatId);
  return `/content/${dir}/${encodeURIComponent(file)}`;
}
