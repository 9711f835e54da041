// The server's sign-up mode (REGISTRATION), for the login page's link and the sign-up page.
import { useQuery } from "@tanstack/react-query";
import { type RegistrationMode, registrationMode } from "../api/accounts";

/**
 * The sign-up mode (GET /auth/registration): "closed" while pending and when the call fails (a
 * failure is only logged), so a link that could only fail never shows; `settled` once answered.
 */
export function useRegistrationMode(): { mode: RegistrationMode; settled: boolean } {
  const { data, isPending } = useQuery({
    queryKey: ["auth", "registration"],
    queryFn: registrationMode,
    staleTime: 5 * 60_000,
    meta: { silent: true },
  });
  return { mode: data ?? "closed", settled: !isPending };
}
