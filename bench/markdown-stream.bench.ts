// Long tasks in the browser on a phone profile: a long formatted reply streamed into the chat (sending, streaming, the end), and opening a long chat.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Browser, type CDPSession, chromium, type Page } from "playwright-core";
import { build } from "vite";
import type { LoginData } from "../common/api";
import { CHROMIUM } from "../e2e/support/chromium";
import { demoSession } from "../e2e/support/demo";
import { storeHistory } from "../e2e/support/history";
import { startScriptedCompletions } from "../server/testing/completions-server";
import { startTestServer } from "../server/testing/server";
import { withoutInspectorStackTraces } from "./support/inspector";
import {
  median,
  type PageRecord,
  type PhaseTasks,
  phaseTasks,
  recordLongTasks,
  replyPhases,
} from "./support/long-tasks";

/**
 * The chat stays smooth on a phone while a long reply streams. Chromium at 390x844 (touch), the
 * CPU slowed down 4 times (CDP `Emulation.setCPUThrottlingRate`) unless a scenario says otherwise;
 * the page's own PerformanceObserver records `longtask` entries (main-thread tasks of 50 ms or
 * more). A scripted model streams a Markdown-rich reply (headings, bold, italics, links, inline
 * code, lists, quotes, tables and code blocks) of MARKDOWN_BENCH_TOKENS tokens (default 2000; a
 * token is one streamed word with its spaces) at MARKDOWN_BENCH_RATE tokens a second (default 50).
 *
 * Scenarios (MARKDOWN_BENCH_ONLY picks some, comma-separated ids):
 * - `new`: the reply into a chat with no history, CPU slowed 4x;
 * - `long`: the same into a chat that already holds 200 messages, all read up through (scrolled
 *   to the oldest, which loads every page) and back at the bottom before sending;
 * - `unthrottled`: the `new` scenario at the machine's own speed;
 * - `open`: opening a chat of 500 messages from the chat list (/characters/list, its 'Start
 *   Chatting'), CPU slowed 4x, from the click to 3 s after the newest message shows;
 * - `jump`: on the chat of 200 messages read up through (unthrottled), a tap on 'Scroll to bottom',
 *   CPU slowed 4x, from the tap to 3 s after (the newest bubbles rendered anew);
 * - `reload`: loading the page of that chat afresh (the app's scripts evaluated too), CPU slowed
 *   4x, from the navigation to 3 s after the newest message shows. The new browser context's
 *   tab first shows about:blank for BROWSER_SETTLE_MS, so that the browser's own work for a new
 *   window (headless Chromium loads its omnibox popup, a chrome:// page of its own, about 220 ms
 *   of script) is done before the page loads rather than competing with it for the CPU.
 * Each runs MARKDOWN_BENCH_RUNS times (default 5; every run on a fresh page, the chat emptied by
 * New Chat and its history stored again) and prints each run's longest task per phase (sending:
 * the click to the reply's bubble streaming; streaming: until the bubble stops; the end: the task
 * in which it stops and the 3 s after) and the median of the runs.
 * Targets, on the medians: under 50 ms for each phase of the throttled replies, no long task at all
 * unthrottled, and no task over 100 ms opening the long chat or jumping back to its newest
 * messages. Exit code 1 when one is missed.
 * MARKDOWN_BENCH_PLAIN=1 streams the same words with no Markdown marks (for comparison).
 * MARKDOWN_BENCH_TASKS=1 also prints every long task of each run (its start by the page's clock, and duration)
 * and, for a reply, its long animation frames with their scripts and forced layouts (`printFrames`).
 * For finding where opening from the list or a reply spends its time: MARKDOWN_BENCH_PROFILE=1 prints the
 * functions with the most self time (V8's sampling profiler; MARKDOWN_BENCH_PROFILE_FILE=<file>
 * also writes the .cpuprofile), MARKDOWN_BENCH_TRACE=<file> writes a Chromium trace of it, of loading afresh, and of a reply
 * from the tap to 3 s after its end (each run overwrites the file: use MARKDOWN_BENCH_RUNS=1);
 * MARKDOWN_BENCH_TRACE_EXTRA=<categories> adds comma-separated trace categories to it (for example
 * disabled-by-default-devtools.timeline.invalidationTracking: what made the browser restyle or lay out).
 * MARKDOWN_BENCH_CPU sets the throttled scenarios' CPU slowdown (default 4, the one the targets are
 * for; a higher one shows how much headroom is left).
 * MARKDOWN_BENCH_SCALE sets the phone's device pixel ratio (default 1; phones of 390x844 have 3).
 * Use TEST_WEB_DIST_DIR to reuse an existing build of the SPA.
 */

