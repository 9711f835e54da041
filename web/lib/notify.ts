// Toasts with the spec's placement and durations (product.md §8): warnings bottom-right, successes top-right.
import { TOAST_PUBLIC_MS, TOAST_SIGNED_IN_MS } from "../../common/constants";

/** sonner is fetched after the first page (root.tsx renders its Toaster lazily, too). */
function withToast(show: (toast: typeof import("sonner")["toast"]) => void): void {
  import("sonner").then(({ toast }) => show(toast)).catch((error: unknown) => console.error("toast", error));
}

/**
 * Toast helpers with the spec's placement (product.md §8): warnings bottom-right (2 s in the
 * signed-in area, 3 s on public pages), successes top-right (2 s; 4 s after login).
 */

/** Shows a warning toast bottom-right. `durationMs` defaults to the signed-in 2 s. */
export function warn(message: string, durationMs: number = TOAST_SIGNED_IN_MS, id?: string): void {
  withToast((toast) => toast.warning(message, { position: "bottom-right", duration: durationMs, id }));
}

/** Shows a warning toast with the public pages' 3 s duration. */
export function warnPublic(message: string): void {
  warn(message, TOAST_PUBLIC_MS);
}

/**
 * Shows a success toast top-right. `onClose` runs once, when the toast is dismissed or
 * closes by itself (product.md §4: after login the app navigates when the toast goes away).
 */
export function succeed(
  message: string,
  durationMs: number = TOAST_SIGNED_IN_MS,
  onClose?: () => void,
): void {
  let closed = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    onClose?.();
  };
  withToast((toast) =>
    toast.success(message, {
      position: "top-right",
      duration: durationMs,
      onAutoClose: close,
      onDismiss: close,
    }),
  );
}
