// HTTP for remote providers: fetch with a time limit, refusing non-2xx answers, JSON posts, joining URLs, bearer headers and provider errors.
/**
 * What the HTTP providers (speech, transcription, images, OAuth, YouTube) share: one way to
 * call a remote endpoint with a time limit, one typed error when it fails, and the settings
 * every hosted model endpoint takes.
 */

/** Where a hosted model answers and how to reach it (the `*_BASE_URL`, `*_API_KEY`, `*_MODEL` settings). */
export interface ModelEndpointOptions {
  /** The endpoint's base URL, e.g. `http://localhost:8880/v1`; a trailing slash is ignored. */
  baseUrl: string;
  /** Secret sent the way the provider expects it; empty when the server needs none. */
  apiKey: string;
  /** The provider's model name, e.g. "tts-1", "whisper-1", "gpt-image-1". */
  model: string;
}

/** A remote provider failed or answered something unusable. The message is for logs, not users. */
export class ProviderError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "ProviderError";
  }
}

/**
 * A remote endpoint could not be reached, timed out, or answered a non-2xx status.
 * `message` is `"<url>: HTTP <status> <start of body>"` or `"<url>: <network error>"`.
 */
export class ProviderHttpError extends ProviderError {
  /**
   * @param url the URL that was called.
   * @param status the HTTP status of the answer; undefined when none came (network, timeout).
   * @param body the first 300 characters of the error answer ("" when none).
   * @param cause the network error when no answer came.
   */
  constructor(
    readonly url: string,
    readonly status: number | undefined,
    readonly body = "",
    cause?: unknown,
  ) {
    super(
      status === undefined ? `${url}: ${errorMessage(cause)}` : `${url}: HTTP ${status} ${body}`,
      cause === undefined ? undefined : { cause },
    );
    this.name = "ProviderHttpError";
  }

  /** Short reason without the URL: `"HTTP 401"`, or the network error's message. */
  get reason(): string {
    return this.status === undefined ? errorMessage(this.cause) : `HTTP ${this.status}`;
  }
}

/** `fetch` options plus a time limit. */
export interface ProviderRequestInit extends RequestInit {
  /** Milliseconds before the request is aborted (`AbortSignal.timeout`); none when omitted. */
  timeoutMs?: number;
}

/**
 * `fetch` for a provider: aborted after `timeoutMs` (together with the caller's own `signal`),
 * answering the response whatever its status.
 * @throws the caller's `signal.reason` unchanged when that signal aborted the request (a job's
 *   timeout or shutdown); ProviderHttpError (no status) when the endpoint cannot be reached or
 *   the time limit passed.
 */
export async function fetchWithTimeout(url: string | URL, init: ProviderRequestInit = {}): Promise<Response> {
  const { timeoutMs, signal, ...rest } = init;
  const signals = [signal, timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs)].filter(
    (s): s is AbortSignal => Boolean(s),
  );
  try {
    return await fetch(url, {
      ...rest,
      signal: signals.length > 1 ? AbortSignal.any(signals) : signals[0],
    });
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw new ProviderHttpError(String(url), undefined, "", error);
  }
}

/**
 * {@link fetchWithTimeout} that also refuses a non-2xx answer.
 * @throws ProviderHttpError with the status and the start of the body for a non-2xx answer;
 *   otherwise as {@link fetchWithTimeout}.
 */
export async function fetchOk(url: string | URL, init: ProviderRequestInit = {}): Promise<Response> {
  const response = await fetchWithTimeout(url, init);
  if (!response.ok) {
    const body = (await response.text().catch(() => "")).slice(0, 300);
    throw new ProviderHttpError(String(url), response.status, body);
  }
  return response;
}

/**
 * POSTs `body` as JSON (`content-type: application/json` plus `headers`) with {@link fetchOk}.
 * @throws as {@link fetchOk}.
 */
export function postJson(
  url: string | URL,
  body: unknown,
  init: Omit<ProviderRequestInit, "method" | "body" | "headers"> & { headers?: Record<string, string> } = {},
): Promise<Response> {
  return fetchOk(url, {
    ...init,
    method: "POST",
    headers: { "content-type": "application/json", ...init.headers },
    body: JSON.stringify(body),
  });
}

/** Joins a base URL and a path without doubling or dropping the slash. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
}

/** The `authorization: Bearer <key>` header, or no header when the key is empty (local servers). */
export function bearer(apiKey: string): Record<string, string> {
  return apiKey ? { authorization: `Bearer ${apiKey}` } : {};
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
