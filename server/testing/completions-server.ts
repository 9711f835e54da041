// A scripted model for engine tests: a local server speaking the OpenAI Chat Completions wire format, plain and streamed.
import http from "node:http";
import type { AddressInfo } from "node:net";

/** The body of a Chat Completions request, as the double received it. */
export interface CompletionsRequest {
  model: string;
  messages: Array<{ role: string; content: string }>;
  stream?: boolean;
  stop?: string[];
  max_tokens?: number;
  temperature?: number;
}

/** How the scripted model paces a streamed answer. */
export interface ScriptedCompletionsOptions {
  /**
   * Pause before each streamed piece (a word with its spaces), milliseconds, or a function of the
   * request (e.g. slow chat replies, instant memory calls). Default 0: all pieces at once, as before.
   * Pieces stop when the client goes away. Whole (non-streamed) answers are never delayed.
   */
  tokenDelayMs?: number | ((request: CompletionsRequest) => number);
  /** The model ids `GET /v1/models` lists (OpenAI's `{ object: "list", data }`). Default: none. */
  models?: string[];
}

/** A running scripted model: where it listens and what it was asked. */
export interface ScriptedCompletions {
  /** e.g. `http://127.0.0.1:41234/v1`. */
  baseUrl: string;
  /** The Chat Completions request bodies, in arrival order. */
  requests: CompletionsRequest[];
  /** The Authorization header of every request (model list included), in order; "" when none. */
  authorizations: string[];
  close(): Promise<void>;
}

/**
 * A local server speaking the OpenAI Chat Completions wire format (JSON and server-sent events)
 * whose answers come from `reply`: the scripted model of the engine tests. Point the
 * app at it with LLM_PROVIDER=openai and LLM_BASE_URL=`baseUrl` (or an admin's model connection).
 * `options.tokenDelayMs` makes a streamed answer slow (replies followed, stopped or cut off
 * mid-way); `GET /v1/models` lists `options.models`.
 */
export async function startScriptedCompletions(
  reply: (request: CompletionsRequest) => string | Promise<string>,
  options: ScriptedCompletionsOptions = {},
): Promise<ScriptedCompletions> {
  const requests: CompletionsRequest[] = [];
  const authorizations: string[] = [];
  const delayOf = (request: CompletionsRequest) =>
    typeof options.tokenDelayMs === "function" ? options.tokenDelayMs(request) : (options.tokenDelayMs ?? 0);
  const server = http.createServer((req, res) => {
    authorizations.push(req.headers.authorization ?? "");
    if (req.method === "GET" && req.url === "/v1/models") {
      const data = (options.models ?? []).map((id) => ({ id, object: "model" }));
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data }));
      return;
    }
    let raw = "";
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", () => {
      const body = JSON.parse(raw) as CompletionsRequest;
      requests.push(body);
      void Promise.resolve(reply(body)).then((text) => {
        if (!body.stream) {
          res.writeHead(200, { "content-type": "application/json" });
          res.end(
            JSON.stringify({
              id: "scripted",
              object: "chat.completion",
              created: 1,
              model: body.model,
              choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: text } }],
            }),
          );
          return;
        }
        res.writeHead(200, { "content-type": "text/event-stream" });
        void streamPieces(res, body.model, text.match(/\S+\s*|\s+/g) ?? [], delayOf(body));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const close = () =>
    new Promise<void>((resolve) => {
      // Slow answers still streaming must not hold the server open.
      if (options.tokenDelayMs !== undefined) server.closeAllConnections();
      server.close(() => resolve());
    });
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    authorizations,
    close,
  };
}

/** Writes `pieces` as Chat Completions chunks, `delayMs` apart (0: at once), then `[DONE]`. */
async function streamPieces(
  res: http.ServerResponse,
  model: string,
  pieces: string[],
  delayMs: number,
): Promise<void> {
  let gone = false;
  res.once("close", () => {
    gone = true;
  });
  for (const piece of pieces) {
    if (delayMs > 0) await pause(res, delayMs);
    if (gone || res.destroyed) return;
    const chunk = {
      id: "scripted",
      object: "chat.completion.chunk",
      created: 1,
      model,
      choices: [{ index: 0, delta: { content: piece }, finish_reason: null }],
    };
    res.write(`data: ${JSON.stringify(chunk)}\n\n`);
  }
  if (!gone && !res.destroyed) res.end("data: [DONE]\n\n");
}

/** Waits `ms`, or less when the client goes away first (so no timer outlives the answer). */
function pause(res: http.ServerResponse, ms: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      res.off("close", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    res.once("close", done);
  });
}
