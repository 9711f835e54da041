import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ProviderHttpError } from "../http";
import { ChatCompletionsClient } from "./chat-completions";

const delta = (content: string) =>
  `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;

/** What the endpoint does next, by the request's last user words. */
function behave(words: string, req: http.IncomingMessage, res: http.ServerResponse, seen: number): void {
  if (words === "fail") {
    res.writeHead(503, { "content-type": "application/json" });
    res.end('{"error":{"message":"model is loading"}}');
  } else if (words === "stream error") {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(`${delta("Hel")}data: {"error":{"message":"out of memory"}}\n\n`);
  } else if (words === "drop first" && seen === 1) {
    req.socket.destroy();
  } else if (words === "done then linger") {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write(`${delta("Bye")}data: [DONE]\n\n`);
    // The answer ends only later (a trailing usage event, a slow close): the text is complete at [DONE].
    setTimeout(() => res.end(": trailing\n\n"), 400);
  } else if (words === "cut") {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write(delta("half"));
    setTimeout(() => req.socket.destroy(), 20);
  } else if (words === "slow") {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write(delta("first"));
    // Never ends by itself: the client aborts.
  } else {
    res.writeHead(200, { "content-type": "text/event-stream" });
    // Split across writes mid-event: the parser must join them.
    const all = `${delta("Hel")}${delta("lo")}data: [DONE]\n\n`;
    res.write(all.slice(0, 20));
    res.end(all.slice(20));
  }
}

describe("ChatCompletionsClient (the lean Chat Completions client)", () => {
  const counts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (part) => {
      raw += part;
    });
    req.on("end", () => {
      const body = JSON.parse(raw) as { messages: Array<{ content: string }> };
      const words = body.messages.at(-1)?.content ?? "";
      counts.set(words, (counts.get(words) ?? 0) + 1);
      behave(words, req, res, counts.get(words)!);
    });
  });
  let client: ChatCompletionsClient;
  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    client = new ChatCompletionsClient({
      baseUrl: `http://127.0.0.1:${port}/v1/`,
      apiKey: "",
      timeoutMs: 2000,
    });
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });
  const body = (words: string) => ({
    model: "m",
    max_tokens: 8,
    messages: [{ role: "user" as const, content: words }],
  });

  it("joins events split across network reads, passes a read's pieces on as one, and stops at [DONE]", async () => {
    const pieces: string[] = [];
    expect(await client.stream(body("hi"), (piece) => pieces.push(piece))).toBe("Hello");
    // The first read ends inside "Hel"'s event; the second completes it and holds "lo".
    expect(pieces).toEqual(["Hello"]);
  });

  it("returns at [DONE] without waiting for the answer to end, and the connection is used again", async () => {
    const started = performance.now();
    expect(await client.stream(body("done then linger"), () => {})).toBe("Bye");
    expect(performance.now() - started).toBeLessThan(300);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await client.stream(body("again"), () => {})).toBe("Hello");
  });

  it("rejects an answer cut off before [DONE], after passing on the text so far", async () => {
    const pieces: string[] = [];
    const failure = await client.stream(body("cut"), (p) => pieces.push(p)).catch((e: unknown) => e);
    expect(pieces).toEqual(["half"]);
    expect(failure).toBeInstanceOf(Error);
  });

  it("answers a non-2xx status with ProviderHttpError carrying the status and the body's start", async () => {
    const failure = await client.stream(body("fail"), () => {}).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProviderHttpError);
    expect((failure as ProviderHttpError).status).toBe(503);
    expect((failure as ProviderHttpError).message).toContain("model is loading");
  });

  it("turns an error event in the stream into ProviderHttpError after the text before it", async () => {
    const pieces: string[] = [];
    const failure = await client.stream(body("stream error"), (p) => pieces.push(p)).catch((e: unknown) => e);
    expect(pieces).toEqual(["Hel"]);
    expect((failure as Error).message).toContain("out of memory");
  });

  it("sends once more when the connection dropped before any answer", async () => {
    expect(await client.stream(body("drop first"), () => {})).toBe("Hello");
    expect(counts.get("drop first")).toBe(2);
  });

  it("stops reading when aborted, after passing on the text so far", async () => {
    const controller = new AbortController();
    const pieces: string[] = [];
    const reading = client.stream(
      body("slow"),
      (piece) => {
        pieces.push(piece);
        controller.abort("stop");
      },
      controller.signal,
    );
    await expect(reading).rejects.toBeDefined();
    expect(pieces).toEqual(["first"]);
    expect(counts.get("slow")).toBe(1);
  });
});
