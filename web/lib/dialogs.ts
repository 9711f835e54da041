import Swal from "sweetalert2";
import { CANCEL_COLOR, CONFIRM_COLOR } from "../../common/constants";

/**
 * sweetalert2 with the product's look (spec 8: confirm #c70039, cancel #aaa). Popups take
 * plain text (`titleText`, `text`) or DOM nodes built with `textContent`, never HTML strings.
 */
export const AppSwal = Swal.mixin({
  theme: "dark",
  confirmButtonColor: CONFIRM_COLOR,
  cancelButtonColor: CANCEL_COLOR,
});

/** Shows a plain-text popup with a Close button (spec 2: 'Show more' of a backstory). */
export async function showTextPopup(title: string, text: string): Promise<void> {
  await AppSwal.fire({ titleText: title, text, confirmButtonText: "Close" });
}

/** Builds an <img> that falls back to `fallbackSrc` once when `src` fails to load. */
export function imageWithFallback(src: string, alt: string, fallbackSrc: string): HTMLImageElement {
  const img = document.createElement("img");
  img.alt = alt;
  img.onerror = () => {
    img.onerror = null;
    img.src = fallbackSrc;
  };
  img.src = src;
  return img;
}
