import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { getLlama } from "node-llama-cpp";
import { demoChatUser } from "../e2e/support/demo";
import { type Chat, seeded, sendTurn } from "./support/long-chat-turns";
import { cpuMs, percentile } from "./support/measure";
import { liftLimits, requireBuild, serverEntry, startServer } from "./support/server";
import { timingModel } from "./support/timing-model";

/**
 * A long chat on the in-process model: what reading the prompt costs as a conversation grows.
 * The compiled server (`dist/server/main.js`, made by `npm run build`) runs with the timing model
 * (support/timing-model.ts: Qwen2.5-1.5B-Instruct's shape, random weights, stories260K's
 * tokenizer), replies capped at 8 tokens (LLM_MAX_TOKENS=8) so that time to first token is the
 * time to read the prompt, memory on, rate limits and speech off, on SQLite.
 *
 * Phase 1, one chat (LLM_PARALLEL=1): a demo user with the first preset character sends 30
 * streamed messages (varied, some telling facts in the first person), each with `pname`, `ptext`
 * and a local `time` advancing 2 to 6 minutes a turn; before each one the server is left to
 * finish its background memory jobs (its CPU idle, 120 s at most). Printed for each turn:
 * - time to first token: ms from sending to the first `event: token` line of the answer;
 * - the prompt tokens the model evaluated for the reply and those it reused from its cache: the
 *   change of `companion_prompt_tokens_total{state="evaluated"|"reused"}` on GET /metrics over
 *   the turn ("n/a" when the server has no such counter);
 * - the turn's new tokens: the previous reply, the new message, and this turn's `pname`, `ptext`
 *   and local time ("Friday, 22:41"), counted with the timing model's tokenizer: what a server
 *   that kept the conversation's tokens in the model's cache would have to read.
 * Phase 2, the next message at once (LLM_PARALLEL=1, a restarted server): the same 30 turns,
 * each message sent as soon as the previous reply has ended, the server's memory jobs never
 * waited for. Printed for each turn: time to first token, reply time, the background model
 * calls that ended and the runs a reply cut short during the turn, and the machine's 1-minute
 * load average (other work on it slows every turn alike); then how long the
 * memory jobs went on after the last reply, and what the server's background work waited for
 * replies and how often a reply cut it short (`companion_background_wait_seconds`,
 * `companion_background_cuts_total`, "n/a" on a server without them).
 * Phase 3 (LLM_PARALLEL=2, a restarted server): 4 chats (4 demo users) at once, each sending its
 * next message 1 to 3 s (seeded) after its previous reply ended, 8 turns each; printed: p50/p90
 * time to first token over turns 2..8 of all chats, beside the single chat's p50 (turns 2..30).
 *
 * Targets, printed as PASS/FAIL lines (exit code 1 when one fails):
 * - time to first token at the last turn at most 1.3 × turn 2's, and under 2000 ms;
 * - the median over turns 2..30 of (prompt tokens evaluated − new tokens) at most 64 (skipped
 *   without the counter);
 * - the next message at once: no turn after the second takes more than 1.5 × the median turn
 *   (turns 2..30), so background work never lands on a reply;
 * - 4 interleaved chats: p50 time to first token at most 2 × the single chat's p50.
 * BENCH_TURNS: turns of the single chat (30); BENCH_LLM_THREADS: the server's LLM_THREADS (its
 * default otherwise); BENCH_SKIP_IDLE=1 skips phase 1 (then phase 3 compares with phase 2's p50);
 * BENCH_SKIP_AT_ONCE=1 skips phase 2; BENCH_SKIP_PARALLEL=1 skips phase 3; BENCH_SERVER_ENTRY: another compiled
 * server (e.g. an older commit's `dist/server/main.js`).
 */

const TURNS = Number(process.env.BENCH_TURNS ?? 30);
const PARALLEL_CHATS = 4;
const PARALLEL_TURNS = 8;
const IDLE_CAP_MS = 120_000;
const MODEL_READY_CAP_MS = 180_000;
const TARGETS = {
  lastVsSecond: 1.3,
  lastTtftMs: 2000,
  extraTokens: 64,
  atOnceVsMedian: 1.5,
  parallelVsSingle: 2,
};
/**
 * 300 ms windows without model work that count as idle: 1.5 s, longer than the pause without
 * replies the server waits for before its background work (llama.ts BACKGROUND_YIELD, 1 s).
 */
