// Whether this server offers the free subscription (GET /users/free/subscribe): asked by the free-chat and home pages.
import { useQuery } from "@tanstack/react-query";
import { freeSubscriptionOffered } from "../api/public";

/**
 * Whether the server offers the free subscription (GET /users/free/subscribe): `offered` is
 * false while the answer is pending and when it fails, so a form that could only be refused never
 * shows; `settled` turns true once the answer (or its failure) is in. `enabled` false asks nothing.
 */
export function useFreeSubscribeOffered(enabled = true): { offered: boolean; settled: boolean } {
  const { data, isPending } = useQuery({
    queryKey: ["free-subscribe", "offered"],
    queryFn: freeSubscriptionOffered,
    enabled,
    staleTime: 5 * 60_000,
    meta: { silent: true },
  });
  return { offered: data === true, settled: !isPending };
}
