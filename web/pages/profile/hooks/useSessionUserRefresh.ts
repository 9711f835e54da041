// Refreshing the session user once (back from a payment page), so a new plan applies at once.
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { extendToken } from "../../../api/auth";
import { readToken, saveToken, saveUser } from "../../../lib/session";

/**
 * When `enabled` (e.g. back from a payment page), extends the token once now and stores the
 * fresh session user it answers, so the new plan's flags apply without waiting for the next
 * scheduled extend. Failures are only logged: the scheduled check still runs.
 */
export function useSessionUserRefresh(enabled: boolean): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!enabled) return;
    const token = readToken();
    if (token === null) return;
    extendToken(token.token)
      .then(async (extended) => {
        saveToken(extended.token);
        if (extended.user !== undefined) saveUser(extended.user);
        await queryClient.invalidateQueries({ queryKey: ["profile"] });
      })
      .catch((error: unknown) => console.error("refresh session user", error));
  }, [enabled, queryClient]);
}
