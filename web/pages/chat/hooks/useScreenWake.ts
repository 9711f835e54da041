import { useEffect } from "react";

/**
 * The setting 'screen wake' (spec 2): while `enabled` and the page is visible, holds a screen
 * Wake Lock where the browser has the API; elsewhere it does nothing. Re-acquired when the page
 * becomes visible again (browsers release the lock on hide).
 */
export function useScreenWake(enabled: boolean): void {
  useEffect(() => {
    if (!enabled || !("wakeLock" in navigator)) return;
    let sentinel: WakeLockSentinel | null = null;
    let active = true;
    const acquire = () => {
      if (document.visibilityState !== "visible") return;
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
