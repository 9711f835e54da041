import { spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import { sendStreamed } from "../cluster/support";
import { demoChatUser } from "../e2e/support/demo";
import { type CompletionsRequest, startScriptedCompletions } from "../server/testing/completions-server";
import { cpuMs, percentile, timeStream } from "./support/measure";
import { postgresUrl } from "./support/postgres";

/**
 * Scale benchmark: the built server as a cluster on this machine (server/testing/
 * cluster.ts: instances on PostgreSQL, Redis and s3rver behind a real nginx), with an instant
 * OpenAI-wire model double (32 streamed tokens, no delay) in this process. It prints, with no
 * timing assertions:
 * - streamed chat messages per second through nginx with 2 instances (round robin) and with 1
 *   (B stopped, routed to A), CLIENTS closed-loop clients (one demo user each), time to first token and to
 *   the end (p50/p99), CPU ms per message of each instance and of nginx, and the ratio 2/1
 *   (on 2 cores expect well under 2: the load clients, the model, nginx, PostgreSQL and Redis
 *   share them);
 * - memory per 1 000 idle open streams: OPEN streamed messages to instance A (through nginx)
 *   whose model has stalled, RSS of freshly restarted A before and after; then, where the server
 *   has the resumable stream route (GET /api/chat/stream), OPEN followers of those replies on B.
 * Needs PostgreSQL (BENCH_DATABASE_URL, TEST_DATABASE_URL or 127.0.0.1:5432), Redis
 * (TEST_REDIS_URL or 127.0.0.1:6379) and nginx; without one it says so and exits 0.
 * BENCH_CLUSTER_CLIENTS (20), BENCH_CLUSTER_MESSAGES (1000 per run), BENCH_CLUSTER_STREAMS (1000).
 */

const CLIENTS = Number(process.env.BENCH_CLUSTER_CLIENTS ?? 20);
const MESSAGES = Number(process.env.BENCH_CLUSTER_MESSAGES ?? 1000);
const OPEN = Number(process.env.BENCH_CLUSTER_STREAMS ?? 1000);
const WARMUP = 400;
const TOKENS = 32;
const REPLY = Array.from({ length: TOKENS }, (_unused, i) => (i === 0 ? "Hello" : `w${i}`)).join(" ");

/** Whether a TCP server answers on host:port within a second. */
function answers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port, timeout: 1000 });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
    socket.once("timeout", () => done(false));
  });
}

const databaseUrl = await postgresUrl();
const redisUrl =
  process.env.TEST_REDIS_URL || ((await answers("127.0.0.1", 6379)) ? "redis://127.0.0.1:6379" : "");
if (!databaseUrl || !redisUrl) {
  console.log(
    `cluster bench: skipped (${databaseUrl ? "no Redis: set TEST_REDIS_URL" : "no PostgreSQL: set BENCH_DATABASE_URL or TEST_DATABASE_URL"})`,
  );
  process.exit(0);
}
// The harness reads these when it is loaded.
process.env.TEST_DATABASE_URL = databaseUrl;
process.env.TEST_REDIS_URL = redisUrl;
const { clusterUnavailable, findNginx, startCluster } = await import("../server/testing/cluster");
type Cluster = Awaited<ReturnType<typeof startCluster>>;
const unavailable = clusterUnavailable();
if (unavailable) {
  console.log(`cluster bench: skipped (${unavailable})`);
  process.exit(0);
}

interface Client {
  token: string;
  characterId: string;
}

/** While true the model double holds every streamed answer (its first piece waits an hour). */
let stalled = false;
const isStream = (request: CompletionsRequest) => request.stream === true;
const model = await startScriptedCompletions((request) => (isStream(request) ? REPLY : "[]"), {
  tokenDelayMs: (request) => (stalled && isStream(request) ? 3_600_000 : 0),
});

/** One streamed message as the SPA sends it (the cluster test's call), through nginx to `via`. */
function postMessage(cluster: Cluster, via: string, client: Client, i: number, signal?: AbortSignal) {
  return sendStreamed(cluster, via, client, `Tell me about your day, part ${i}`, signal);
}

/** `CLIENTS` closed loops sharing `total` messages to `via`; each message's TTFT and end, ms. */
async function closedLoop(cluster: Cluster, via: string, clients: Client[], total: number) {
  const first: number[] = [];
  const end: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    clients.map(async (client) => {
      while (next < total) {
        const i = next;
        next += 1;
        const sent = performance.now();
        const timing = await timeStream(await postMessage(cluster, via, client, i), sent, "event: token");
        first.push(timing.first);
        end.push(timing.end);
      }
    }),
  );
  return { first, end, wallMs: performance.now() - started };
}

/** Waits until none of `pids` has used CPU for 300 ms (background jobs done), at most 5 s. */
async function settle(pids: number[]): Promise<void> {
  const total = () => pids.reduce((sum, pid) => sum + cpuMs(pid), 0);
  const deadline = Date.now() + 5000;
  let last = total();
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const now = total();
    if (now === last) return;
    last = now;
  }
}

const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? Number.NaN) / 1024;

/**
 * One throughput run to `via` with the instances running now (a stopped one shows "-"); prints
 * its line. @returns messages per second.
 */
async function throughput(cluster: Cluster, label: string, via: string, clients: Client[]): Promise<number> {
  const pids = [...cluster.instances.map((i) => (i.running ? i.pid : 0)), cluster.nginxPid];
  const live = pids.filter((pid) => pid > 0);
  await settle(live);
  const before = pids.map((pid) => (pid ? cpuMs(pid) : 0));
  const run = await closedLoop(cluster, via, clients, MESSAGES);
  await settle(live);
  const perMessage = pids.map((pid, k) => (pid ? ((cpuMs(pid) - before[k]!) / MESSAGES).toFixed(2) : "-"));
  const rate = (MESSAGES * 1000) / run.wallMs;
  const pair = (values: number[]) =>
    `${percentile(values, 50).toFixed(1)} / ${percentile(values, 99).toFixed(1)}`;
  console.log(
    `${label.padEnd(11)} | ${rate.toFixed(0).padStart(5)} | ${pair(run.first).padStart(15)} | ${pair(run.end).padStart(15)} | ${perMessage.join(" / ").padStart(20)}`,
  );
  return rate;
}

