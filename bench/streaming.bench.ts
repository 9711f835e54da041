import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { createInterface } from "node:readline";
import { demoChatUser } from "../e2e/support/demo";
import { completionsWire } from "./support/completions-wire.mjs";
import { cpuMs, percentile, timeStream } from "./support/measure";

/**
 * Streaming benchmark, run by `npm run bench` after the chat-message one:
 * 1. time to first token (TTFT) straight from a model endpoint vs through our server's
 *    server-sent events, the difference being what our server adds (target: under 10 ms at p50);
 * 2. 100 concurrent streaming chats: wall time and the server process's own CPU time per message
 *    (user + system, read from /proc).
 * The model endpoint is a local OpenAI-compatible server streaming 20 tokens, the first after
 * 20 ms and then one every 5 ms, so only our server's part varies.
 */
const FIRST_TOKEN_MS = 20;
const TOKEN_GAP_MS = 5;
const TOKENS = 20;
const TTFT_SAMPLES = 60;
const CONCURRENT_CHATS = 100;

function startModelEndpoint(): Promise<{ url: string; close(): void }> {
  const wire = completionsWire();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      let sent = 0;
      const tick = () => {
        res.write(wire.chunk(sent === 0 ? "Hello" : ` word${sent}`));
        sent += 1;
        if (sent < TOKENS) setTimeout(tick, TOKEN_GAP_MS);
        else res.end("data: [DONE]\n\n");
      };
      setTimeout(tick, FIRST_TOKEN_MS);
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        close: () => server.close(),
      }),
    ),
  );
}

async function startServer(
  env: Record<string, string>,
): Promise<{ base: string; pid: number; stop(): void }> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(import.meta.dirname, "bench-server.ts")],
    {
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, ...env },
    },
  );
  for await (const line of createInterface({ input: child.stdout })) {
    const match = /^PORT (\d+)/.exec(line);
    if (match)
      return { base: `http://127.0.0.1:${match[1]}`, pid: child.pid!, stop: () => child.kill("SIGTERM") };
  }
  throw new Error("bench server did not start");
}

function sendStreaming(base: string, user: { token: string; characterId: string }, i: number) {
  return fetch(`${base}/api/chat/message`, {
    method: "POST",
    headers: { authorization: `Bearer ${user.token}`, accept: "text/event-stream" },
    body: new URLSearchParams({ message: `Streaming message ${i}`, id: user.characterId }),
  });
}

const model = await startModelEndpoint();
const server = await startServer({ BENCH_LLM_BASE_URL: model.url });
try {
  const users = [];
  for (let i = 0; i < CONCURRENT_CHATS; i++) users.push(await demoChatUser(server.base));

  const direct: number[] = [];
  const through: number[] = [];
  for (let i = 0; i < TTFT_SAMPLES; i++) {
    let started = performance.now();
    const raw = await fetch(`${model.url}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "bench", stream: true, messages: [{ role: "user", content: "hi" }] }),
    });
    direct.push((await timeStream(raw, started, "Hello")).first);
    started = performance.now();
    const viaServer = await sendStreaming(server.base, users[i % users.length]!, i);
    through.push((await timeStream(viaServer, started, "event: token")).first);
  }
  console.log(
    `\nTime to first token, ${TTFT_SAMPLES} sequential streamed messages (model's first token after ${FIRST_TOKEN_MS} ms)`,
  );
  console.log("path                 p50 ms   p99 ms");
  console.log(
    `model directly    ${percentile(direct, 50).toFixed(2).padStart(8)} ${percentile(direct, 99).toFixed(2).padStart(8)}`,
  );
  console.log(
    `through our server${percentile(through, 50).toFixed(2).padStart(8)} ${percentile(through, 99).toFixed(2).padStart(8)}`,
  );
  console.log(
    `added by our server (p50): ${(percentile(through, 50) - percentile(direct, 50)).toFixed(2)} ms (target < 10 ms)`,
  );

  const cpuBefore = cpuMs(server.pid);
  const started = performance.now();
  const results = await Promise.all(
    users.map(async (user, i) =>
      timeStream(await sendStreaming(server.base, user, 1000 + i), started, "event: token"),
    ),
  );
  const wall = performance.now() - started;
  const cpu = cpuMs(server.pid) - cpuBefore;
  console.log(`\n${CONCURRENT_CHATS} concurrent streaming chats (${TOKENS} tokens each)`);
  console.log(
    `wall time ${wall.toFixed(0)} ms; first token p50 ${percentile(
      results.map((r) => r.first),
      50,
    ).toFixed(1)} ms, p99 ${percentile(
      results.map((r) => r.first),
      99,
    ).toFixed(1)} ms; last byte p99 ${percentile(
      results.map((r) => r.end),
      99,
    ).toFixed(1)} ms`,
  );
  console.log(
    `server CPU time: ${cpu.toFixed(0)} ms in all, ${(cpu / CONCURRENT_CHATS).toFixed(2)} ms per message (includes background memory work)`,
  );
} finally {
  server.stop();
  model.close();
}