const TOKENS = Number(process.env.MARKDOWN_BENCH_TOKENS ?? 2000);
const RATE = Number(process.env.MARKDOWN_BENCH_RATE ?? 50);
const RUNS = Number(process.env.MARKDOWN_BENCH_RUNS ?? 5);
const ONLY = (process.env.MARKDOWN_BENCH_ONLY ?? "").split(",").filter(Boolean);
/** MARKDOWN_BENCH_CPU: how many times the throttled scenarios slow the CPU (default 4, the targets'; more shows the headroom). */
const SLOWDOWN = Number(process.env.MARKDOWN_BENCH_CPU ?? 4);
/** MARKDOWN_BENCH_SCALE: the phone page's device pixel ratio (default 1, as every run on record). */
const SCALE = Number(process.env.MARKDOWN_BENCH_SCALE ?? 1);
/** MARKDOWN_BENCH_PROFILE=1: a CPU profile of opening from the list or of a reply, its functions by self time printed. */
const PROFILE = process.env.MARKDOWN_BENCH_PROFILE === "1";

/** MARKDOWN_BENCH_TRACE=<file>: a Chromium trace of opening the chat (from the list or afresh) or of a reply (chrome://tracing, Perfetto). */
const TRACE = process.env.MARKDOWN_BENCH_TRACE;
const TRACE_CATEGORIES = [
  "devtools.timeline",
  "disabled-by-default-devtools.timeline",
  "v8.execute",
  "blink.user_timing",
  ...(process.env.MARKDOWN_BENCH_TRACE_EXTRA ?? "").split(",").filter(Boolean),
];

/** Starts V8's sampling profiler in the page (1 ms samples). */
async function startProfile(cdp: CDPSession): Promise<void> {
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 1000 });
  await cdp.send("Profiler.start");
}

/** Stops the profiler and prints the 25 functions with the most self time (ms, by the page's CPU). */
async function printProfile(cdp: CDPSession): Promise<void> {
  const { profile } = await cdp.send("Profiler.stop");
  if (process.env.MARKDOWN_BENCH_PROFILE_FILE)
    writeFileSync(process.env.MARKDOWN_BENCH_PROFILE_FILE, JSON.stringify(profile));
  const self = new Map<string, number>();
  const deltas = profile.timeDeltas ?? [];
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  (profile.samples ?? []).forEach((id, i) => {
    const frame = byId.get(id)?.callFrame;
    if (!frame) return;
    const where = `${frame.functionName || "(anonymous)"} ${frame.url.split("/").pop()}:${frame.lineNumber}:${frame.columnNumber}`;
    self.set(where, (self.get(where) ?? 0) + (deltas[i] ?? 0) / 1000);
  });
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 25);
  for (const [where, ms] of top) console.log(`      ${ms.toFixed(0).padStart(6)} ms  ${where}`);
}

/**
 * Prints the page's long animation frames from `from` on (ms by its clock): each frame's start and
 * duration, its rendering (from its rAF callbacks on) and style and layout, and each script of
 * 5 ms or more with its forced style and layout.
 */
function printFrames(measured: PageRecord, from: number): void {
  for (const frame of measured.frames.filter((f) => f.start + f.duration >= from)) {
    const end = frame.start + frame.duration;
    const render = frame.renderStart > 0 ? end - frame.renderStart : 0;
    const styleLayout = frame.styleAndLayoutStart > 0 ? end - frame.styleAndLayoutStart : 0;
    const scripts = frame.scripts
      .filter((script) => script.duration >= 5)
      .map(
        (script) =>
          `${script.invoker} (${script.source}) at ${script.start.toFixed(0)}: ${script.duration.toFixed(0)} ms, forced layout ${script.forcedLayout.toFixed(0)}`,
      );
    console.log(
      `      frame ${frame.start.toFixed(0)}: ${frame.duration.toFixed(0)} ms, rendering ${render.toFixed(0)} (style and layout and paint ${styleLayout.toFixed(0)}); ${scripts.join("; ")}`,
    );
  }
}

