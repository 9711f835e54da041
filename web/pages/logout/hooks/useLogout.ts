// Logging out (product.md §4): local data first, then the server, then /.
import { useCallback } from "react";
import { endSession } from "../../../api/client";

/** Returns a function that logs out (product.md §4: local data first, then the server, then `/`). */
export function useLogout(): () => Promise<void> {
  return useCallback(() => endSession("/"), []);
}
