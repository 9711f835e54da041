import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { demoChatUser } from "../e2e/support/demo";
import { completionsWire } from "./support/completions-wire.mjs";
import { cpuSplit, percentile } from "./support/measure";
import { postgresUrl, type WriteCounters, writeCounters } from "./support/postgres";
import { engineData, requireBuild, rssMb, serverEntry, settle, startServer } from "./support/server";
import { chatMessageRequest, StreamClient } from "./support/stream-client";

/**
 * Streamed chat under load, run by `npm run bench`. The compiled server
 * (`dist/server/main.js`, made by `npm run build`) runs as production does, with its default
 * settings except rate limits off and speech off, in front of an instant OpenAI-wire model double
 * that streams 32 tokens with no delay. For 1, 10 and 50 concurrent clients (one user each, a
 * closed loop: the next message when the reply has ended), on SQLite and, when PostgreSQL
 * answers (BENCH_DATABASE_URL, TEST_DATABASE_URL or 127.0.0.1:5432), on PostgreSQL, it prints:
 * - time to first token straight from the model (the same concurrency, just before) and through
 *   the server (the first `token` event), p50/p99 in ms, and their difference;
 * - the server's CPU time per message (user + system from /proc, ms), including the work a
 *   message sets off in the background (memory jobs), counted until the process is idle again;
 * - messages per second; the load generator's own CPU per message (this process: it shares the
 *   machine's two cores with the server and the model double, see support/stream-client.ts);
 *   and the server's RSS after the run (MB).
 * A closed loop measures the server saturated (time to first token there is clients ÷ messages
 * per second), so it holds no targets: the cost of a message without the wait of a real model.
 * Streaming at scale is measured by open-loop.bench.ts (arrivals at a rate, a model that streams
 * for seconds), which holds the targets.
 * Last, for reference, the same load through a bare Node.js proxy (`support/bare-proxy.mjs`: the
 * platform's floor, none of the product), then through the same proxy making only the SQLite
 * writes the server keeps (`stored`).
 * BENCH_ENGINES=sqlite (or postgres, bare, stored; all four by default) runs the chosen ones; BENCH_LEVELS=10 chosen levels; BENCH_MESSAGES
 * messages per level (600);
 * BENCH_CPU_PROF=<dir> makes the server write a CPU profile (`node --cpu-prof`) there;
 * BENCH_NODE_FLAGS adds node flags to the server (e.g. `--perf-basic-prof` for Linux perf).
 */

const TOKENS = 32;
const LEVELS = (process.env.BENCH_LEVELS ?? "1,10,50").split(",").map(Number);
/** Messages per level: enough for stable percentiles, a few seconds each (BENCH_MESSAGES: more, for A/B runs). */
const MESSAGES_PER_LEVEL = Number(process.env.BENCH_MESSAGES ?? 600);
const WARMUP_MESSAGES = 1000;
/** Sends per client before each level is measured: its connections are open, as in steady use. */
const LEVEL_WARMUP_SENDS = 3;

/** The model double: OpenAI Chat Completions, streamed (32 tokens at once) or whole. */
function startModel(): Promise<{ url: string; close(): void }> {
  const wire = completionsWire();
  const streamed = wire.stream(
    Array.from({ length: TOKENS }, (_unused, i) => (i === 0 ? "Hello" : ` w${i}`)),
  );
  const whole = wire.whole("[]");
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (part: string) => {
      body += part;
    });
    req.on("end", () => {
      if (body.includes('"stream":true')) {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(streamed);
      } else {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(whole);
      }
    });
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        close: () => server.close(),
      }),
    ),
  );
}

interface Client {
  token: string;
  characterId: string;
}

/** One streamed message as the SPA sends it (multipart, product.md §7 fields, stream=1). */
/** The load generator's connections (one kept-alive connection per busy client). */
const http1 = new StreamClient();

async function sendThroughServer(base: string, client: Client, i: number): Promise<number> {
  const { headers, body } = chatMessageRequest(client, `Tell me about your day, part ${i}`);
  return (await http1.post(`${base}/api/chat/message`, headers, body, "event: token")).first;
}

async function sendToModel(modelUrl: string, i: number): Promise<number> {
  const body = JSON.stringify({
    model: "bench",
    stream: true,
    messages: [{ role: "user", content: `Tell me about your day, part ${i}` }],
  });
  const headers = { "content-type": "application/json" };
  return (await http1.post(`${modelUrl}/chat/completions`, headers, Buffer.from(body), "Hello")).first;
}

/** `concurrency` closed loops sharing `total` sends; returns each send's time to first token. */
async function closedLoop(
  concurrency: number,
  total: number,
  send: (worker: number, i: number) => Promise<number>,
): Promise<{ ttft: number[]; wallMs: number }> {
  const ttft: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_unused, worker) => {
      while (next < total) {
        const i = next;
        next += 1;
        ttft.push(await send(worker, i));
      }
    }),
  );
  return { ttft, wallMs: performance.now() - started };
}

/** The platform's floor, measured the same way but not held to the targets (`support/bare-proxy.mjs`). */
const BARE = "Bare Node.js proxy (reference: no sign-in, database, quota, prompt or log)";
/** The floor with the writes the server keeps (`support/bare-proxy.mjs` with BARE_STORE_FILE). */
const STORED =
  "Bare Node.js proxy with the kept SQLite writes (reference: message stored with the quota before the model, reply stored)";