/** How long after the stream's end (or the first bubble) long tasks still count. */
const SETTLE_MS = 3000;
/** How long a new browser context's tab rests on about:blank before the page is loaded afresh (see `reload`). */
const BROWSER_SETTLE_MS = 2000;

interface Scenario {
  id: string;
  title: string;
  /** A reply streamed; the chat opened from the chat list in the app; back to the newest from far up; the chat's page loaded afresh. */
  kind: "reply" | "open" | "jump" | "reload";
  /** Messages (history entries: a user's message and its reply) in the chat before the run. */
  history: number;
  cpuSlowdown: number;
  /** The longest task each measured phase must stay under, ms (0: no long task at all). */
  limitMs: number;
}

const SCENARIOS: Scenario[] = [
  {
    id: "new",
    title: `reply into a new chat, CPU ${SLOWDOWN}x`,
    kind: "reply",
    history: 0,
    cpuSlowdown: SLOWDOWN,
    limitMs: 50,
  },
  {
    id: "long",
    title: `reply into a chat of 200 messages, CPU ${SLOWDOWN}x`,
    kind: "reply",
    history: 200,
    cpuSlowdown: SLOWDOWN,
    limitMs: 50,
  },
  {
    id: "unthrottled",
    title: "reply into a new chat, no throttle",
    kind: "reply",
    history: 0,
    cpuSlowdown: 1,
    limitMs: 0,
  },
  {
    id: "open",
    title: `opening a chat of 500 messages from the chat list, CPU ${SLOWDOWN}x`,
    kind: "open",
    history: 500,
    cpuSlowdown: SLOWDOWN,
    limitMs: 100,
  },
  {
    id: "jump",
    title: `back to the newest of 200 messages read up through ('Scroll to bottom'), CPU ${SLOWDOWN}x`,
    kind: "jump",
    history: 200,
    cpuSlowdown: SLOWDOWN,
    limitMs: 100,
  },
  {
    id: "reload",
    title: `loading the page of a chat of 500 messages, CPU ${SLOWDOWN}x`,
    kind: "reload",
    history: 500,
    cpuSlowdown: SLOWDOWN,
    limitMs: 100,
  },
];

/** One section of the reply; `n` tells the sections apart. */
function section(n: number): string {
  return [
    `## Part ${n}: the lighthouse`,
    "",
    `*smiles* The keeper climbed **all ${n * 10} steps** to the lamp, "slowly, as always," and checked the`,
    `\`lens\` twice. You can read about it [on the museum's page](https://example.com/lighthouse/${n}) later.`,
    "",
    "- the oil for the lamp",
    "- a **spare wick** and matches",
    "- *bread* for the night",
    "",
    "> The sea was calm that night, but the fog came in fast.",
    "",
    "```js",
    `const steps = ${n * 10};`,
    "for (let step = 0; step < steps; step += 1) {",
    "",
    '  climb(step, "carefully");',
    "}",
    "```",
    "",
    "| hour | light |",
    "| --- | --- |",
    `| ${n}:00 | on |`,
    "",
    "1. Wind the clock.",
    "2. Light the lamp.",
    "",
  ].join("\n");
}

/** A Markdown-rich reply of `tokens` streamed pieces (words with their spaces), as the double splits it. */
function markdownReply(tokens: number): string {
  let text = "";
  for (let n = 1; (text.match(/\S+\s*|\s+/g)?.length ?? 0) < tokens; n += 1) text += section(n);
  return (text.match(/\S+\s*|\s+/g) ?? []).slice(0, tokens).join("").trim();
}

/** One run's longest task per phase, ms. */
type RunResult = Record<string, PhaseTasks>;

