// What tells the user a reply arrived (product.md §4): the chime 1000 ms later and a system notification while hidden.
import { playTones } from "./tone";

/** product.md §9: the reply notice sounds 1000 ms after a reply arrives. */
export const REPLY_SOUND_DELAY_MS = 1000;

/**
 * product.md §4: the notice sound when a reply arrives, 1 s later: a short two-tone chime (880 Hz then
 * 1320 Hz, 0.12 s apart). A browser that cannot play it stays silent (product.md §8: not an error).
 * The caller checks Settings 'notifications' (product.md §4: only when they are on).
 */
export function playReplySound(): void {
  window.setTimeout(() => {
    playTones(
      [880, 1320].map((frequency, index) => ({
        frequency,
        start: index * 0.12,
        peak: 0.15,
        fade: 0.25,
        stop: 0.3,
      })),
      "reply sound",
    );
  }, REPLY_SOUND_DELAY_MS);
}

/** Whether this browser has system notifications (the Notification API). */
export function notificationsSupported(): boolean {
  return typeof window !== "undefined" && typeof window.Notification === "function";
}

/**
 * Asks the browser's permission for system notifications (when the user turns
 * Settings 'notifications' on, so the request comes from their tap). Never throws.
 * @returns true when granted; false when denied, dismissed or unsupported.
 */
export async function askNotificationPermission(): Promise<boolean> {
  if (!notificationsSupported()) return false;
  if (Notification.permission !== "default") return Notification.permission === "granted";
  try {
    return (await Notification.requestPermission()) === "granted";
  } catch (error) {
    console.warn("notifications: permission request failed", error);
    return false;
  }
}

/**
 * A system notification of a reply (Settings 'notifications'): titled with the
 * character's name (`title`), the reply's words as `body` (cut to 120 characters). Shown only
 * while the tab is hidden (`document.visibilityState`) and permission was granted; a visible
 * tab has the notice sound only. @returns whether a notification was shown. Never throws.
 */
export function showReplyNotification(title: string, body: string): boolean {
  if (!notificationsSupported() || document.visibilityState !== "hidden") return false;
  if (Notification.permission !== "granted") return false;
  try {
    const text = body.length > 120 ? `${body.slice(0, 119)}…` : body;
    new Notification(title, { body: text, tag: "companion-reply" });
    return true;
  } catch (error) {
    // Android Chrome only allows notifications from a service worker: the sound stays.
    console.warn("notifications: not shown", error);
    return false;
  }
}
