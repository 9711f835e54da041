// A scripted fetch for the stream tests: event-stream and JSON answers, SSE blocks, the calls made.
import { vi } from "vitest";

/**
 * A scripted `fetch` for the stream tests: each call takes the next answer of the
 * script; an answer is a Response, or an Error to reject with (no connection). Event-stream
 * bodies are built by `events`, optionally breaking after their last chunk.
 */

export interface FetchCall {
  url: string;
  method: string;
  headers: Record<string, string>;
}

/** One answer: a Response, or an Error the fetch rejects with. */
export type Answer = Response | Error;

/** An event-stream Response whose body sends `chunks`, then ends, or breaks when `broken`. */
export function events(chunks: string[], broken = false): Response {
  const encoder = new TextEncoder();
  const queue = [...chunks];
  // One chunk per read, then the end: erroring a stream drops what is still queued in it.
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = queue.shift();
      if (chunk !== undefined) controller.enqueue(encoder.encode(chunk));
      else if (broken) controller.error(new TypeError("network error"));
      else controller.close();
    },
  });
  return new Response(body, { headers: { "Content-Type": "text/event-stream; charset=utf-8" } });
}

/** A JSON Response with `status`. */
export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

/** One SSE block: `id:` (when given), `event:` and `data:` as JSON. */
export function block(event: string, data: unknown, id?: number): string {
  return `${id === undefined ? "" : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/**
 * Replaces `fetch` and `localStorage` (a stored token "secret") for one test; returns the calls
 * made. Calls past the end of `script` reject like a refused connection.
 */
export function scriptFetch(script: Answer[]): FetchCall[] {
  const calls: FetchCall[] = [];
  const answers = [...script];
  vi.stubGlobal("localStorage", {
    getItem: (key: string) =>
      key === "token" ? JSON.stringify({ token: "secret", expirationTime: Date.now() + 60_000 }) : null,
  });
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      if (init.signal?.aborted) throw new DOMException("aborted", "AbortError");
      calls.push({
        url,
        method: init.method ?? "GET",
        headers: { ...(init.headers as Record<string, string>) },
      });
      const answer = answers.shift() ?? new TypeError("connection refused");
      if (answer instanceof Error) throw answer;
      return answer;
    }),
  );
  return calls;
}