/** What every run shares: the server, the browser, the signed-in user and the character. */
interface Bench {
  url: string;
  browser: Browser;
  session: LoginData;
  characterId: string;
  reply: string;
  store: (messages: number) => Promise<void>;
}

let warnedOfStackTraces = false;

/** A phone's page, signed in, its CPU slowed `cpuSlowdown` times, recording long tasks. */
async function phonePage(
  bench: Bench,
  cpuSlowdown: number,
): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await bench.browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: SCALE,
    isMobile: true,
    hasTouch: true,
  });
  await context.addInitScript((data: LoginData) => {
    localStorage.setItem(
      "token",
      JSON.stringify({ token: data.token, expirationTime: Date.now() + 3_600_000 }),
    );
    localStorage.setItem("user", JSON.stringify(data.user));
  }, bench.session);
  // The reply sound (an AudioContext made 1 s after a reply) is left out: creating one takes
  // headless Chromium about a second of main thread, and it is not the chat's rendering.
  await context.addInitScript(() => {
    (window as unknown as { AudioContext?: unknown }).AudioContext = undefined;
  });
  await context.addInitScript(recordLongTasks);
  const page = await context.newPage();
  if (!(await withoutInspectorStackTraces(page)) && !warnedOfStackTraces) {
    warnedOfStackTraces = true;
    console.warn(
      "  (Playwright's session could not be reached: every Error the page creates records its stack, as with DevTools open)",
    );
  }
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: cpuSlowdown });
  return { page, close: () => context.close() };
}

const record = (page: Page) =>
  page.evaluate(() => (window as unknown as { __longTasks: PageRecord }).__longTasks);

/** Scrolls the list to its top until the oldest stored message shows (every page loaded). */
async function readUp(page: Page): Promise<void> {
  const log = page.getByRole("log", { name: "Messages" });
  const oldest = log.getByText("question 0", { exact: true });
  for (let step = 0; step < 200 && !(await oldest.isVisible()); step += 1) {
    await log.evaluate((element) => {
      element.scrollTop = 0;
    });
    await page.waitForTimeout(150);
  }
  if (!(await oldest.isVisible())) throw new Error("the oldest message never showed");
}

/** Reads up through the chat (`readUp`), then back down with 'Scroll to bottom'. */
async function readUpThrough(page: Page): Promise<void> {
  await readUp(page);
  const jump = page.getByRole("button", { name: "Scroll to bottom" });
  await jump.click();
  await jump.waitFor({ state: "hidden" });
  await page.waitForTimeout(1000);
}

/**
 * The chat of `scenario.history` messages stored afresh and opened on a phone's page at the
 * machine's own speed (the opening is not what is measured), its newest bubble shown.
 */
async function openedChat(
  bench: Bench,
  scenario: Scenario,
): Promise<{ page: Page; close: () => Promise<void> }> {
  await bench.store(scenario.history);
  const opened = await phonePage(bench, 1);
  try {
    await opened.page.goto(`${bench.url}/character-select/${bench.characterId}`);
    await opened.page.getByRole("log", { name: "Messages" }).getByRole("article").last().waitFor();
    return opened;
  } catch (error) {
    await opened.close();
    throw error;
  }
}

