import type { Socket } from "node:net";
import Fastify from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openEventStream } from "./sse";

/**
 * A socket write costs the server more than anything else in a streamed reply, so the
 * events of one turn of the event loop (the tokens of one network read from the model and, when
 * the model's answer ended in that read, `done`) leave together.
 */
describe("openEventStream: events of one turn leave in one socket write", () => {
  const app = Fastify();
  const writes: number[] = [];
  beforeAll(async () => {
    app.get("/events", (request, reply) => {
      const socket = request.raw.socket as Socket & {
        _writev: (...args: unknown[]) => void;
        _write: (...args: unknown[]) => void;
      };
      let count = 0;
      for (const method of ["_writev", "_write"] as const) {
        const original = socket[method].bind(socket);
        socket[method] = (...args: unknown[]) => {
          count += 1;
          original(...args);
        };
      }
      const events = openEventStream(reply);
      events.send("entry", { id: "e1" });
      setTimeout(() => {
        const before = count;
        // One network read's tokens, then the stored reply's `done` after a few promise hops.
        events.send("token", { text: "Hel" });
        events.send("token", { text: "lo" });
        void Promise.resolve()
          .then(() => Promise.resolve())
          .then(() => {
            events.send("done", { success: 1 });
            writes.push(count - before);
          });
      }, 20);
    });
    await app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(() => app.close());

  it("sends the tokens and done of one turn in a single write, after the entry's own", async () => {
    const { port } = app.server.address() as { port: number };
    const response = await fetch(`http://127.0.0.1:${port}/events`);
    const text = await response.text();
    expect(text.split("event: ").length - 1).toBe(4);
    expect(text).toContain('event: done\ndata: {"success":1}');
    expect(writes).toEqual([1]);
  });
});

describe("openEventStream: a stream whose client goes away is logged", () => {
  const lines: Array<Record<string, unknown>> = [];
  const app = Fastify({
    logger: { level: "info", stream: { write: (line: string) => lines.push(JSON.parse(line)) } },
  });
  beforeAll(async () => {
    app.get("/events", (_request, reply) => {
      const events = openEventStream(reply);
      events.send("entry", { id: "e1" });
      // The reply goes on after the client has left; it is never ended here.
    });
    await app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(() => app.close());

  it("writes the request line with closedByClient when the client disconnects mid-stream", async () => {
    const { port } = app.server.address() as { port: number };
    const controller = new AbortController();
    const response = await fetch(`http://127.0.0.1:${port}/events`, { signal: controller.signal });
    const reader = response.body!.getReader();
    await reader.read();
    controller.abort();
    await expect
      .poll(() => lines.find((line) => line.msg === "request" && line.url === "/events"), { timeout: 2000 })
      .toMatchObject({ method: "GET", statusCode: 200, closedByClient: true });
  });
});