async function runEngine(
  engine: "SQLite" | "PostgreSQL" | typeof BARE | typeof STORED,
  modelUrl: string,
  pgBase?: string,
): Promise<void> {
  const bare = engine === BARE || engine === STORED;
  const data = await engineData("chat-load-", engine === "PostgreSQL" ? pgBase! : undefined);
  const entry = bare ? path.join(import.meta.dirname, "support/bare-proxy.mjs") : serverEntry;
  const server = await startServer(
    { ...data.env(modelUrl), BARE_STORE_FILE: engine === STORED ? path.join(data.dataDir, "bare.db") : "" },
    entry,
  );
  const pid = server.child.pid!;
  try {
    const clients: Client[] = [];
    for (let i = 0; i < Math.max(...LEVELS); i += 1) {
      clients.push(bare ? { token: "none", characterId: "none" } : await demoChatUser(server.base));
    }
    if (!bare) {
      await data.liftLimits();
    }
    // Warm-up: compiled code paths and connection pools, not counted.
    await closedLoop(Math.min(10, clients.length), WARMUP_MESSAGES, (w, i) =>
      sendThroughServer(server.base, clients[w]!, i),
    );
    await settle(pid);

    console.log(
      `\n${engine}: streamed messages, ${TOKENS} tokens from an instant model, one user per client`,
    );
    console.log(
      "clients | TTFT model p50/p99 ms | TTFT server p50/p99 ms | added p50/p99 ms | CPU ms/msg (user+sys) | msg/s | load generator CPU ms/msg",
    );
    // PostgreSQL only: what one message writes (the transactions and rows of the whole turn,
    // background memory jobs included, and the write-ahead log bytes, other databases' too).
    const writeLines: string[] = [];
    for (const level of LEVELS) {
      // Each level's connections are opened before it is measured (a few sends each, not counted).
      await closedLoop(level, level * LEVEL_WARMUP_SENDS, (_w, i) => sendToModel(modelUrl, i));
      const direct = await closedLoop(level, MESSAGES_PER_LEVEL, (_w, i) => sendToModel(modelUrl, i));
      await closedLoop(level, level * LEVEL_WARMUP_SENDS, (w, i) =>
        sendThroughServer(server.base, clients[w]!, i),
      );
      await settle(pid);
      const writesBefore = data.databaseUrl ? await writeCounters(data.databaseUrl) : undefined;
      const cpuBefore = cpuSplit(pid);
      const ownBefore = process.cpuUsage();
      const through = await closedLoop(level, MESSAGES_PER_LEVEL, (w, i) =>
        sendThroughServer(server.base, clients[w]!, i),
      );
      const own = process.cpuUsage(ownBefore);
      await settle(pid);
      const cpuAfter = cpuSplit(pid);
      if (writesBefore) {
        const after = await writeCounters(data.databaseUrl);
        const per = (field: keyof WriteCounters) =>
          ((after[field] - writesBefore[field]) / MESSAGES_PER_LEVEL).toFixed(1);
        writeLines.push(
          `${String(level).padStart(7)} | ${per("commits").padStart(12)} | ${per("rows").padStart(12)} | ${per("walBytes").padStart(9)}`,
        );
      }
      const userMs = (cpuAfter.user - cpuBefore.user) / MESSAGES_PER_LEVEL;
      const systemMs = (cpuAfter.system - cpuBefore.system) / MESSAGES_PER_LEVEL;
      const cpu = userMs + systemMs;
      const rate = (MESSAGES_PER_LEVEL * 1000) / through.wallMs;
      const addedP50 = percentile(through.ttft, 50) - percentile(direct.ttft, 50);
      const addedP99 = percentile(through.ttft, 99) - percentile(direct.ttft, 99);
      const pair = (values: number[]) =>
        `${percentile(values, 50).toFixed(1)} / ${percentile(values, 99).toFixed(1)}`;
      console.log(
        `${String(level).padStart(7)} | ${pair(direct.ttft).padStart(21)} | ${pair(through.ttft).padStart(22)} | ${`${addedP50.toFixed(1)} / ${addedP99.toFixed(1)}`.padStart(16)} | ${`${cpu.toFixed(2)} (${userMs.toFixed(2)}+${systemMs.toFixed(2)})`.padStart(21)} | ${rate.toFixed(0).padStart(5)} | ${((own.user + own.system) / 1000 / MESSAGES_PER_LEVEL).toFixed(2).padStart(25)}`,
      );
    }
    if (writeLines.length > 0) {
      console.log("PostgreSQL writes per message:");
      console.log("clients | transactions |  rows changed | WAL bytes");
      for (const line of writeLines) console.log(line);
    }
    console.log(`server RSS after the run: ${rssMb(pid).toFixed(0)} MB`);
  } finally {
    await data.dispose(server);
  }
}

requireBuild();
const engines = process.env.BENCH_ENGINES ?? "sqlite,postgres,bare,stored";
const model = await startModel();
try {
  if (engines.includes("sqlite")) await runEngine("SQLite", model.url);
  const pgBase = engines.includes("postgres") ? await postgresUrl() : undefined;
  if (!engines.includes("postgres")) console.log("\nPostgreSQL: not chosen (BENCH_ENGINES)");
  else if (pgBase) await runEngine("PostgreSQL", model.url, pgBase);
  else console.log("\nPostgreSQL: skipped (set BENCH_DATABASE_URL or run PostgreSQL on 127.0.0.1:5432)");
  if (engines.includes("bare")) await runEngine(BARE, model.url);
  if (engines.includes("stored")) await runEngine(STORED, model.url);
} finally {
  model.close();
  http1.close();
}
