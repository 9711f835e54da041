import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { demoChatUser } from "../e2e/support/demo";
import { completionsWire } from "./support/completions-wire.mjs";
import { cpuMs } from "./support/measure";
import { liftLimits, requireBuild, startServer } from "./support/server";
import { multipartBody, StreamClient } from "./support/stream-client";

/**
 * Prompt prefix reuse across chat turns. Prefix caches (llama.cpp server's prompt cache, Ollama,
 * vLLM automatic prefix caching, hosted APIs' prompt caching) skip the work for the part of a
 * prompt that is an exact prefix of one they saw before; this measures how much of each turn's
 * prompt keeps the previous turn's prompt as such a prefix.
 *
 * Workload: the compiled server (`dist/server/main.js`, made by `npm run build`) runs as
 * production does (SQLite in a fresh DATA_DIR, memory on, rate limits and speech off, LOG_LEVEL
 * warn) in front of an OpenAI-wire Chat Completions double on 127.0.0.1 that logs every request's
 * `messages`. It streams a short in-character reply (~30 tokens, varied by turn) for chat replies,
 * answers the fact-extraction job ("Extract lasting facts…") with a JSON array of 1-2 facts drawn
 * from the user's lines and the summary job ("You keep the memory of a long chat…") with a
 * ~100-word summary that differs per call, and "[]" to anything else. One demo user chats with the
 * first preset character for BENCH_TURNS (50) streamed turns as the SPA sends them (multipart
 * `POST /api/chat/message`: varied messages of at most 150 characters, many telling facts in the
 * first person; `pname` "Sam", `ptext`, `time` in ISO 8601 with a +01:00 offset advancing 2 to 6
 * minutes a turn, within a few hours of now). Each answer is read to its end; then the bench waits
 * until the server is idle (the double saw no request for 300 ms and the server used no CPU for
 * 300 ms, at most 10 s), as a person's think time would allow the memory jobs to finish.
 *
 * Each streamed chat request's messages are rendered as one string, `<|role|>\n{content}\n` per
 * message (as a chat template would), and compared with the previous turn's.
 * Printed: per turn, the rendered prompt's length in characters, the longest common prefix with
 * the previous turn's prompt, its share (common prefix / previous prompt length), the share of the
 * previous prompt's part before its turn note (`beforeNote`) that is kept, and where the two first
 * differ (message index, role and offset in its content); then the median share, the turns below
 * 0.8, the memory jobs the double answered, and the targets:
 * - median share >= 0.95;
 * - at most one turn in 20 whose share before the note is below 0.8 (`below <= turns / 20`, turns =
 *   the turns compared): a change above the note, such as the summary's rewrite. The note itself is
 *   new every turn by design, and recall's messages in it (up to 1 000 tokens) pull the whole
 *   prompt's share of a turn below 0.8 with no prefix lost (docs/benchmarks.md "Prefix share").
 * Exits with code 1 when a target fails. BENCH_TURNS: turns (50); BENCH_PROMPTS=<file>: the
 * rendered prompts are written there, one after another, for a look at what changed.
 */

const TURNS = Number(process.env.BENCH_TURNS ?? 50);
const TARGETS = { median: 0.95, low: 0.8, lowPerTurns: 1 / 20 };
const USER_NAME = "Sam";
const USER_ABOUT = "a night nurse, just off shift";
/** Idle: no model request and no server CPU for this long, ms; waited for at most IDLE_MAX_MS. */
const IDLE_MS = 300;
const IDLE_MAX_MS = 10_000;

/**
 * The user's messages, in order (cycled past the end), each with the fact a model would draw
 * from it, if any. At most 150 characters each (product.md §5).
 */