const IDLE_WINDOWS = 5;
/** CPU ms in a 300 ms window still counted idle: the server's timers; the model takes ~600 (two threads). */
const IDLE_CPU_MS = 30;

const MESSAGES = [
  "Hi! Long night. How are you doing?",
  "I work nights as a nurse and my cat is called Miso.",
  "She waits by the door every morning when I get home.",
  "What would you do with a free afternoon?",
  "My sister Lena lives in Lisbon, I miss her a lot.",
  "Tonight a patient told me the whole story of his life, it was beautiful.",
  "Do you like rain? It's pouring here right now.",
  "I'm trying to learn the guitar, but my fingers hurt.",
  "Tell me something that made you laugh recently.",
  "My favourite food is my grandmother's lentil soup.",
  "I could sleep for a week, honestly.",
  "What kind of music do you listen to when you're sad?",
  "I grew up in a small town by the sea, near Porto.",
  "The coffee at the hospital is terrible, like burnt tyres.",
  "Have you ever wanted to live somewhere else?",
  "I'm allergic to peanuts, which makes parties tricky.",
  "Miso knocked a glass off the table again this morning.",
  "Do you think people can really change?",
  "I run along the river on my days off, about 8 km.",
  "What's a small thing that makes your day better?",
  "My shift starts at seven tonight, I dread it a bit.",
  "Tell me a story about a lighthouse.",
  "I have a fear of deep water, ever since I was a kid.",
  "If you could learn any skill overnight, what would it be?",
  "My best friend Tomas is getting married in June.",
  "Sometimes the quiet of the ward at 4 am is almost peaceful.",
  "Do you remember what I told you about my cat?",
  "I'm thinking of adopting a second cat, maybe a ginger one.",
  "What should I cook tomorrow? Something warm.",
  "Thanks for keeping me company tonight, it helps.",
];

interface RunningServer {
  base: string;
  child: ChildProcess;
  dataDir: string;
  stop(): Promise<void>;
}

