import { type ChildProcess, spawn } from "node:child_process";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { createInterface } from "node:readline";
import { demoChatUser } from "../e2e/support/demo";
import { cpuMs, cpuSplit, percentile } from "./support/measure";
import { postgresUrl } from "./support/postgres";
import { engineData, type RunningServer, requireBuild, rssMb, settle, startServer } from "./support/server";
import { chatMessageRequest } from "./support/stream-client";

/**
 * Streamed replies at scale, an open loop (run by `npm run bench`). Users arrive at random
 * (Poisson) at a fixed rate whatever the server's speed, as real users do, and each sends one
 * streamed message (`POST /api/chat/message`, stream=1) to the compiled server
 * (`dist/server/main.js`, production settings except rate limits off and speech off). Behind it a
 * model double in a process of its own (`support/slow-model.mjs`) answers as a real model streams:
 * the first token 250 ms after the request, then 64 tokens in all, 30 ms apart (about 2.2 s a
 * reply). One user per open reply: an arrival takes a user with no reply open, and counts as an
 * error when there is none. For each rate (BENCH_RATES, 25,100,200,300 per second) it first sends
 * the same arrivals straight to the model (the floor: the load generator and the double share
 * this 2-core machine with the server), then through the server, on SQLite and, when both
 * answer, on PostgreSQL + Redis. It prints per rate:
 * - time to first token (the first `token` event; straight: the first chunk) p50/p99 and the
 *   time the server added, p50/p99 (through minus straight), ms;
 * - the server's CPU per message (user + system from /proc, the background memory jobs a message
 *   sets off included, counted until the process idles) and per token (that ÷ 64), ms;
 * - replies open at the peak, errors (refused, failed, cut short, no free user) and the server's
 *   peak RSS, MB;
 * and last the highest rate whose added p99 stays within 100 ms.
 * Targets (checked, exit code 1 when one fails): at 200 per second added p50 <= 10 ms, p99 <= 50 ms,
 * no error and CPU <= 2.5 ms per 64-token reply; peak RSS < 300 MB at the rate whose peak of open
 * replies came nearest above 500 (a saturated rate piles up far more). (At low rates every socket event wakes the process on its own, so a message
 * costs more CPU there, a bare proxy's too: the CPU target is held at the target rate.)
 * Last, for reference, the same load through a bare Node.js proxy (`support/bare-proxy.mjs`: the
 * platform's floor, none of the product), printed but not held to the targets.
 * BENCH_HEAP_SNAPSHOT=1: the server writes a V8 heap snapshot halfway through each rate, the
 * replies open (`--heapsnapshot-signal=SIGUSR2` is added to its flags).
 * BENCH_SECONDS: seconds of arrivals per rate (12); BENCH_USERS (900); BENCH_ENGINES
 * (sqlite,postgres,bare); BENCH_CPU_PROF and BENCH_NODE_FLAGS as in support/server.ts.
 */

const RATES = (process.env.BENCH_RATES ?? "25,100,200,300").split(",").map(Number);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 12);
const USERS = Number(process.env.BENCH_USERS ?? 900);
const TOKENS = 64;
const TARGETS = { rate: 200, addedP50: 10, addedP99: 50, cpuMs: 2.5, rssMb: 300, rssOpen: 500, p99Cap: 100 };

interface Arrival {
  /** ms from sending to the first token, NaN when none came. */
  first: number;
  /** What went wrong, when something did. */
  error?: string;
}

/** The load generator's connections: kept alive, as many as there are open replies. */
const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

/**
 * POSTs one request and reads the streamed answer to its end. @returns ms to the first chunk
 * holding `marker`, and an error when the answer was refused, held `event: error` or broke off.
 */
