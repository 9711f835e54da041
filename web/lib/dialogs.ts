// The product's popups (sweetalert2, loaded on first use, product.md §8 colours): text popups, images with a fallback.
import type { SweetAlertOptions, SweetAlertResult } from "sweetalert2";
import { CANCEL_COLOR, CONFIRM_COLOR } from "../../common/constants";
import i18n from "../i18n";

type Mixin = ReturnType<typeof import("sweetalert2")["default"]["mixin"]>;
let loading: Promise<Mixin> | undefined;

/** sweetalert2 (about 20 KB gzipped) is fetched on the first popup, not with the first page. */
function loadSwal(): Promise<Mixin> {
  loading ??= import("sweetalert2").then(({ default: Swal }) =>
    Swal.mixin({
      theme: "dark",
      confirmButtonColor: CONFIRM_COLOR,
      cancelButtonColor: CANCEL_COLOR,
    }),
  );
  return loading;
}

/**
 * sweetalert2 with the product's look (product.md §8: confirm #c70039, cancel #aaa). Popups take
 * plain text (`titleText`, `text`) or DOM nodes built with `textContent`, never HTML strings.
 * `fire` resolves with sweetalert2's result once the popup closes.
 */
export const AppSwal = {
  fire: async (options: SweetAlertOptions): Promise<SweetAlertResult> => (await loadSwal()).fire(options),
};

/** Shows a plain-text popup with a Close button (product.md §2: 'Show more' of a backstory). */
export async function showTextPopup(title: string, text: string): Promise<void> {
  await AppSwal.fire({ titleText: title, text, confirmButtonText: i18n.t("common:actions.close") });
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
