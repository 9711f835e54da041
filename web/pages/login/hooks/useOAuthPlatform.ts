// Whether the server offers sign-in with an OAuth platform (YouTube), false until it says so.
import { useQuery } from "@tanstack/react-query";
import { oauthPlatforms } from "../../../api/auth";

/**
 * Whether the server offers sign-in with `platform` ("Sign in with YouTube" shows only
 * when OAuth is configured). `offered` is false while the answer is pending and when it fails (a
 * failure is only logged, product.md §8), so a button that could only fail never shows; `settled` turns
 * true once the server's answer (or its failure) is in.
 */
export function useOAuthPlatform(platform: string): { offered: boolean; settled: boolean } {
  const { data, isPending } = useQuery({
    queryKey: ["auth", "oauth-platforms"],
    queryFn: oauthPlatforms,
    staleTime: 5 * 60_000,
    meta: { silent: true },
  });
  return { offered: data?.includes(platform) ?? false, settled: !isPending };
}