function send(url: string, headers: Record<string, string>, body: Buffer, marker: string): Promise<Arrival> {
  const started = performance.now();
  return new Promise((resolve) => {
    let first = Number.NaN;
    let error: string | undefined;
    const request = http.request(
      url,
      { method: "POST", agent, headers: { ...headers, "content-length": body.length } },
      (response) => {
        response.setEncoding("utf8");
        if (response.statusCode !== 200) error = `HTTP ${response.statusCode}`;
        response.on("data", (chunk: string) => {
          if (Number.isNaN(first) && chunk.includes(marker)) first = performance.now() - started;
          if (!error && chunk.includes("event: error"))
            error = chunk.slice(chunk.indexOf("event: error"), 200);
        });
        response.on("error", (cause) => {
          error ??= cause.message;
        });
        response.on("close", () => {
          if (!response.complete) error ??= "cut short";
          if (Number.isNaN(first)) error ??= "no first token";
          resolve({ first, error });
        });
      },
    );
    request.on("error", (cause) => resolve({ first, error: cause.message }));
    request.end(body);
  });
}

/** Exponential gaps: arrivals of a Poisson process at `rate` per second for `seconds`. */
function poissonSchedule(rate: number, seconds: number): number[] {
  const times: number[] = [];
  let at = 0;
  for (;;) {
    at += (-Math.log(1 - Math.random()) / rate) * 1000;
    if (at >= seconds * 1000) return times;
    times.push(at);
  }
}

interface LoopResult {
  arrivals: Arrival[];
  peakOpen: number;
  peakRssMb: number;
  wallMs: number;
}

/**
 * Runs one open loop: at each arrival time `start()` is called unless it returns undefined (no
 * free user: counted as an error). Samples the open count and, with `pid`, that process's RSS.
 */
async function openLoop(
  schedule: number[],
  start: () => Promise<Arrival> | undefined,
  pid?: number,
): Promise<LoopResult> {
  const arrivals: Arrival[] = [];
  const pending: Promise<void>[] = [];
  let open = 0;
  let peakOpen = 0;
  let peakRssMb = 0;
  const sampler = setInterval(() => {
    if (pid) peakRssMb = Math.max(peakRssMb, rssMb(pid));
  }, 100);
  const begun = performance.now();
  const snapshotAt =
    pid && process.env.BENCH_HEAP_SNAPSHOT ? schedule[Math.floor(schedule.length / 2)] : undefined;
  for (const at of schedule) {
    // BENCH_HEAP_SNAPSHOT: the server writes a heap snapshot (into its working directory) halfway.
    if (at === snapshotAt) process.kill(pid!, "SIGUSR2");
    const wait = begun + at - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const running = start();
    if (!running) {
      arrivals.push({ first: Number.NaN, error: "no free user" });
      continue;
    }
    open += 1;
    peakOpen = Math.max(peakOpen, open);
    pending.push(
      running.then((arrival) => {
        open -= 1;
        arrivals.push(arrival);
      }),
    );
  }
  await Promise.all(pending);
  const wallMs = performance.now() - begun;
  clearInterval(sampler);
  if (pid) peakRssMb = Math.max(peakRssMb, rssMb(pid));
  return { arrivals, peakOpen, peakRssMb, wallMs };
}

async function startModel(): Promise<{ url: string; pid: number; child: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, "support/slow-model.mjs")], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  for await (const line of createInterface({ input: child.stdout! })) {
    const match = /^PORT (\d+)/.exec(line);
    if (match) {
      child.stdout!.resume();
      return { url: `http://127.0.0.1:${match[1]}/v1`, pid: child.pid!, child };
    }
  }
  throw new Error("the model double did not start");
}

function answers(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, host);
    socket.setTimeout(500);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(false);
    });
  });
}

const failures: string[] = [];
const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : "-");

interface Client {
  token: string;
  characterId: string;
}

/** The platform's floor, run the same way but not held to the targets (`support/bare-proxy.mjs`). */
const BARE =
  "Bare Node.js proxy (reference: no sign-in, database, quota, prompt or log; a token event per read)";

