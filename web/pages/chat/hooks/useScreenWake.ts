// The setting 'screen wake' (product.md §2): holds a screen Wake Lock while the chat is shown and visible.
import { useEffect } from "react";

/**
 * The setting 'screen wake' (product.md §2): while `enabled` and the chat is shown and visible, holds a
 * screen Wake Lock (`navigator.wakeLock.request('screen')`) where the browser has the API;
 * elsewhere it does nothing (the setting is hidden there). Released when the setting goes off or
 * the chat closes; re-acquired when the page becomes visible again (browsers release it on hide).
 */
export function useScreenWake(enabled: boolean): void {
  useEffect(() => {
    if (!enabled || !("wakeLock" in navigator)) return;
    let sentinel: WakeLockSentinel | null = null;
    let active = true;
    const acquire = () => {
      if (document.visibilityState !== "visible") return;
      // Still held (a visibility change that did not hide the page): no second lock.
      if (sentinel && !sentinel.released) return;
      navigator.wakeLock
        .request("screen")
        .then((lock) => {
          if (active) sentinel = lock;
          else void lock.release();
        })
        .catch((error: unknown) => console.warn("wake lock", error));
    };
    acquire();
    document.addEventListener("visibilitychange", acquire);
    return () => {
      active = false;
      document.removeEventListener("visibilitychange", acquire);
      if (sentinel) void sentinel.release();
    };
  }, [enabled]);
}
