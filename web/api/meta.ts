// The deployed version read from /meta.json, uncached (product.md §4 "Cache busting").
/**
 * The hosted meta file (product.md §4 "Cache busting", product.md §7: GET /meta.json on the app's own
 * origin). It is not an API envelope, so it does not go through `apiRequest`.
 */

/** GET /meta.json without any cache; resolves its `version`. Throws when there is no version. */
export async function fetchDeployedVersion(signal?: AbortSignal): Promise<string> {
  const response = await fetch("/meta.json", {
    cache: "no-store",
    headers: { Accept: "application/json" },
    signal,
  });
  if (!response.ok) throw new Error(`meta.json: HTTP ${response.status}`);
  const body = (await response.json()) as unknown;
  const version =
    typeof body === "object" && body !== null && "version" in body
      ? (body as { version: unknown }).version
      : null;
  if (typeof version !== "string" || version === "") throw new Error("meta.json has no version");
  return version;
}