async function runEngine(
  engine: string,
  model: { url: string; pid: number },
  services: { pg?: string; redis?: string },
) {
  const modelUrl = model.url;
  const bare = engine === BARE;
  const data = await engineData("open-loop-", services.pg);
  const entry = bare ? path.join(import.meta.dirname, "support/bare-proxy.mjs") : undefined;
  const env = {
    ...data.env(modelUrl),
    REDIS_URL: services.redis ?? "",
    REDIS_PREFIX: `bench-${process.pid}-${Date.now()}:`,
  };
  // The users are made on a first start, which also draws the presets' pictures (sharp, once per
  // data directory); the server is measured after a restart, as a running server stands.
  const clients: Client[] = [];
  const setup = await startServer(env, entry);
  try {
    for (let i = 0; i < USERS; i += 16) {
      const batch = Math.min(16, USERS - i);
      const make = () =>
        bare ? Promise.resolve({ token: "none", characterId: "none" }) : demoChatUser(setup.base);
      clients.push(...(await Promise.all(Array.from({ length: batch }, make))));
    }
  } finally {
    await setup.stop();
  }
  if (!bare) {
    await data.liftLimits();
  }
  const server: RunningServer = await startServer(env, entry);
  const pid = server.child.pid!;
  try {
    const free = [...clients];
    const throughServer = () => {
      const client = free.pop();
      if (!client) return undefined;
      const { headers, body } = chatMessageRequest(client, "Tell me about your day");
      return send(`${server.base}/api/chat/message`, headers, body, "event: token").finally(() =>
        free.push(client),
      );
    };
    const straightBody = Buffer.from(
      JSON.stringify({
        model: "bench",
        stream: true,
        messages: [{ role: "user", content: "Tell me about your day" }],
      }),
    );
    const straight = () =>
      send(`${modelUrl}/chat/completions`, { "content-type": "application/json" }, straightBody, "data: {");

    // Warm-up, not counted: compiled code paths, pools, connections.
    await openLoop(poissonSchedule(50, 4), throughServer, pid);
    await settle(pid);
    const baseRss = rssMb(pid);
    console.log(
      `\n${engine}: Poisson arrivals for ${SECONDS} s a rate, first token after 250 ms then ${TOKENS} tokens 30 ms apart; ${USERS} users, RSS before ${baseRss.toFixed(0)} MB`,
    );
    console.log(
      "rate/s | TTFT straight p50/p99 | TTFT ours p50/p99 | added p50/p99 ms |   CPU ms/msg (user+sys) | main thread | CPU µs/token | open peak | errors | RSS peak MB (KB per open reply) | CPU ms/msg load generator, model double",
    );
    const capped: number[] = [];
    /** The rate whose peak of open replies came nearest above TARGETS.rssOpen, for the RSS target. */
    let memory: { open: number; rssMb: number; rate: number } | undefined;
    for (const rate of RATES) {
      const schedule = poissonSchedule(rate, SECONDS);
      const direct = await openLoop(schedule, straight);
      await settle(pid);
      const cpuBefore = cpuSplit(pid);
      const loopBefore = cpuMs(pid, pid);
      const ownBefore = process.cpuUsage();
      const modelBefore = cpuMs(model.pid);
      const ours = await openLoop(schedule, throughServer, pid);
      const own = process.cpuUsage(ownBefore);
      const modelCpu = cpuMs(model.pid) - modelBefore;
      await settle(pid, 15_000);
      const cpuAfter = cpuSplit(pid);
      const loopAfter = cpuMs(pid, pid);
      const done = ours.arrivals.filter((a) => !a.error);
      const errors = ours.arrivals.length - done.length;
      const messages = ours.arrivals.filter((a) => a.error !== "no free user").length;
      const loopMs = (loopAfter - loopBefore) / Math.max(1, messages);
      const userMs = (cpuAfter.user - cpuBefore.user) / Math.max(1, messages);
      const systemMs = (cpuAfter.system - cpuBefore.system) / Math.max(1, messages);
      const cpu = userMs + systemMs;
      const firstOf = (loop: LoopResult) => loop.arrivals.filter((a) => !a.error).map((a) => a.first);
      const [d50, d99] = [percentile(firstOf(direct), 50), percentile(firstOf(direct), 99)];
      const [o50, o99] = [percentile(firstOf(ours), 50), percentile(firstOf(ours), 99)];
      const added50 = o50 - d50;
      const added99 = errors > 0 ? Number.POSITIVE_INFINITY : o99 - d99;
      if (added99 <= TARGETS.p99Cap) capped.push(rate);
      const checks: string[] = [];
      const check = (ok: boolean, what: string) => {
        if (bare) return;
        checks.push(`${what} ${ok ? "PASS" : "FAIL"}`);
        if (!ok) failures.push(`${engine}, ${rate}/s: ${what}`);
      };
      if (rate === TARGETS.rate) {
        check(cpu <= TARGETS.cpuMs, `CPU <= ${TARGETS.cpuMs} ms`);
        check(o50 - d50 <= TARGETS.addedP50, `added p50 <= ${TARGETS.addedP50} ms`);
        check(o99 - d99 <= TARGETS.addedP99, `added p99 <= ${TARGETS.addedP99} ms`);
        check(errors === 0, "no error");
      }
      if (ours.peakOpen >= TARGETS.rssOpen && (!memory || ours.peakOpen < memory.open)) {
        memory = { open: ours.peakOpen, rssMb: ours.peakRssMb, rate };
      }
      const errorKinds = new Map<string, number>();
      for (const a of ours.arrivals) if (a.error) errorKinds.set(a.error, (errorKinds.get(a.error) ?? 0) + 1);
      console.log(
        `${[
          String(rate).padStart(6),
          `${fixed(d50)} / ${fixed(d99)}`.padStart(21),
          `${fixed(o50)} / ${fixed(o99)}`.padStart(17),
          `${fixed(added50)} / ${fixed(o99 - d99)}`.padStart(16),
          `${fixed(cpu, 2)} (${fixed(userMs, 2)}+${fixed(systemMs, 2)})`.padStart(18),
          fixed(loopMs, 2).padStart(11),
          fixed((cpu / TOKENS) * 1000, 0).padStart(12),
          String(ours.peakOpen).padStart(9),
          String(errors).padStart(6),
          `${fixed(ours.peakRssMb, 0)} (${fixed(((ours.peakRssMb - baseRss) * 1024) / Math.max(1, ours.peakOpen), 0)})`.padStart(
            31,
          ),
          `${fixed((own.user + own.system) / 1000 / Math.max(1, messages), 2)}, ${fixed(modelCpu / Math.max(1, messages), 2)}`.padStart(
            20,
          ),
        ].join(" | ")}   ${checks.join(", ")}`,
      );
      if (errorKinds.size > 0)
        console.log(`       errors: ${[...errorKinds].map(([k, n]) => `${n}× ${k}`).join("; ")}`);
    }
    console.log(
      `highest rate measured with added p99 <= ${TARGETS.p99Cap} ms and no error: ${capped.length > 0 ? `${Math.max(...capped)}/s` : "none"}`,
    );
    if (!bare) {
      const ok = memory !== undefined && memory.rssMb < TARGETS.rssMb;
      if (!ok) failures.push(`${engine}: RSS < ${TARGETS.rssMb} MB with ${TARGETS.rssOpen} replies open`);
      console.log(
        memory
          ? `RSS with ${TARGETS.rssOpen}+ replies open: ${memory.rssMb.toFixed(0)} MB (${memory.open} open at ${memory.rate}/s), target < ${TARGETS.rssMb} MB ${ok ? "PASS" : "FAIL"}`
          : `RSS with ${TARGETS.rssOpen}+ replies open: no rate had ${TARGETS.rssOpen} open FAIL`,
      );
    }
  } finally {
    await data.dispose(server);
  }
}

requireBuild();
const engines = process.env.BENCH_ENGINES ?? "sqlite,postgres,bare";
const model = await startModel();
try {
  if (engines.includes("sqlite")) await runEngine("SQLite", model, {});
  if (engines.includes("postgres")) {
    const pgBase = await postgresUrl();
    const redis =
      process.env.BENCH_REDIS_URL ||
      process.env.TEST_REDIS_URL ||
      ((await answers("127.0.0.1", 6379)) ? "redis://127.0.0.1:6379" : "");
    if (pgBase && redis) await runEngine("PostgreSQL + Redis", model, { pg: pgBase, redis });
    else
      console.log(
        "\nPostgreSQL + Redis: skipped (needs PostgreSQL and Redis: BENCH_DATABASE_URL, BENCH_REDIS_URL)",
      );
  }
  if (engines.includes("bare")) await runEngine(BARE, model, {});
} finally {
  model.child.kill("SIGTERM");
  agent.destroy();
}
if (failures.length > 0) {
  console.log(`\ntargets failed: ${failures.join("; ")}`);
  process.exitCode = 1;
}
