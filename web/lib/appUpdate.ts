// Start-up housekeeping (product.md §4 "Cache busting"): service workers removed, a newer deployed version reloads once.
import { APP_VERSION } from "../../common/constants";

/**
 * Start-up housekeeping (product.md §4 "Cache busting"): unregister any service worker, compare the
 * running version with the hosted /meta.json and, when a newer one is deployed, clear Cache
 * Storage and reload once. A failed check leaves the app running.
 */

/** sessionStorage key holding the version a reload was already made for (loop guard). */
export const RELOAD_GUARD_KEY = "app-update-reloaded-for";
const META_TIMEOUT_MS = 5000;

/**
 * True when dotted version `candidate` is newer than `current` ("1.0.29" > "1.0.28",
 * "1.1" > "1.0.28"); parts compare as numbers, missing parts count as 0. A part that is not a
 * number makes the answer false: an unreadable version never triggers a reload.
 */
export function isNewerVersion(candidate: string, current: string): boolean {
  const parse = (version: string): number[] | null => {
    const parts = version.trim().replace(/^v/i, "").split(".");
    const numbers = parts.map((part) => (/^\d+$/.test(part) ? Number(part) : Number.NaN));
    return numbers.some(Number.isNaN) ? null : numbers;
  };
  const next = parse(candidate);
  const now = parse(current);
  if (next === null || now === null) return false;
  for (let index = 0; index < Math.max(next.length, now.length); index += 1) {
    const a = next[index] ?? 0;
    const b = now[index] ?? 0;
    if (a !== b) return a > b;
  }
  return false;
}

/** Unregisters every service worker of this origin (product.md §4). Errors are only logged. */
export async function unregisterServiceWorkers(): Promise<void> {
  if (!("serviceWorker" in navigator)) return;
  try {
    const registrations = await navigator.serviceWorker.getRegistrations();
    await Promise.all(registrations.map((registration) => registration.unregister()));
  } catch (error) {
    console.error("service worker unregister", error);
  }
}

async function clearCacheStorage(): Promise<void> {
  if (!("caches" in window)) return;
  const names = await caches.keys();
  await Promise.all(names.map((name) => caches.delete(name)));
}

/** Reads the deployed version (GET /meta.json, no-store); `web/api/meta` provides it. */
export type FetchDeployedVersion = (signal: AbortSignal) => Promise<string>;

/**
 * Checks /meta.json (no-store) through `fetchDeployedVersion`. When its `version` is newer than APP_VERSION and no reload was
 * made for that version in this tab yet, clears Cache Storage and reloads the page. Resolves
 * whether a reload was started; any failure is logged and resolves false.
 */
export async function reloadIfNewerVersion(fetchDeployedVersion: FetchDeployedVersion): Promise<boolean> {
  try {
    const deployed = await fetchDeployedVersion(AbortSignal.timeout(META_TIMEOUT_MS));
    if (!isNewerVersion(deployed, APP_VERSION)) return false;
    if (sessionStorage.getItem(RELOAD_GUARD_KEY) === deployed) {
      console.warn(`Version ${deployed} is deployed but this page still runs ${APP_VERSION}.`);
      return false;
    }
    sessionStorage.setItem(RELOAD_GUARD_KEY, deployed);
    await clearCacheStorage();
    window.location.reload();
    return true;
  } catch (error) {
    console.error("version check", error);
    return false;
  }
}

/**
 * Runs the start-up housekeeping in the background; never throws. The version reader is passed
 * in so that `web/lib` never imports `web/api`.
 */
export function runStartupChecks(fetchDeployedVersion: FetchDeployedVersion): void {
  void unregisterServiceWorkers();
  void reloadIfNewerVersion(fetchDeployedVersion);
}