const SCRIPT: Array<[message: string, fact?: string]> = [
  ["Hi! Just got home, finally. Long night on the ward."],
  [
    "I work nights as a nurse at St. Mary's, so my mornings are your evenings.",
    "Sam works night shifts as a nurse at St. Mary's.",
  ],
  ["What did you get up to today?"],
  ["My sister Ana visits on Sunday, she's bringing her twins.", "Sam's sister Ana visits on Sundays."],
  ["Honestly I could eat a whole pizza right now.", "Sam loves pizza."],
  ["Do you ever have trouble sleeping?"],
  ["I have a cat called Miso who yells at me every morning for breakfast.", "Sam has a cat named Miso."],
  ["Tell me something that made you smile this week."],
  ["I'm 34, and still not used to sleeping during the day.", "Sam is 34 years old."],
  [
    "We had a rough shift, two admissions at 3 a.m. and the monitor kept beeping.",
    "Sam had a rough night shift with two admissions.",
  ],
  ["What's your favourite kind of weather?"],
  ["I hate the smell of hospital coffee but I drink it anyway.", "Sam dislikes hospital coffee."],
  ["Rain is my favourite. It makes the ward feel quiet.", "Sam's favourite weather is rain."],
  ["Any plans for the weekend?"],
  [
    "My plan is to sleep until noon and then walk by the river.",
    "Sam plans to sleep in and walk by the river this weekend.",
  ],
  ["Do you like music? What do you listen to when you're alone?"],
  ["I play the cello, badly. Started again last spring.", "Sam plays the cello again since last spring."],
  ["Ana says I work too much. She might be right.", "Sam's sister Ana thinks Sam works too much."],
  ["What would you cook for me if I came over?"],
  ["I'm thinking of adopting a second cat. Miso would hate it.", "Sam is thinking of adopting a second cat."],
  ["Where would you travel if you could go anywhere tomorrow?"],
  [
    "I've always wanted to see Lisbon. My grandmother was born there.",
    "Sam's grandmother was born in Lisbon.",
  ],
  ["That sounds lovely. Tell me more."],
  [
    "My favourite book is The Left Hand of Darkness, I reread it every winter.",
    "Sam's favourite book is The Left Hand of Darkness.",
  ],
  ["Do you remember what I told you about Ana?"],
  ["I start a new rotation in the ICU next month and I'm nervous.", "Sam starts an ICU rotation next month."],
  ["How do you deal with stress?"],
  ["I go running at 6 p.m. before my shift, three times a week.", "Sam runs three times a week before work."],
  ["Ha, you're funny. Okay, a question: tea or coffee?"],
  [
    "I'm allergic to peanuts, which makes hospital vending machines a minefield.",
    "Sam is allergic to peanuts.",
  ],
  ["What's the best advice anyone ever gave you?"],
  ["My dad was a firefighter. He taught me to stay calm in a crisis.", "Sam's father was a firefighter."],
  ["Tonight's shift starts in a few hours. Keep me company?"],
  [
    "I'm saving up for a small flat with a balcony for my plants.",
    "Sam is saving for a flat with a balcony.",
  ],
  ["Which plants would you grow on a balcony?"],
  ["I kill basil every single time. No idea why.", "Sam cannot keep basil alive."],
  ["Do you believe in luck?"],
  [
    "My best friend Jonas moved to Berlin last year and I miss him.",
    "Sam's best friend Jonas moved to Berlin.",
  ],
  ["Tell me a story, something short and cosy."],
  ["I'm learning Portuguese on my breaks, só um pouco.", "Sam is learning Portuguese."],
  ["What makes a good companion, in your opinion?"],
  ["Ana's twins turn five in December, I need gift ideas.", "Ana's twins turn five in December."],
  ["Any ideas for five-year-olds who love dinosaurs?"],
  ["I used to draw comics as a teenager. Maybe I should start again.", "Sam drew comics as a teenager."],
  ["It's snowing a little outside. Rare here."],
  ["I don't eat meat, by the way, since I was twenty.", "Sam has been vegetarian since age twenty."],
  ["What are you thinking about right now?"],
  ["My shift got moved, I'm off tomorrow night for once.", "Sam is off work tomorrow night."],
  ["Let's plan something for my night off. Ideas?"],
  ["Thank you for tonight. I feel a bit lighter. Talk soon?"],
];
const FACTS = new Map(SCRIPT.filter(([, fact]) => fact).map(([message, fact]) => [message, fact!]));

/** Turn `turn`'s message (0-based): the script, numbered when it comes round again. */
function messageOf(turn: number): string {
  const [text] = SCRIPT[turn % SCRIPT.length]!;
  const round = Math.floor(turn / SCRIPT.length);
  return (round === 0 ? text : `${text} (${round + 1})`).slice(0, 150);
}