/** One run of a reply scenario: the longest task at sending, while streaming and at the end. */
async function replyRun(bench: Bench, scenario: Scenario): Promise<RunResult> {
  // Unthrottled while the chat opens and is read up through: only the reply is measured.
  const { page, close } = await openedChat(bench, scenario);
  try {
    const log = page.getByRole("log", { name: "Messages" });
    if (scenario.history > 0) await readUpThrough(page);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: scenario.cpuSlowdown });
    await page.getByRole("textbox", { name: "Type a message" }).fill("Tell me about the lighthouse");
    await page.waitForTimeout(500);
    if (PROFILE) await startProfile(cdp);
    if (TRACE) await bench.browser.startTracing(page, { path: TRACE, categories: TRACE_CATEGORIES });
    // A tap where the button is, a touch as on a phone: Playwright's `click()` would also run its
    // own hit-target checks in the page, inside the task measured.
    const send = await page.getByRole("button", { name: "Send" }).boundingBox();
    if (send === null) throw new Error("no Send button");
    await page.touchscreen.tap(send.x + send.width / 2, send.y + send.height / 2);
    // The page's recorder marks the stream's start and end; it is asked four times a second, where a
    // locator's wait would query the page on every frame, inside the frames measured.
    const streamed = (phase: "streamStart" | "streamEnd", timeout: number) =>
      page.waitForFunction(
        (key) => (window as unknown as { __longTasks: PageRecord }).__longTasks[key] >= 0,
        phase,
        { polling: 250, timeout },
      );
    await streamed("streamStart", 60_000);
    await streamed("streamEnd", ((TOKENS / RATE) * 3 + 60) * 1000);
    await page.waitForTimeout(SETTLE_MS);
    if (TRACE) await bench.browser.stopTracing();
    if (PROFILE) await printProfile(cdp);
    const shown = await log.locator("article.message--reply").last().locator("pre").count();
    if (shown === 0 && process.env.MARKDOWN_BENCH_PLAIN !== "1")
      throw new Error("the reply shows no code block");
    const measured = await record(page);
    if (process.env.MARKDOWN_BENCH_TASKS === "1")
      console.log(
        `    click ${measured.clickAt.toFixed(0)}, streaming ${measured.streamStart.toFixed(0)} to ${measured.streamEnd.toFixed(0)} ms; long tasks (start: duration): ${measured.tasks.map(([at, ms]) => `${at.toFixed(0)}: ${ms.toFixed(0)}`).join(", ")}`,
      );
    if (process.env.MARKDOWN_BENCH_TASKS === "1") printFrames(measured, measured.clickAt - 100);
    return replyPhases(measured);
  } finally {
    await close();
  }
}

/**
 * One run of `jump`: the chat of `scenario.history` messages read up through at the machine's own
 * speed, then, slowed, a tap on 'Scroll to bottom'. @returns the longest task from the tap to
 * 3 s after the list rests at its newest message.
 */
async function jumpRun(bench: Bench, scenario: Scenario): Promise<RunResult> {
  const { page, close } = await openedChat(bench, scenario);
  try {
    await readUp(page);
    const jump = await page.getByRole("button", { name: "Scroll to bottom" }).boundingBox();
    if (jump === null) throw new Error("no Scroll to bottom button");
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Emulation.setCPUThrottlingRate", { rate: scenario.cpuSlowdown });
    await page.waitForTimeout(1000);
    if (PROFILE) await startProfile(cdp);
    if (TRACE) await bench.browser.startTracing(page, { path: TRACE, categories: TRACE_CATEGORIES });
    await page.touchscreen.tap(jump.x + jump.width / 2, jump.y + jump.height / 2);
    // At the newest message, asked four times a second (see the reply's wait).
    const newest = `question ${scenario.history - 1}`;
    await page.waitForFunction(
      (text) => {
        const list = document.querySelector('[role="log"]');
        if (list === null || list.scrollHeight - list.scrollTop - list.clientHeight > 2) return false;
        return [...list.querySelectorAll(".bubble__text")].some((part) => part.textContent === text);
      },
      newest,
      { polling: 250, timeout: 30_000 },
    );
    await page.waitForTimeout(SETTLE_MS);
    if (TRACE) await bench.browser.stopTracing();
    if (PROFILE) await printProfile(cdp);
    const measured = await record(page);
    const tasks = measured.tasks.filter(([start, ms]) => start + ms > measured.clickAt);
    if (process.env.MARKDOWN_BENCH_TASKS === "1") {
      console.log(
        `    tap ${measured.clickAt.toFixed(0)}; long tasks (start: duration): ${tasks.map(([at, ms]) => `${at.toFixed(0)}: ${ms.toFixed(0)}`).join(", ")}`,
      );
      printFrames(measured, measured.clickAt - 100);
    }
    return { tap: phaseTasks(tasks.map(([, ms]) => ms)) };
  } finally {
    await close();
  }
}

/**
 * Waits until the chat's log shows a message whose text is `text`. Asked with a small
 * `page.evaluate` every 50 ms, not a Playwright locator: a locator's first use in a page
 * injects Playwright's selector engine, a script whose evaluation is itself a long task of the
 * page (about 100 ms at 4x), and on a page loaded afresh it would land in the window measured.
 */
