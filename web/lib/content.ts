import { DEFAULT_PICTURE } from "../../common/constants";

/**
 * URLs of pictures on the content host (spec 3: "Image locations"). The server answers file
 * names; the SPA builds `/content/<area>/<file>`.
 */

export type ContentArea = "users" | "characters" | "predefined-characters" | "pricing";

/** spec 3: the fallback picture `user.jpg`, used when a picture is missing or fails to load. */
export const FALLBACK_PICTURE_URL = `/content/${DEFAULT_PICTURE}`;

/** `/content/<area>/<file>`, or the fallback picture when `file` is empty. */
export function contentUrl(area: ContentArea, file: string | undefined | null): string {
  if (!file) return FALLBACK_PICTURE_URL;
  return `/content/${area}/${encodeURIComponent(file)}`;
}