const OPENERS = [
  "*smiles softly* That sounds like a lot, Sam.",
  "*leans closer* Oh, tell me everything.",
  "*laughs quietly* You always surprise me.",
  "*tilts head* I was hoping you'd say that.",
  "*wraps a blanket around her shoulders* Mm, I'm listening.",
  "*grins* Now that's a good question.",
  "*glances up at the night sky* The stars are out for you tonight.",
  "*sets down her cup* Honestly? I've been thinking about you.",
];
const CLOSERS = [
  "I'm glad you told me. How are you feeling about it now?",
  "Sit with me for a minute and let the night wash off you.",
  "You deserve a little quiet after a shift like that.",
  "What would make the rest of your day feel kinder?",
  "I'd love to hear the rest, whenever you're ready.",
  "Let's keep each other company a bit longer, okay?",
  "Promise me you'll eat something warm before you sleep.",
  "Tell me one small good thing that happened today.",
  "Jupiter is bright tonight; I'll point it out to you sometime.",
];

/** The streamed reply to the `n`th chat request (0-based): ~30 tokens, varied by turn. */
function replyOf(n: number): string {
  return `${OPENERS[n % OPENERS.length]} ${CLOSERS[(n * 3 + 1) % CLOSERS.length]}`;
}

/** Up to two facts from the fact-extraction request's user lines (one message a line). */
function factsOf(userText: string, name: string): string[] {
  const lines = userText.split("\n").filter((line) => line.trim());
  const facts = lines.flatMap((line) => {
    const fact = FACTS.get(line.trim().replace(/ \(\d+\)$/, ""));
    return fact ? [fact.replace(/^Sam\b/, name)] : [];
  });
  if (facts.length === 0 && lines[0]) facts.push(`${name} said: ${lines[0].trim().slice(0, 120)}`);
  return facts.slice(0, 2);
}

/** The `n`th summary (1-based): ~100 words, different each call. */
function summaryOf(n: number, userText: string, name: string): string {
  const said = [...userText.matchAll(new RegExp(`^${name}: (.+)$`, "gm"))].map((m) => m[1]!);
  const latest = said.at(-1) ?? "that the night had been long";
  return [
    `(Summary ${n}.) ${name}, a night nurse, talked with their companion late at night after shifts.`,
    `${name} shared details about work on the ward, the tiredness after night shifts, a sister named Ana`,
    "who visits on Sundays with her twins, a cat called Miso, and plans for quiet days off.",
    "The companion listened, asked gentle questions and offered comfort and small ideas.",
    `The latest thing ${name} said before this summary was: "${latest.slice(0, 120)}".`,
    `The mood was warm and a little tired; open threads include gift ideas for the twins, the ICU`,
    `rotation next month and a walk by the river, to be picked up in conversation ${n + 1}.`,
  ].join(" ");
}

interface ChatMessage {
  role: string;
  content: string;
}

interface ModelDouble {
  url: string;
  /** The `messages` of each streamed (chat reply) request, in arrival order. */
  chats: ChatMessage[][];
  /** Fact-extraction and summary requests answered, and the facts returned. */
  counts: { facts: number; factsReturned: number; summaries: number; other: number };
  /** Requests being answered now. */
  inFlight(): number;
  /** performance.now() of the last request's arrival or answer. */
  lastActivity(): number;
  close(): void;
}

