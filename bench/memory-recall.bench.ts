// Memory recall benchmark: how much of what LoCoMo's questions need reaches the prompt, and what the search costs on a 10 000-message chat.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { demoChatUser } from "../e2e/support/demo";
import { ChatApi } from "./support/chat-api";
import {
  CATEGORIES,
  type Category,
  evidenceNeedle,
  evidenceRecall,
  generatedChat,
  type LocomoChat,
  type LocomoQuestion,
  loadLocomoChat,
  locomoChatIds,
  promptText,
} from "./support/locomo";
import { percentile } from "./support/measure";
import { postgresUrl } from "./support/postgres";
import { type RecordingModel, startRecordingModel } from "./support/recording-model";
import { engineData, requireBuild, settle, startServer } from "./support/server";

/**
 * Recall: for each reply the server searches the chat's earlier messages (full text: SQLite FTS5
 * or PostgreSQL) and puts the best, dated and named, in the turn's note within a token budget.
 * This measures it on seven LoCoMo conversations (../shared/bench/locomo, README.md there), with
 * the README's measure, evidence recall in the prompt.
 *
 * Workload: the compiled server (`dist/server/main.js`, `npm run build`) with default settings
 * (the default 4 096-token context window, memory and recall on; rate limits and speech off) in
 * front of an OpenAI-wire Chat Completions double (bench/support/recording-model.ts) that records
 * each chat reply's `messages`, answers it at once with a short reply, and answers the memory jobs
 * with no facts and a fixed summary (so the chat's text reaches the prompt through the history and
 * recall only). A demo user with the first preset character:
 * 1. for each conversation, POST /api/chat/import (the chat file replaces the character's
 *    history), one unmeasured question (deleted) and a wait for the server to idle (the memory
 *    jobs the import sets off); then each question is sent as the next message (POST
 *    /api/chat/message, multipart as the SPA, plain), the prompt the double received for that
 *    reply is scored (the share of the question's evidence messages whose first 60 characters,
 *    whitespace collapsed, appear in the prompt's messages joined and collapsed), GET
 *    /api/chat/prompt gives recall's account (tokens recalled, the search's `ms`), and POST
 *    /api/chat/delete removes the question again so the chat is as imported;
 * 2. once, for the first conversation, recall off (POST /api/chat/recall) for the plain window's
 *    figure (the baseline), then on again;
 * 3. a generated chat of 10 000 messages (messages of all seven conversations, whatever
 *    BENCH_CHATS says, with words swapped: support/locomo.ts) is imported and 50 questions asked:
 *    the search's `ms` on a chat that size. Eight other guests' generated chats, 40 000 messages
 *    in all, are imported first, so the database holds other people's chats as a server in use
 *    does (PostgreSQL plans a search by how much of the table the chat is: alone in the table it
 *    is read whole, whatever the indexes).
 * All of it on SQLite, then on PostgreSQL (a scratch database; skipped with the reason when no
 * server answers).
 *
 * Printed per database: recall per conversation and overall, by category; recalled tokens per
 * question (mean, p95); the search's ms (p50, p95); the baseline; the long chat's ms. Targets
 * (PASS/FAIL, exit code 1 when one fails), each database: recall >= 0.80 overall and >= 0.60
 * multi-hop; the long chat's p95 <= 20 ms.
 * Knobs: BENCH_CHATS=26,41 (conversations), BENCH_QUESTIONS=N (the first N of each),
 * BENCH_ENGINES=sqlite,postgres, BENCH_BASELINE=0 (no baseline), BENCH_LONG_MESSAGES (10000),
 * BENCH_LONG_QUESTIONS (50; 0 skips the long chat), BENCH_LONG_OTHERS (40000; other guests'
 * messages in the database beside the long chat, 0: the long chat alone), BENCH_DUMP=<file> (one
 * JSON line per question: its category, recall, and the evidence messages found and missed).
 */

