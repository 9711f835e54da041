// The stored session user (product.md §3), re-rendering on login and logout.
import { useSyncExternalStore } from "react";
import type { SessionUser } from "../../common/api";
import { readUser, subscribeSession } from "../lib/session";

/** The stored session user (product.md §3), re-rendering on login and logout; null when signed out. */
export function useSessionUser(): SessionUser | null {
  return useSyncExternalStore(subscribeSession, readUser);
}