/** Starts the compiled server on a fresh SQLite data directory with the timing model. */
async function startBenchServer(modelPath: string, parallel: number): Promise<RunningServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "long-chat-"));
  const env: Record<string, string> = {
    PORT: "0",
    HOST: "127.0.0.1",
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    LLM_PROVIDER: "llama",
    LLM_MODEL_PATH: modelPath,
    LLM_MAX_TOKENS: "8",
    LLM_PARALLEL: String(parallel),
    RATE_LIMIT_ENABLED: "0",
    TTS_PROVIDER: "none",
    LOG_LEVEL: "warn",
  };
  if (process.env.BENCH_LLM_THREADS) env.LLM_THREADS = process.env.BENCH_LLM_THREADS;
  try {
    // The model's settings are this bench's alone: none comes from the calling shell.
    const server = await startServer(env, serverEntry, { inherit: (name) => !name.startsWith("LLM_") });
    return {
      ...server,
      dataDir,
      stop: async () => {
        await server.stop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

/** Waits until the server says chat is on (the model loaded). @throws after MODEL_READY_CAP_MS. */
async function waitForModel(base: string, token: string): Promise<void> {
  const deadline = Date.now() + MODEL_READY_CAP_MS;
  while (Date.now() < deadline) {
    const answer = await fetch(`${base}/api/chat/capabilities`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const body = (await answer.json()) as { data?: { chat?: { enabled: boolean; reason: string } } };
    const chat = body.data?.chat;
    if (chat?.enabled) return;
    if (chat && !chat.reason.includes("loading"))
      throw new Error(`the model is not available: ${chat.reason}`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error("the model did not load in time");
}

/**
 * Waits until the process has used at most IDLE_CPU_MS of CPU in each of IDLE_WINDOWS 300 ms
 * windows in a row (background memory jobs done), at most `capMs`. @returns ms waited.
 */
async function waitIdle(pid: number, capMs = IDLE_CAP_MS): Promise<number> {
  const started = Date.now();
  let last = cpuMs(pid);
  let quiet = 0;
  while (quiet < IDLE_WINDOWS && Date.now() - started < capMs) {
    await new Promise((resolve) => setTimeout(resolve, 300));
    const now = cpuMs(pid);
    quiet = now - last <= IDLE_CPU_MS ? quiet + 1 : 0;
    last = now;
  }
  return Date.now() - started;
}

interface PromptCounters {
  evaluated: number;
  reused: number;
}

/**
 * The server's prompt token counters, summed over their other labels (0 before the first reply);
 * undefined when the server has no such counter.
 */
async function promptCounters(base: string): Promise<PromptCounters | undefined> {
  const text = await (await fetch(`${base}/metrics`)).text();
  if (!text.includes("# TYPE companion_prompt_tokens_total counter")) return undefined;
  const sum = (state: string) => {
    const line = new RegExp(
      `^companion_prompt_tokens_total\\{[^}]*state="${state}"[^}]*\\}\\s+(\\S+)$`,
      "gm",
    );
    let total = 0;
    for (const match of text.matchAll(line)) total += Number(match[1]);
    return total;
  };
  return { evaluated: sum("evaluated"), reused: sum("reused") };
}

const failures: string[] = [];
function check(ok: boolean, what: string): void {
  console.log(`${ok ? "PASS" : "FAIL"} ${what}`);
  if (!ok) failures.push(what);
}

requireBuild();

const modelPath = await timingModel();
const llama = await getLlama({ gpu: false, build: "never" });
const vocabulary = await llama.loadModel({ modelPath, vocabOnly: true });
const countTokens = (text: string) => vocabulary.tokenize(text).length;
const median = (values: number[]) => percentile(values, 50);
/** Where the senders' clocks start: their times stay within a few hours of now (the server ignores over 26 h). */
const startClock = Date.now() - 90 * 60_000;
console.log(`Timing model: ${modelPath} (${(fs.statSync(modelPath).size / 1e9).toFixed(2)} GB)`);

/** Phase 1: one long chat. @returns each turn's time to first token (index 0: turn 1). */
async function singleChat(): Promise<number[]> {
  const server = await startBenchServer(modelPath, 1);
  const pid = server.child.pid!;
  try {
    const user = await demoChatUser(server.base);
    await liftLimits({ sqliteFile: path.join(server.dataDir, "app.db") });
    await waitForModel(server.base, user.token);
    const chat: Chat = { ...user, clock: startClock, previousReply: "" };
    const random = seeded(1);
    console.log(
      `\nOne chat, ${TURNS} turns (LLM_PARALLEL=1, LLM_THREADS ${process.env.BENCH_LLM_THREADS ?? "default"})`,
    );
    console.log("turn | TTFT ms | reply ms | prompt tokens evaluated | reused | new tokens | idle wait s");
    const ttft: number[] = [];
    const extra: number[] = [];
    let counted = true;
    for (let turn = 1; turn <= TURNS; turn += 1) {
      const waited = await waitIdle(pid);
      const before = await promptCounters(server.base);
      const message = MESSAGES[(turn - 1) % MESSAGES.length]!;
      const result = await sendTurn(server.base, chat, message);
      const after = await promptCounters(server.base);
      const newTokens = countTokens(result.newText);
      const evaluated = before && after ? after.evaluated - before.evaluated : undefined;
      const reused = before && after ? after.reused - before.reused : undefined;
      if (evaluated === undefined) counted = false;
      else if (turn >= 2) extra.push(evaluated - newTokens);
      ttft.push(result.ttftMs);
      console.log(
        `${String(turn).padStart(4)} | ${result.ttftMs.toFixed(0).padStart(7)} | ${result.endMs.toFixed(0).padStart(8)} | ${String(evaluated ?? "n/a").padStart(23)} | ${String(reused ?? "n/a").padStart(6)} | ${String(newTokens).padStart(10)} | ${(waited / 1000).toFixed(1).padStart(11)}`,
      );
      chat.clock += (2 + Math.floor(random() * 5)) * 60_000;
    }
    const second = ttft[1] ?? Number.NaN;
    const last = ttft.at(-1)!;
    console.log(
      `TTFT turn 2 ${second.toFixed(0)} ms, turn ${TURNS} ${last.toFixed(0)} ms (${(last / second).toFixed(2)}x); p50 turns 2..${TURNS} ${median(ttft.slice(1)).toFixed(0)} ms`,
    );
    check(
      last <= TARGETS.lastVsSecond * second && last < TARGETS.lastTtftMs,
      `TTFT at turn ${TURNS} (${last.toFixed(0)} ms) <= ${TARGETS.lastVsSecond} x turn 2's (${second.toFixed(0)} ms) and < ${TARGETS.lastTtftMs} ms`,
    );
    if (counted && extra.length > 0) {
      check(
        median(extra) <= TARGETS.extraTokens,
        `median over turns 2..${TURNS} of (prompt tokens evaluated - new tokens): ${median(extra)} (target <= ${TARGETS.extraTokens})`,
      );
    } else {
      console.log("SKIP prompt tokens evaluated: the server has no companion_prompt_tokens_total counter");
    }
    return ttft;
  } finally {
    await server.stop();
  }
}

/**
 * The server's background model work so far: calls finished, seconds they waited for replies,
 * runs cut short by a reply; undefined when the server has no such metrics.
 */
async function backgroundCounters(
  base: string,
): Promise<{ calls: number; waitedS: number; cuts: number } | undefined> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const value = (name: string) =>
    Number(new RegExp(`^${name}\\s+(\\S+)$`, "m").exec(text)?.[1] ?? Number.NaN);
  const calls = value("companion_background_wait_seconds_count");
  if (Number.isNaN(calls)) return undefined;
  return {
    calls,
    waitedS: value("companion_background_wait_seconds_sum"),
    cuts: value("companion_background_cuts_total"),
  };
}

/** Phase 2: one chat, each message sent as soon as the previous reply ended. @returns TTFT by turn. */
async function atOnceChat(): Promise<number[]> {
  const server = await startBenchServer(modelPath, 1);
  const pid = server.child.pid!;
  try {
    const user = await demoChatUser(server.base);
    await liftLimits({ sqliteFile: path.join(server.dataDir, "app.db") });
    await waitForModel(server.base, user.token);
    await waitIdle(pid);
    const chat: Chat = { ...user, clock: startClock, previousReply: "" };
    const random = seeded(1);
    console.log(`
One chat, ${TURNS} turns, the next message at once (LLM_PARALLEL=1)`);
    console.log("turn | TTFT ms | reply ms | background calls ended, cut | load (1 min)");
    const ttft: number[] = [];
    const started = performance.now();
    let before = await backgroundCounters(server.base);
    for (let turn = 1; turn <= TURNS; turn += 1) {
      const result = await sendTurn(server.base, chat, MESSAGES[(turn - 1) % MESSAGES.length]!);
      const after = await backgroundCounters(server.base);
      const background =
        before && after ? `${after.calls - before.calls}, ${after.cuts - before.cuts}` : "n/a";
      before = after;
      ttft.push(result.ttftMs);
      console.log(
        `${String(turn).padStart(4)} | ${result.ttftMs.toFixed(0).padStart(7)} | ${result.endMs.toFixed(0).padStart(8)} | ${background.padStart(29)} | ${os.loadavg()[0]!.toFixed(1)}`,
      );
      chat.clock += (2 + Math.floor(random() * 5)) * 60_000;
    }
    const chatS = (performance.now() - started) / 1000;
    const during = await backgroundCounters(server.base);
    const afterMs = await waitIdle(pid);
    const all = await backgroundCounters(server.base);
    const busy =
      afterMs >= IDLE_CAP_MS
        ? `still busy ${IDLE_CAP_MS / 1000} s after the last reply`
        : `busy ${((afterMs - IDLE_WINDOWS * 300) / 1000).toFixed(1)} s after the last reply`;
    const mid = median(ttft.slice(1));
    const worst = Math.max(...ttft.slice(2));
    const worstTurn = ttft.indexOf(worst) + 1;
    console.log(
      `${TURNS} turns in ${chatS.toFixed(1)} s; TTFT p50 turns 2..${TURNS} ${mid.toFixed(0)} ms, worst after turn 2: turn ${worstTurn} ${worst.toFixed(0)} ms (${(worst / mid).toFixed(2)}x)`,
    );
    console.log(
      all && during
        ? `background model calls: ${during.calls} finished during the chat, ${all.calls} in all (waited ${all.waitedS.toFixed(1)} s in all for replies, ${all.cuts} runs cut short by a reply); the server was ${busy}`
        : `background model calls: n/a (no such metrics); the server was ${busy}`,
    );
    check(
      worst <= TARGETS.atOnceVsMedian * mid,
      `next message at once: no turn after the second over ${TARGETS.atOnceVsMedian} x the median turn (worst: turn ${worstTurn}, ${worst.toFixed(0)} ms; median ${mid.toFixed(0)} ms)`,
    );
    return ttft;
  } finally {
    await server.stop();
  }
}

/** Phase 3: interleaved chats. @returns time to first token of turns 2.. of every chat. */
async function interleavedChats(): Promise<number[]> {
  const server = await startBenchServer(modelPath, 2);
  try {
    const users = [];
    for (let i = 0; i < PARALLEL_CHATS; i += 1) users.push(await demoChatUser(server.base));
    await liftLimits({ sqliteFile: path.join(server.dataDir, "app.db") });
    await waitForModel(server.base, users[0]!.token);
    await waitIdle(server.child.pid!);
    console.log(
      `\n${PARALLEL_CHATS} chats at once, ${PARALLEL_TURNS} turns each, 1-3 s think time (LLM_PARALLEL=2)`,
    );
    const measured: number[] = [];
    await Promise.all(
      users.map(async (user, c) => {
        const chat: Chat = { ...user, clock: startClock, previousReply: "" };
        const random = seeded(100 + c);
        const times: number[] = [];
        for (let turn = 1; turn <= PARALLEL_TURNS; turn += 1) {
          const message = MESSAGES[(c * 7 + turn - 1) % MESSAGES.length]!;
          const result = await sendTurn(server.base, chat, message);
          times.push(result.ttftMs);
          if (turn >= 2) measured.push(result.ttftMs);
          chat.clock += (2 + Math.floor(random() * 5)) * 60_000;
          await new Promise((resolve) => setTimeout(resolve, 1000 + random() * 2000));
        }
        console.log(`chat ${c + 1}: TTFT ms by turn ${times.map((t) => t.toFixed(0)).join(", ")}`);
      }),
    );
    return measured;
  } finally {
    await server.stop();
  }
}

try {
  const single = process.env.BENCH_SKIP_IDLE === "1" ? undefined : await singleChat();
  const atOnce = process.env.BENCH_SKIP_AT_ONCE === "1" ? undefined : await atOnceChat();
  const singleP50 = median((single ?? atOnce ?? []).slice(1));
  if (process.env.BENCH_SKIP_PARALLEL === "1") {
    console.log("\nInterleaved chats: skipped (BENCH_SKIP_PARALLEL=1)");
  } else {
    const parallel = await interleavedChats();
    const p50 = median(parallel);
    console.log(
      `TTFT over turns 2..${PARALLEL_TURNS} of all chats: p50 ${p50.toFixed(0)} ms, p90 ${percentile(parallel, 90).toFixed(0)} ms; one chat alone: p50 ${singleP50.toFixed(0)} ms (turns 2..${TURNS})`,
    );
    check(
      p50 <= TARGETS.parallelVsSingle * singleP50,
      `${PARALLEL_CHATS} interleaved chats: p50 TTFT ${p50.toFixed(0)} ms <= ${TARGETS.parallelVsSingle} x one chat's p50 (${singleP50.toFixed(0)} ms)`,
    );
  }
} finally {
  await vocabulary.dispose();
  await llama.dispose();
}
if (failures.length > 0) {
  console.log(`\nlong-chat targets failed: ${failures.length}`);
  process.exitCode = 1;
}
