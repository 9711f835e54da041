// The browser session (product.md §3, §4, §9): the token and the user in local storage, and who listens for changes.
import type { LoginData, SessionToken, SessionUser } from "../../common/api";
import { STORAGE_KEY_TOKEN, STORAGE_KEY_USER, TOKEN_LIFETIME_MS } from "../../common/constants";

/**
 * The browser session (product.md §3, 4, 9): the token and the user kept in local storage under
 * the keys `token` and `user`. Components read it through `useSessionUser`, which subscribes here.
 */

type Listener = () => void;
const listeners = new Set<Listener>();

function notify(): void {
  for (const listener of listeners) listener();
}

function readJson(key: string): unknown {
  const raw = localStorage.getItem(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return null;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/** The stored token `{token, expirationTime}` (epoch ms), or null when absent or malformed. */
export function readToken(): SessionToken | null {
  const value = readJson(STORAGE_KEY_TOKEN);
  if (!isRecord(value) || typeof value.token !== "string" || typeof value.expirationTime !== "number") {
    return null;
  }
  return { token: value.token, expirationTime: value.expirationTime };
}

// useSyncExternalStore needs a stable snapshot: re-parse only when the raw string changes.
let cachedUserRaw: string | null = null;
let cachedUser: SessionUser | null = null;

/** The stored session user, or null when signed out (product.md §6: "a stored user exists"). */
export function readUser(): SessionUser | null {
  const raw = localStorage.getItem(STORAGE_KEY_USER);
  if (raw === cachedUserRaw) return cachedUser;
  cachedUserRaw = raw;
  const value = readJson(STORAGE_KEY_USER);
  cachedUser = isRecord(value) && typeof value.id === "string" ? (value as unknown as SessionUser) : null;
  return cachedUser;
}

/** Stores a fresh login: the token expires one hour from now (product.md §4, 9). */
export function saveSession(data: LoginData, now: number = Date.now()): void {
  const token: SessionToken = { token: data.token, expirationTime: now + TOKEN_LIFETIME_MS };
  localStorage.setItem(STORAGE_KEY_TOKEN, JSON.stringify(token));
  localStorage.setItem(STORAGE_KEY_USER, JSON.stringify(data.user));
  notify();
}

/** Replaces the stored token after an extend; expiry one hour from `now` (product.md §4). */
export function saveToken(token: string, now: number = Date.now()): void {
  const value: SessionToken = { token, expirationTime: now + TOKEN_LIFETIME_MS };
  localStorage.setItem(STORAGE_KEY_TOKEN, JSON.stringify(value));
  notify();
}

/** Replaces the stored session user, e.g. with the answer of a profile save (product.md §7 `users/update`). */
export function saveUser(user: SessionUser): void {
  localStorage.setItem(STORAGE_KEY_USER, JSON.stringify(user));
  notify();
}

/** Removes the token and the user (product.md §4: logout removes local data first). */
export function clearSession(): void {
  localStorage.removeItem(STORAGE_KEY_TOKEN);
  localStorage.removeItem(STORAGE_KEY_USER);
  notify();
}

/** Subscribes to session changes in this tab and in other tabs; returns the unsubscribe. */
export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent): void => {
    if (event.key === null || event.key === STORAGE_KEY_TOKEN || event.key === STORAGE_KEY_USER) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}
