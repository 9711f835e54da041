import { buildUrl, handleSessionStatus, isEnvelope, send } from "./client";
import { ApiError } from "./errors";

/*
 * Server-sent events over POST (spec 4 streaming). Only the chat uses them, so they live
 * apart from the client every page loads.
 */

/** One server-sent event: its `event:` name and its `data:` parsed as JSON. */
export interface StreamEvent {
  event: string;
  data: unknown;
}

/** Parses the complete `event:`/`data:` blocks of `buffer`; returns them and the unfinished rest. */
function parseEventBlocks(buffer: string): { events: StreamEvent[]; rest: string } {
  const blocks = buffer.split("\n\n");
  const rest = blocks.pop() ?? "";
  const events: StreamEvent[] = [];
  for (const block of blocks) {
    let event = "message";
    const data: string[] = [];
    for (const line of block.split("\n")) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).trimStart());
    }
    if (data.length === 0) continue;
    try {
      events.push({ event, data: JSON.parse(data.join("\n")) });
    } catch {
      events.push({ event, data: data.join("\n") });
    }
  }
  return { events, rest };
}

/**
 * POSTs `body` asking for server-sent events (`Accept: text/event-stream`, bearer token as in
 * `apiRequest`) and calls `onEvent` for every event as it arrives (fetch + stream reader,
 * since EventSource cannot POST). Returns the last event: `done` or `error` for a stream.
 * When the server answers plain JSON instead (e.g. 429 at the daily limit), that envelope is
 * returned as a `done` event (success 1) or an `error` event. 401 and 503 are mapped like
 * `apiRequest` (spec 8). Throws `ApiError('network')` when the connection fails or the
 * stream ends without a final event.
 */
export async function apiStream(
  path: string,
  body: URLSearchParams | FormData,
  onEvent: (event: StreamEvent) => void,
  signal?: AbortSignal,
): Promise<StreamEvent> {
  const response = await send(buildUrl(path, undefined), {
    method: "POST",
    body,
    signal,
    accept: "text/event-stream",
  });
  const isStream = (response.headers.get("Content-Type") ?? "").includes("text/event-stream");
  if (!isStream || response.body === null) {
    const payload: unknown = await response.json().catch(() => null);
    handleSessionStatus(response.status, payload);
    if (!isEnvelope(payload)) {
      throw new ApiError(`HTTP ${response.status}`, "network", { status: response.status });
    }
    const final = { event: payload.success === 1 ? "done" : "error", data: payload };
    onEvent(final);
    return final;
  }
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let last: StreamEvent | null = null;
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const parsed = parseEventBlocks(buffer + value.replace(/\r\n/g, "\n"));
      buffer = parsed.rest;
      for (const event of parsed.events) {
        if (event.event === "done" || event.event === "error") last = event;
        onEvent(event);
      }
    }
  } catch (error) {
    throw new ApiError(error instanceof Error ? error.message : "Stream interrupted", "network");
  }
  if (last === null) throw new ApiError("The answer ended early.", "network");
  return last;
}
