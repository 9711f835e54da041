import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { SSE_HEARTBEAT_MS } from "../server/http/sse";
import { demoWithCharacter } from "../server/testing/api";
import { ScriptedLlm } from "../server/testing/fake-llm";
import { type ListeningApp, startListening } from "./support/server";

/**
 * A model that is silent for a long time must not leave a streamed answer
 * without a byte (proxies cut idle connections). A comment line (`: keep-alive`) is sent at
 * least every SSE_HEARTBEAT_MS (15 s) while the stream is open, over a real socket. The
 * interval's timer is faked so the test does not wait 15 s; everything else runs on real time.
 */
describe("server-sent events heartbeat", () => {
  let server: ListeningApp;
  /**
   * Holds the model until the test opens it. A gate, not the call's own resolver: the reply may
   * start after the first event was sent (on the shared stack the entry goes out through Redis
   * first), and opening it before the model is called must still let the reply through.
   */
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const llm = new ScriptedLlm(async (request) => {
    if (!request.messages[0]!.content.startsWith("You are")) return "[]";
    await gate;
    return "Sorry, I was thinking.";
  });
  beforeAll(async () => {
    server = await startListening({ llm });
  });
  afterAll(async () => {
    vi.useRealTimers();
    release();
    await server?.dispose();
  });

  it("sends a keep-alive comment before the first token while the model is silent, and stops after", async () => {
    expect(SSE_HEARTBEAT_MS).toBeLessThanOrEqual(15_000);
    const s = await demoWithCharacter(server.app);
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    try {
      const response = await fetch(`${server.url}/api/chat/message`, {
        method: "POST",
        headers: { authorization: `Bearer ${s.token}`, accept: "text/event-stream" },
        body: new URLSearchParams({ message: "Are you there?", id: s.characterId }),
      });
      expect(response.headers.get("content-type")).toContain("text/event-stream");
      const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = "";
      /** Reads until `pattern` appears; fails after `ms` of real time without it. */
      const readUntil = async (pattern: string, ms = 3000) => {
        const deadline = Date.now() + ms;
        while (!text.includes(pattern)) {
          const left = deadline - Date.now();
          if (left <= 0) throw new Error(`no "${pattern}" within ${ms} ms; got: ${JSON.stringify(text)}`);
          const chunk = await Promise.race([
            reader.read(),
            new Promise<"late">((resolve) => setTimeout(() => resolve("late"), left)),
          ]);
          if (chunk === "late") continue;
          if (chunk.done) throw new Error(`stream ended without "${pattern}"; got: ${JSON.stringify(text)}`);
          text += chunk.value;
        }
      };
      await readUntil("event: entry");
      vi.advanceTimersByTime(SSE_HEARTBEAT_MS);
      await readUntil(": keep-alive\n\n");
      expect(text).not.toContain("event: token");
      vi.advanceTimersByTime(SSE_HEARTBEAT_MS);
      await readUntil(": keep-alive\n\n: keep-alive\n\n");
      release();
      await readUntil("event: done");
      // The heartbeat ends with the stream.
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });
});