const QUESTIONS = Number(process.env.BENCH_QUESTIONS ?? Number.POSITIVE_INFINITY);
const ENGINES = (process.env.BENCH_ENGINES ?? "sqlite,postgres").split(",").map((e) => e.trim());
const BASELINE = process.env.BENCH_BASELINE !== "0";
const LONG_MESSAGES = Number(process.env.BENCH_LONG_MESSAGES ?? 10_000);
const LONG_QUESTIONS = Number(process.env.BENCH_LONG_QUESTIONS ?? 50);
const LONG_OTHERS = Number(process.env.BENCH_LONG_OTHERS ?? 40_000);
/** How many other guests' chats hold LONG_OTHERS. */
const OTHER_CHATS = 8;
const TARGETS = { recall: 0.8, multiHop: 0.6, longP95Ms: 20 };

/** One question's outcome. */
interface Asked {
  chat: string;
  category: Category;
  /** Evidence recall in the reply's prompt, 0..1. */
  recall: number;
  /** Tokens recall added (its messages' tokens); NaN without an account. */
  tokens: number;
  /** The search's time on the server, ms; NaN without an account. */
  ms: number;
}

/** One database's figures. */
interface EngineRun {
  engine: string;
  asked: Asked[];
  baseline?: { chat: string; recall: number };
  long?: { imported: number; importMs: number; asked: number; ms: number[]; recalled: number };
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const fixed = (value: number, digits = 3) => (Number.isFinite(value) ? value.toFixed(digits) : "-");

/** Waits until the double answers nothing and the server used no CPU for 300 ms (at most 30 s). */
async function idle(pid: number, model: RecordingModel): Promise<void> {
  const deadline = performance.now() + 30_000;
  while (model.inFlight() > 0 && performance.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
  await settle(pid, 30_000);
}

/**
 * Sends `question` as the next message, scores the prompt the double got for that reply, reads
 * recall's account, and deletes the entry again.
 */
async function ask(
  api: ChatApi,
  model: RecordingModel,
  chat: LocomoChat,
  question: LocomoQuestion,
): Promise<Asked> {
  const before = model.chats.length;
  const entryId = await api.send(question.question, chat.user);
  const prompt = model.chats
    .slice(before)
    .findLast((messages) => messages.at(-1)?.content.includes(question.question));
  if (!prompt) throw new Error(`the double saw no prompt for ${JSON.stringify(question.question)}`);
  const recall = evidenceRecall(question, chat.byId, promptText(prompt));
  if (process.env.BENCH_DUMP) {
    const text = promptText(prompt);
    const missed = question.evidence.filter((id) => {
      const m = chat.byId.get(id);
      return m !== undefined && !text.includes(evidenceNeedle(m));
    });
    fs.appendFileSync(
      process.env.BENCH_DUMP,
      `${JSON.stringify({ chat: chat.id, category: question.category, question: question.question, recall, missed: missed.map((id) => chat.byId.get(id)), found: question.evidence.filter((id) => !missed.includes(id)).map((id) => chat.byId.get(id)) })}\n`,
    );
  }
  const account = (await api.inspection(entryId))?.recall;
  await api.remove(entryId);
  const tokens = account ? account.messages.reduce((sum, m) => sum + m.tokens, 0) : Number.NaN;
  return { chat: chat.id, category: question.category, recall, tokens, ms: account?.ms ?? Number.NaN };
}

/** Imports `chat`, lets the server settle after one unmeasured question, asks its questions. */
async function runChat(api: ChatApi, model: RecordingModel, pid: number, chat: LocomoChat) {
  const started = performance.now();
  const imported = await api.importChat(chat.fileName, chat.jsonl);
  const importMs = performance.now() - started;
  await api.remove(await api.send("Hi, it's me again.", chat.user));
  await idle(pid, model);
  const questions = chat.questions.slice(0, QUESTIONS);
  const asked: Asked[] = [];
  for (const question of questions) asked.push(await ask(api, model, chat, question));
  return { imported, importMs, asked };
}

/** The first chat's questions again with recall off (the plain window), then recall on again. */
async function baseline(
  api: ChatApi,
  model: RecordingModel,
  chat: LocomoChat,
): Promise<EngineRun["baseline"]> {
  try {
    await api.setRecall(false);
  } catch (error) {
    console.log(`  baseline skipped: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
  const plain: Asked[] = [];
  for (const question of chat.questions.slice(0, QUESTIONS))
    plain.push(await ask(api, model, chat, question));
  await api.setRecall(true);
  return { chat: chat.id, recall: mean(plain.map((a) => a.recall)) };
}

/**
 * The long chat: made from all seven conversations whatever BENCH_CHATS says (the same chat every
 * run), imported, then LONG_QUESTIONS questions drawn evenly from all of theirs.
 */
async function runLong(api: ChatApi, model: RecordingModel, pid: number, base: string) {
  const chats = locomoChatIds(true).map(loadLocomoChat);
  // Other people's chats first (each guest's own generated chat, seeded apart from the long one).
  for (let i = 0; i < OTHER_CHATS && LONG_OTHERS > 0; i += 1) {
    const other = await demoChatUser(base);
    const otherApi = new ChatApi(base, other.token, other.characterId);
    await otherApi.importChat(
      `other-${i}.jsonl`,
      generatedChat(chats, Math.ceil(LONG_OTHERS / OTHER_CHATS), 100 + i),
    );
  }
  const jsonl = generatedChat(chats, LONG_MESSAGES);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "memory-recall-")), "long.jsonl");
  fs.writeFileSync(file, jsonl);
  const started = performance.now();
  const imported = await api.importChat("long.jsonl", fs.readFileSync(file, "utf8"));
  const importMs = performance.now() - started;
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  await api.remove(await api.send("Hi, it's me again.", "Sam"));
  await idle(pid, model);
  const pool = chats.flatMap((chat) => chat.questions);
  const step = Math.max(1, Math.floor(pool.length / LONG_QUESTIONS));
  const ms: number[] = [];
  let recalled = 0;
  let asked = 0;
  for (let i = 0; i < LONG_QUESTIONS && i * step < pool.length; i += 1) {
    asked += 1;
    const entryId = await api.send(pool[i * step]!.question, "Sam");
    const account = (await api.inspection(entryId))?.recall;
    await api.remove(entryId);
    if (account) {
      ms.push(account.ms);
      recalled += account.messages.length;
    }
  }
  return { imported, importMs, asked, ms, recalled: recalled / Math.max(1, ms.length) };
}

/** One database's whole run on a fresh server. */
async function runEngine(engine: string, model: RecordingModel, chats: LocomoChat[]): Promise<EngineRun> {
  const pgBase = engine === "postgres" ? await postgresUrl() : undefined;
  const data = await engineData("memory-recall-", pgBase);
  const server = await startServer({ ...data.env(model.url), LOG_LEVEL: "warn" }, undefined, {
    // The app's defaults (context window, recall, memory) are measured, not the shell's.
    inherit: (name) => !/^(LLM_|RECALL_|MEMORY_|DATABASE_URL$)/.test(name),
  });
  const pid = server.child.pid!;
  const run: EngineRun = { engine, asked: [] };
  try {
    const user = await demoChatUser(server.base);
    await data.liftLimits();
    const api = new ChatApi(server.base, user.token, user.characterId);
    for (const [index, chat] of chats.entries()) {
      const { imported, importMs, asked } = await runChat(api, model, pid, chat);
      run.asked.push(...asked);
      console.log(
        `  ${engine} chat ${chat.id}: ${imported} messages imported in ${(importMs / 1000).toFixed(1)} s, ` +
          `${asked.length} questions, recall ${fixed(mean(asked.map((a) => a.recall)))}`,
      );
      if (index === 0 && BASELINE && engine === ENGINES[0]) run.baseline = await baseline(api, model, chat);
    }
    if (LONG_QUESTIONS > 0) {
      run.long = await runLong(api, model, pid, server.base);
      console.log(
        `  ${engine} long chat: ${run.long.imported} messages imported in ${(run.long.importMs / 1000).toFixed(1)} s` +
          ` (other guests' messages in the database: ${LONG_OTHERS})`,
      );
    }
  } finally {
    await data.dispose(server);
  }
  return run;
}

/** A row of figures for `asked`: recall overall and by category, tokens, ms. */
function row(label: string, asked: Asked[]): string {
  const byCategory = CATEGORIES.map((category) => {
    const of = asked.filter((a) => a.category === category);
    return of.length ? fixed(mean(of.map((a) => a.recall))) : "-";
  });
  const tokens = asked.map((a) => a.tokens).filter(Number.isFinite);
  const ms = asked.map((a) => a.ms).filter(Number.isFinite);
  return [
    label.padEnd(5),
    String(asked.length).padStart(9),
    fixed(mean(asked.map((a) => a.recall))).padStart(6),
    ...byCategory.map((value, i) => value.padStart(CATEGORIES[i]!.length)),
    fixed(mean(tokens), 0).padStart(11),
    fixed(percentile(tokens, 95), 0).padStart(10),
    fixed(percentile(ms, 50), 1).padStart(6),
    fixed(percentile(ms, 95), 1).padStart(6),
  ].join(" | ");
}

/** Prints one database's figures and its targets. @returns whether every target passed. */
function report(run: EngineRun, chats: LocomoChat[]): boolean {
  console.log(`\n${run.engine === "postgres" ? "PostgreSQL" : "SQLite"}: evidence recall in the prompt`);
  console.log(
    `chat  | questions | recall | ${CATEGORIES.join(" | ")} | tokens mean | tokens p95 | ms p50 | ms p95`,
  );
  for (const chat of chats)
    console.log(
      row(
        chat.id,
        run.asked.filter((a) => a.chat === chat.id),
      ),
    );
  console.log(row("all", run.asked));
  const missing = run.asked.filter((a) => !Number.isFinite(a.ms)).length;
  if (missing) console.log(`note: ${missing} replies had no recall account (tokens and ms leave them out)`);
  if (run.baseline)
    console.log(
      `baseline, recall off (the plain window), chat ${run.baseline.chat}: ${fixed(run.baseline.recall)}`,
    );
  const overall = mean(run.asked.map((a) => a.recall));
  const multiHop = mean(run.asked.filter((a) => a.category === "multi-hop").map((a) => a.recall));
  const results = [
    [`recall overall >= ${TARGETS.recall}: ${fixed(overall)}`, overall >= TARGETS.recall],
    [`recall multi-hop >= ${TARGETS.multiHop}: ${fixed(multiHop)}`, multiHop >= TARGETS.multiHop],
  ] as Array<[string, boolean]>;
  if (run.long) {
    const p50 = percentile(run.long.ms, 50);
    const p95 = percentile(run.long.ms, 95);
    console.log(
      `${run.long.imported}-message chat: ${run.long.asked} questions (${run.long.ms.length} with recall's account), the search's ms p50 ${fixed(p50, 1)}, ` +
        `p95 ${fixed(p95, 1)}; ${fixed(run.long.recalled, 1)} messages recalled a reply`,
    );
    results.push([
      `long chat retrieval p95 <= ${TARGETS.longP95Ms} ms: ${fixed(p95, 1)}`,
      p95 <= TARGETS.longP95Ms,
    ]);
  }
  for (const [line, ok] of results) console.log(`${line}: ${ok ? "PASS" : "FAIL"}`);
  return results.every(([, ok]) => ok);
}

requireBuild();
const chats = locomoChatIds().map(loadLocomoChat);
const total = chats.reduce((sum, chat) => sum + Math.min(chat.questions.length, QUESTIONS), 0);
console.log(
  `Memory recall: ${chats.length} LoCoMo chats (${chats.map((c) => c.id).join(", ")}), ${total} questions; ` +
    `long chat ${LONG_MESSAGES} messages, ${LONG_QUESTIONS} questions`,
);
const model = await startRecordingModel();
let failed = false;
try {
  for (const engine of ENGINES) {
    if (engine === "postgres" && !(await postgresUrl())) {
      console.log(
        "\nPostgreSQL: skipped (no server answers at BENCH_DATABASE_URL, TEST_DATABASE_URL or 127.0.0.1:5432)",
      );
      continue;
    }
    const run = await runEngine(engine, model, chats);
    if (!report(run, chats)) failed = true;
  }
  console.log(
    `\nmemory jobs answered by the double: ${model.counts.facts} fact extractions, ${model.counts.summaries} summaries, ${model.counts.other} other`,
  );
} finally {
  model.close();
}
if (failed) {
  console.log("\nmemory recall targets failed");
  process.exitCode = 1;
}