/** The OpenAI-wire Chat Completions double (see the top of the file). */
function startModel(): Promise<ModelDouble> {
  const chats: ChatMessage[][] = [];
  const counts = { facts: 0, factsReturned: 0, summaries: 0, other: 0 };
  let inFlight = 0;
  let last = performance.now();
  const { stream, whole } = completionsWire();
  const answer = (body: { stream?: boolean; messages?: ChatMessage[] }): { sse: boolean; text: string } => {
    const messages = body.messages ?? [];
    if (body.stream) {
      chats.push(messages);
      const words = replyOf(chats.length - 1).split(/(?= )/);
      return { sse: true, text: stream(words) };
    }
    const system = messages.find((m) => m.role === "system")?.content ?? "";
    const user = messages.find((m) => m.role === "user")?.content ?? "";
    if (system.startsWith("Extract lasting facts")) {
      const name = /facts about (.+?) from their messages/.exec(system)?.[1] ?? USER_NAME;
      const facts = factsOf(user, name);
      counts.facts += 1;
      counts.factsReturned += facts.length;
      return { sse: false, text: whole(JSON.stringify(facts)) };
    }
    if (system.startsWith("You keep the memory of a long chat")) {
      counts.summaries += 1;
      const name = /^(.+?): /m.exec(user.split("New messages:\n")[1] ?? "")?.[1] ?? USER_NAME;
      return { sse: false, text: whole(summaryOf(counts.summaries, user, name)) };
    }
    counts.other += 1;
    return { sse: false, text: whole("[]") };
  };
  const server = http.createServer((req, res) => {
    inFlight += 1;
    last = performance.now();
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (part: string) => {
      body += part;
    });
    req.on("end", () => {
      let reply: { sse: boolean; text: string };
      try {
        reply = answer(JSON.parse(body) as { stream?: boolean; messages?: ChatMessage[] });
      } catch {
        reply = { sse: false, text: whole("[]") };
      }
      res.writeHead(200, { "content-type": reply.sse ? "text/event-stream" : "application/json" });
      res.end(reply.text, () => {
        inFlight -= 1;
        last = performance.now();
      });
    });
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        chats,
        counts,
        inFlight: () => inFlight,
        lastActivity: () => last,
        close: () => {
          server.closeAllConnections();
          server.close();
        },
      }),
    ),
  );
}

/**
 * Waits until the server is idle: the double answered its last request IDLE_MS ago and has none
 * open, and the server process used no CPU for IDLE_MS; at most IDLE_MAX_MS.
 */
async function waitIdle(pid: number, model: ModelDouble): Promise<void> {
  const deadline = performance.now() + IDLE_MAX_MS;
  let cpu = cpuMs(pid);
  while (performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    const now = cpuMs(pid);
    const quietModel = model.inFlight() === 0 && performance.now() - model.lastActivity() >= IDLE_MS;
    if (now === cpu && quietModel) return;
    cpu = now;
  }
}

/** A time as the SPA sends it: ISO 8601 in the user's zone (+01:00), e.g. "2026-11-27T22:41:07.000+01:00". */
function localIso(epochMs: number): string {
  return new Date(epochMs + 60 * 60_000).toISOString().replace("Z", "+01:00");
}

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32), so runs are alike. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A prompt as one string, as a chat template renders it. */
function render(messages: ChatMessage[]): string {
  return messages.map((m) => `<|${m.role}|>\n${m.content}\n`).join("");
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i += 1;
  return i;
}

/**
 * How much of `rendered` (the `messages` as `render` writes them) comes before the turn's note: the note ("[...]", with the
 * local time, the sender's fields and recall's messages) ends the newest user message after a blank
 * line (server/modules/prompt/prompt-sections.ts `turnNote`), is rewritten every turn by design,
 * and so is never part of a prefix the next turn can keep.
 */
function beforeNote(messages: ChatMessage[], rendered: string): number {
  const last = messages.at(-1);
  if (last?.role !== "user") return rendered.length;
  const note = last.content.lastIndexOf("\n\n[");
  return note < 0 ? rendered.length : rendered.length - (last.content.length - note) - 1;
}