async function showsNewest(page: Page, text: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const shown = await page.evaluate(
      (wanted) =>
        [...document.querySelectorAll('[role="log"] article')].some((article) =>
          [...article.querySelectorAll("p, div")].some((part) => part.textContent?.trim() === wanted),
        ),
      text,
    );
    if (shown) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the chat never showed "${text}"`);
}

/**
 * One run of opening the long chat, from the chat list (`open`) or by loading its page (`reload`):
 * the longest task from the click (or the navigation) to 3 s after the newest message shows.
 */
async function openRun(bench: Bench, scenario: Scenario): Promise<RunResult> {
  await bench.store(scenario.history);
  const fromList = scenario.kind === "open";
  const { page, close } = await phonePage(bench, fromList ? 1 : scenario.cpuSlowdown);
  let profiled: CDPSession | undefined;
  try {
    if (fromList) {
      await page.goto(`${bench.url}/characters/list`);
      const start = page.getByRole("link", { name: "Start Chatting" }).first();
      await start.waitFor();
      await page.waitForTimeout(1000);
      const link = await start.boundingBox();
      if (link === null) throw new Error("no Start Chatting link");
      const cdp = await page.context().newCDPSession(page);
      await cdp.send("Emulation.setCPUThrottlingRate", { rate: scenario.cpuSlowdown });
      if (PROFILE) await startProfile(cdp);
      if (TRACE) await bench.browser.startTracing(page, { path: TRACE, categories: TRACE_CATEGORIES });
      // A tap where the link is (see the reply's Send).
      await page.touchscreen.tap(link.x + link.width / 2, link.y + link.height / 2);
      profiled = cdp;
    } else {
      await page.goto("about:blank");
      await page.waitForTimeout(BROWSER_SETTLE_MS);
      if (PROFILE) {
        profiled = await page.context().newCDPSession(page);
        await startProfile(profiled);
      }
      if (TRACE) await bench.browser.startTracing(page, { path: TRACE, categories: TRACE_CATEGORIES });
      await page.goto(`${bench.url}/character-select/${bench.characterId}`);
    }
    await showsNewest(page, `question ${scenario.history - 1}`);
    await page.waitForTimeout(SETTLE_MS);
    if (PROFILE && profiled) await printProfile(profiled);
    if (TRACE) await bench.browser.stopTracing();
    const measured = await record(page);
    const from = fromList ? measured.clickAt : 0;
    const until = measured.firstBubble + SETTLE_MS;
    if (process.env.MARKDOWN_BENCH_TASKS === "1")
      console.log(
        `    from ${from.toFixed(0)} ms, first bubble at ${measured.firstBubble.toFixed(0)} ms; long tasks (start: duration): ${measured.tasks.map(([at, ms]) => `${at.toFixed(0)}: ${ms.toFixed(0)}`).join(", ")}`,
      );
    const tasks = measured.tasks.filter(([start, ms]) => start + ms > from && start < until);
    return { opening: phaseTasks(tasks.map(([, ms]) => ms)) };
  } finally {
    await close();
  }
}

/** A history reply of about 60 tokens, formatted as the replies are. */
const storedReply = (n: number) => section(n).split("\n```")[0] ?? "";

async function main(): Promise<void> {
  let builtDir: string | undefined;
  if (!process.env.TEST_WEB_DIST_DIR) {
    builtDir = mkdtempSync(join(tmpdir(), "markdown-bench-"));
    await build({
      configFile: "vite.config.ts",
      logLevel: "warn",
      build: { outDir: builtDir, emptyOutDir: true },
    });
    process.env.TEST_WEB_DIST_DIR = builtDir;
  }
  const plain = process.env.MARKDOWN_BENCH_PLAIN === "1";
  const markdown = markdownReply(TOKENS);
  const reply = plain ? markdown.replace(/[*#`>|_[\]()-]/g, "").replace(/\s+/g, " ") : markdown;
  const isChat = (system: string) => system.startsWith("You are ");
  const llm = await startScriptedCompletions(
    (request) => (isChat(request.messages[0]?.content ?? "") ? reply : "[]"),
    { tokenDelayMs: (request) => (isChat(request.messages[0]?.content ?? "") ? 1000 / RATE : 0) },
  );
  const server = await startTestServer({
    env: { LLM_PROVIDER: "openai", LLM_BASE_URL: llm.baseUrl, LLM_MODEL: "scripted" },
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
  let failed = false;
  try {
    const session = await demoSession(server.url);
    const headers = { Authorization: `Bearer ${session.token}` };
    const created = (await (
      await fetch(`${server.url}/api/characters/create-random`, { method: "POST", headers })
    ).json()) as {
      success: number;
      message: string;
    };
    if (created.success !== 1) throw new Error(`create-random failed: ${created.message}`);
    const list = (await (await fetch(`${server.url}/api/characters/list/chat`, { headers })).json()) as {
      characters: Array<{ characterUUID: string }>;
    };
    const characterId = list.characters[0]?.characterUUID;
    if (!characterId) throw new Error("no character");
    // Every run sends a message: no daily cap may stop the benchmark.
    await server.db.updateTable("plans").set({ message_limit: 1_000_000_000 }).execute();
    await server.db.updateTable("users").set({ chat_limit: 1_000_000_000 }).execute();
    const bench: Bench = {
      url: server.url,
      browser,
      session,
      characterId,
      reply,
      store: async (messages) => {
        // New Chat empties the chat; opening it makes its greeting (and chat session) again.
        const cleared = (await (
          await fetch(`${server.url}/api/chat/new?id=${characterId}&uid=${session.user.id}`, { headers })
        ).json()) as { success: number; message: string };
        if (cleared.success !== 1) throw new Error(`new chat failed: ${cleared.message}`);
        if (messages === 0) return;
        const { page, close } = await phonePage(bench, 1);
        await page.goto(`${server.url}/character-select/${characterId}`);
        await page.getByRole("log", { name: "Messages" }).getByRole("article").first().waitFor();
        await close();
        const exchanges = Array.from({ length: messages }, (_unused, i) => ({
          message: `question ${i}`,
          reply: storedReply(i + 1),
        }));
        await storeHistory(server.db, session.user.id, characterId, exchanges);
      },
    };
    console.log(
      `${plain ? "plain" : "markdown"} reply of ${TOKENS} tokens (${reply.length} characters) at ${RATE} tokens/s, 390x844, ${RUNS} runs a scenario; longest task per phase, ms`,
    );
    for (const scenario of SCENARIOS) {
      if (ONLY.length > 0 && !ONLY.includes(scenario.id)) continue;
      const runs: RunResult[] = [];
      for (let run = 0; run < RUNS; run += 1) {
        const result =
          scenario.kind === "reply"
            ? await replyRun(bench, scenario)
            : scenario.kind === "jump"
              ? await jumpRun(bench, scenario)
              : await openRun(bench, scenario);
        runs.push(result);
        const shown = Object.entries(result).map(
          ([phase, tasks]) => `${phase} ${tasks.maxMs.toFixed(0)} (${tasks.count} long)`,
        );
        console.log(`  ${scenario.id} run ${run + 1}: ${shown.join(", ")}`);
      }
      const phases = Object.keys(runs[0] ?? {});
      const medians = phases.map(
        (phase) => [phase, median(runs.map((result) => result[phase]?.maxMs ?? 0))] as const,
      );
      const pass = medians.every(([, ms]) => (scenario.limitMs === 0 ? ms === 0 : ms < scenario.limitMs));
      const target = scenario.limitMs === 0 ? "no long task" : `each under ${scenario.limitMs} ms`;
      console.log(
        `${scenario.title}: median longest task ${medians.map(([phase, ms]) => `${phase} ${ms.toFixed(0)} ms`).join(", ")} (target: ${target}) ${pass ? "PASS" : "FAIL"}`,
      );
      if (!pass) failed = true;
    }
  } finally {
    await browser.close();
    await server.close();
    await llm.close();
    if (builtDir) rmSync(builtDir, { recursive: true, force: true });
  }
  if (failed) process.exitCode = 1;
}

await main();