/**
 * Opens `count` streams with `open(i, signal)` and waits until each has sent `marker`; the
 * streams stay open (their readers are kept) until the returned close() aborts them.
 */
async function holdStreams(
  count: number,
  marker: string,
  open: (i: number, signal: AbortSignal) => Promise<Response>,
): Promise<{ entries: string[]; close(): void }> {
  const controller = new AbortController();
  const entries: string[] = [];
  const one = async (i: number) => {
    const response = await open(i, controller.signal);
    if (response.status !== 200) throw new Error(`stream ${i}: HTTP ${response.status}`);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    while (!text.includes(marker)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`stream ${i} ended before ${marker}: ${text.slice(0, 200)}`);
      text += decoder.decode(value, { stream: true });
    }
    entries[i] = /"chatHistoryUUID":"([^"]+)"/.exec(text)?.[1] ?? "";
    // Keep reading (and so the connection) until the bench aborts it.
    void (async () => {
      for (;;) if ((await reader.read().catch(() => ({ done: true }))).done) return;
    })();
  };
  // Fifty at a time: a thousand requests of the same millisecond would measure the burst, not the streams.
  for (let i = 0; i < count; i += 50)
    await Promise.all(Array.from({ length: Math.min(50, count - i) }, (_u, k) => one(i + k)));
  return { entries, close: () => controller.abort() };
}

async function idleStreams(cluster: Cluster, clients: Client[]): Promise<void> {
  const a = cluster.instance("a");
  const b = cluster.instance("b");
  stalled = true;
  // Fresh processes: heap left over from the throughput runs would absorb the streams unseen.
  await Promise.all([a.restart(), b.restart()]);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  await settle([a.pid, b.pid]);
  const beforeA = rssMb(a.pid);
  const posts = await holdStreams(OPEN, "event: entry", (i, signal) =>
    postMessage(cluster, "a", clients[i % clients.length]!, i, signal),
  );
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const afterA = rssMb(a.pid);
  const line = (what: string, before: number, after: number) =>
    console.log(
      `${what}: RSS ${before.toFixed(0)} -> ${after.toFixed(0)} MB: ${(((after - before) * 1000) / OPEN).toFixed(1)} MB per 1 000 streams (${(((after - before) * 1024) / OPEN).toFixed(0)} KB each)`,
    );
  line(`${OPEN} open streamed replies on A, model stalled`, beforeA, afterA);
  const probe = await cluster.fetch("b", `/api/chat/stream?id=${posts.entries[0]}`, {
    headers: { authorization: `Bearer ${clients[0]!.token}`, accept: "text/event-stream" },
  });
  await probe.body?.cancel();
  if (probe.status !== 200) {
    console.log(`followers on B: not measured (GET /api/chat/stream answers ${probe.status})`);
  } else {
    const beforeB = rssMb(b.pid);
    // The first event replayed (from the start: no Last-Event-ID) shows the follower is attached.
    const follows = await holdStreams(OPEN, "event: ", (i, signal) =>
      cluster.fetch("b", `/api/chat/stream?id=${posts.entries[i]}`, {
        headers: {
          authorization: `Bearer ${clients[i % clients.length]!.token}`,
          accept: "text/event-stream",
        },
        signal,
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 2000));
    line(`${OPEN} followers of those replies on B (resume streams)`, beforeB, rssMb(b.pid));
    follows.close();
  }
  posts.close();
  stalled = false;
}

// `nginx -v` answers on stderr.
const nginxVersion = spawnSync(findNginx()!, ["-v"], { encoding: "utf8" }).stderr.trim();
console.log(
  `cluster bench: ${os.availableParallelism()} cores, node ${process.version}, ${nginxVersion || "nginx"}; PostgreSQL, Redis, s3rver; ${CLIENTS} clients, ${MESSAGES} messages per run, ${TOKENS} tokens from an instant model`,
);
const cluster = await startCluster({
  modelBaseUrl: model.baseUrl,
  env: { LLM_TIMEOUT_MS: "600000" },
  workerConnections: Math.max(4096, OPEN * 4 + 512),
});
// Ctrl-C still stops the instances and nginx and drops the database.
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => void cluster.stop().finally(() => process.exit(130)));
try {
  const clients: Client[] = [];
  for (let i = 0; i < CLIENTS; i += 1) clients.push(await demoChatUser(cluster.url));
  await cluster.query("update plans set message_limit = 1000000000");
  await cluster.query("update users set chat_limit = 1000000000");
  await closedLoop(cluster, "both", clients, WARMUP);
  console.log("\ninstances   | msg/s | TTFT p50/p99 ms | end p50/p99 ms  | CPU ms/msg A / B / nginx");
  // Both warm first; then B is stopped, so one process does all the work (background jobs too:
  // with B running, B's worker would take half of the jobs A's messages queue).
  const two = await throughput(cluster, "2 (A+B)", "both", clients);
  await cluster.instance("b").stop();
  const one = await throughput(cluster, "1 (A)", "a", clients);
  await cluster.instance("b").start();
  console.log(`ratio 2/1: ${(two / one).toFixed(2)}\n`);
  await idleStreams(cluster, clients);
} finally {
  await cluster.stop();
  await model.close();
}