/** Where character `at` of the rendered `messages` lies: "#index role +offset in its content". */
function locate(messages: ChatMessage[], at: number): string {
  let start = 0;
  for (const [index, m] of messages.entries()) {
    const head = `<|${m.role}|>\n`.length;
    const end = start + head + m.content.length + 1;
    if (at < end) return `#${index} ${m.role} +${Math.max(0, at - start - head)}`;
    start = end;
  }
  return "end";
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

requireBuild();

const model = await startModel();
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prefix-share-"));
const client = new StreamClient();
const server = await startServer({
  PORT: "0",
  HOST: "127.0.0.1",
  DATA_DIR: dataDir,
  DATABASE_URL: "",
  LLM_PROVIDER: "openai",
  LLM_BASE_URL: model.url,
  LLM_MODEL: "bench",
  RATE_LIMIT_ENABLED: "0",
  TTS_PROVIDER: "none",
  LOG_LEVEL: "warn",
});
const pid = server.child.pid!;
let failed = false;
try {
  const user = await demoChatUser(server.base);
  await liftLimits({ sqliteFile: path.join(dataDir, "app.db") });
  await waitIdle(pid, model);
  model.chats.length = 0;

  const rand = random(42);
  // The conversation starts two hours ago and moves 2 to 6 minutes a turn (the server ignores
  // times over 26 h off its clock).
  let clock = Date.now() - 2 * 60 * 60_000;
  for (let turn = 0; turn < TURNS; turn += 1) {
    clock += Math.round((2 + rand() * 4) * 60) * 1000;
    const form = multipartBody({
      message: messageOf(turn),
      id: user.characterId,
      cId: user.characterId,
      mute: "1",
      stream: "1",
      clientMessageId: randomUUID(),
      time: localIso(clock - (clock % 1000)),
      pname: USER_NAME,
      ptext: USER_ABOUT,
    });
    await client.post(
      `${server.base}/api/chat/message`,
      {
        authorization: `Bearer ${user.token}`,
        accept: "text/event-stream",
        "content-type": form.contentType,
      },
      form.body,
      "event: done",
    );
    await waitIdle(pid, model);
  }

  const db2 = new SQLite(path.join(dataDir, "app.db"), { readonly: true });
  const stored = (db2.prepare("select count(*) as n from memories").get() as { n: number }).n;
  db2.close();

  const prompts = model.chats.map(render);
  if (process.env.BENCH_PROMPTS) fs.writeFileSync(process.env.BENCH_PROMPTS, prompts.join("\n=====\n"));
  console.log(
    `Prompt prefix share: ${TURNS} streamed turns, one user and the first preset character, memory on (facts, summary)`,
  );
  if (prompts.length !== TURNS) console.log(`note: the double saw ${prompts.length} chat requests`);
  console.log(
    "turn | prompt chars | common prefix | share | before the note | first difference (message, role, offset)",
  );
  const shares: number[] = [];
  const stableShares: number[] = [];
  for (const [i, prompt] of prompts.entries()) {
    const previous = prompts[i - 1];
    if (previous === undefined) {
      console.log(
        `${String(i + 1).padStart(4)} | ${String(prompt.length).padStart(12)} |             - |     - |               - | -`,
      );
      continue;
    }
    const common = commonPrefix(previous, prompt);
    const share = common / previous.length;
    shares.push(share);
    const stable = beforeNote(model.chats[i - 1]!, previous);
    const stableShare = Math.min(common, stable) / stable;
    stableShares.push(stableShare);
    const where = common === previous.length ? "none (previous kept whole)" : locate(model.chats[i]!, common);
    console.log(
      `${String(i + 1).padStart(4)} | ${String(prompt.length).padStart(12)} | ${String(common).padStart(13)} | ${share.toFixed(3)} | ${stableShare.toFixed(3).padStart(15)} | ${where}`,
    );
  }
  const mid = median(shares);
  const below = stableShares.filter((s) => s < TARGETS.low).length;
  const allowed = shares.length * TARGETS.lowPerTurns;
  console.log(`\nmedian share: ${mid.toFixed(3)}`);
  console.log(
    `turns below ${TARGETS.low}: ${below} of ${shares.length} before the note (${shares.filter((s) => s < TARGETS.low).length} of the whole prompt)`,
  );
  console.log(
    `memory jobs answered by the double: ${model.counts.facts} fact extractions (${model.counts.factsReturned} facts), ${model.counts.summaries} summaries, ${model.counts.other} other; facts stored: ${stored}`,
  );
  const medianOk = mid >= TARGETS.median;
  const belowOk = below <= allowed;
  console.log(`median share >= ${TARGETS.median}: ${medianOk ? "PASS" : "FAIL"}`);
  console.log(
    `turns below ${TARGETS.low} before the note <= ${shares.length}/20 (${Math.floor(allowed)}): ${belowOk ? "PASS" : "FAIL"}`,
  );
  failed = !medianOk || !belowOk;
} finally {
  client.close();
  await server.stop();
  model.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
if (failed) {
  console.log("\nprefix share targets failed");
  process.exitCode = 1;
}
