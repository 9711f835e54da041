import http from "node:http";
import type { AddressInfo } from "node:net";

/** The body of a Chat Completions request, as the double received it. */
export interface CompletionsRequest {
  model: string;
  messages: Array<{ role: string; content: string }>;
  stream?: boolean;
  stop?: string[];
  max_tokens?: number;
}

/**
 * A local server speaking the OpenAI Chat Completions wire format (JSON and server-sent events)
 * whose answers come from `reply`: the scripted model of the engine tests (issue 5). Point the
 * app at it with LLM_PROVIDER=openai and LLM_BASE_URL=`baseUrl`.
 */
export async function startScriptedCompletions(
  reply: (request: CompletionsRequest) => string | Promise<string>,
): Promise<{ baseUrl: string; requests: CompletionsRequest[]; close(): Promise<void> }> {
  const requests: CompletionsRequest[] = [];
  const server = http.createServer((req, res) => {
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
        for (const piece of text.match(/\S+\s*|\s+/g) ?? []) {
          const chunk = {
            id: "scripted",
            object: "chat.completion.chunk",
            created: 1,
            model: body.model,
            choices: [{ index: 0, delta: { content: piece }, finish_reason: null }],
          };
          res.write(`data: ${JSON.stringify(chunk)}\n\n`);
        }
        res.end("data: [DONE]\n\n");
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
