// File downloads with the bearer token (a character card, a data export), with the file name from Content-Disposition.
import { buildUrl, handleSessionStatus, isEnvelope, type RequestOptions, send } from "./client";
import { ApiError } from "./errors";

/* File downloads with the bearer token; only the character pages use them. */

/** The file name of a `Content-Disposition: attachment; filename="..."` header, or `fallback`. */
function attachmentName(header: string | null, fallback: string): string {
  const match = header ? /filename="?([^";]+)"?/i.exec(header) : null;
  return match?.[1]?.trim() || fallback;
}

/**
 * Downloads a file with GET and the bearer token (e.g. a character card), mapping 401 and 503
 * like `apiRequest`. Returns the bytes and the file name from `Content-Disposition`.
 * Throws `ApiError('envelope', message)` when the server answers a JSON envelope instead of a
 * file (e.g. 404 for a character that is not the user's), `network` when there is no answer.
 */
export async function apiDownload(
  path: string,
  query: RequestOptions["query"],
  fallbackName: string,
): Promise<{ blob: Blob; fileName: string }> {
  const response = await send(buildUrl(path, query), {});
  const isJson = (response.headers.get("Content-Type") ?? "").includes("application/json");
  const payload: unknown = isJson ? await response.json().catch(() => null) : null;
  handleSessionStatus(response.status, payload);
  if (isEnvelope(payload)) throw ApiError.fromEnvelope(payload, response.status, "Request failed");
  if (!response.ok) throw new ApiError(`HTTP ${response.status}`, "network", { status: response.status });
  return {
    blob: await response.blob(),
    fileName: attachmentName(response.headers.get("Content-Disposition"), fallbackName),
  };
}
