// The LoCoMo chats of the memory benchmarks: reading them, scoring a prompt's evidence recall, and a generated very long chat.
import fs from "node:fs";
import path from "node:path";

/**
 * The data lives outside the repository (never copied into it): ../shared/bench/locomo/ from the
 * repository's root, described by its README.md. BENCH_LOCOMO_DIR: another folder.
 */
export const LOCOMO_DIR =
  process.env.BENCH_LOCOMO_DIR ?? path.resolve(import.meta.dirname, "../../../shared/bench/locomo");

/** The question categories, in the order they are printed. */
export const CATEGORIES = ["multi-hop", "temporal", "open-domain", "single-hop"] as const;
export type Category = (typeof CATEGORIES)[number];

export interface LocomoQuestion {
  question: string;
  answer: string | number;
  category: Category;
  /** The `extra.locomo_id`s of the messages the answer rests on. */
  evidence: string[];
}

/** One line of a SillyTavern chat file after the header. */
export interface SillyTavernMessage {
  name: string;
  is_user: boolean;
  is_system: boolean;
  send_date: string;
  mes: string;
  extra?: { locomo_id?: string };
}

/** One conversation: its chat file as it is, its messages by LoCoMo id, its questions. */
export interface LocomoChat {
  /** "26", "41", … */
  id: string;
  /** The file's name and text, for the import. */
  fileName: string;
  jsonl: string;
  user: string;
  character: string;
  messages: SillyTavernMessage[];
  /** Each message's text by its `extra.locomo_id`. */
  byId: Map<string, string>;
  questions: LocomoQuestion[];
}

/**
 * The conversations in the folder ("26", "41", …), sorted; BENCH_CHATS=26,41 keeps those only
 * (unless `every`).
 */
export function locomoChatIds(every = false): string[] {
  const all = fs
    .readdirSync(LOCOMO_DIR)
    .map((name) => /^locomo-(\d+)\.jsonl$/.exec(name)?.[1])
    .filter((id): id is string => id !== undefined)
    .sort();
  const wanted = (every ? "" : (process.env.BENCH_CHATS ?? ""))
    .split(",")
    .map((id) => id.trim())
    .filter(Boolean);
  return wanted.length ? all.filter((id) => wanted.includes(id)) : all;
}

/** Reads conversation `id`'s chat file and questions. */
export function loadLocomoChat(id: string): LocomoChat {
  const fileName = `locomo-${id}.jsonl`;
  const jsonl = fs.readFileSync(path.join(LOCOMO_DIR, fileName), "utf8");
  const [head, ...lines] = jsonl.split("\n").filter((line) => line.trim());
  const header = JSON.parse(head!) as { user_name: string; character_name: string };
  const messages = lines.map((line) => JSON.parse(line) as SillyTavernMessage);
  const byId = new Map(messages.map((m) => [m.extra?.locomo_id ?? "", m.mes]));
  const questions = (
    JSON.parse(fs.readFileSync(path.join(LOCOMO_DIR, `locomo-${id}.questions.json`), "utf8")) as {
      questions: LocomoQuestion[];
    }
  ).questions;
  return {
    id,
    fileName,
    jsonl,
    user: header.user_name,
    character: header.character_name,
    messages,
    byId,
    questions,
  };
}

/** Whitespace collapsed to single spaces and trimmed (the README's rule for both sides). */
export function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** What must appear in a prompt for a message to count: its first 60 characters, collapsed. */
export function evidenceNeedle(text: string): string {
  return collapse(text).slice(0, 60);
}

/** A prompt's text: all its messages' contents joined, collapsed. */
export function promptText(messages: Array<{ content: string }>): string {
  return collapse(messages.map((m) => m.content).join("\n"));
}

/**
 * Evidence recall of one question in one prompt: the share of its evidence messages whose
 * needle appears in the prompt's text (an id the chat does not hold counts as missing).
 */
export function evidenceRecall(question: LocomoQuestion, byId: Map<string, string>, text: string): number {
  if (question.evidence.length === 0) return 1;
  const found = question.evidence.filter((id) => {
    const message = byId.get(id);
    return message !== undefined && text.includes(evidenceNeedle(message));
  });
  return found.length / question.evidence.length;
}

/** Deterministic pseudo-random numbers in [0, 1) (mulberry32), so runs are alike. */
export function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August"]
  .concat(["September", "October", "November", "December"])
  .map((month) => month.slice(0, 3));

/** A time as SillyTavern writes `send_date`: "May 8, 2023 1:56pm" (UTC). */
export function sillyTavernDate(epochMs: number): string {
  const d = new Date(epochMs);
  const hour = d.getUTCHours() % 12 || 12;
  const minute = String(d.getUTCMinutes()).padStart(2, "0");
  const half = d.getUTCHours() < 12 ? "am" : "pm";
  return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()} ${hour}:${minute}${half}`;
}

/**
 * A SillyTavern chat of `count` messages drawn from `chats`: each message is a random LoCoMo
 * message with about one word in six (of five letters or more) swapped for another such word
 * of the pool, so texts repeat no message whole and the search meets a realistic vocabulary.
 * User and character alternate; sessions of 10-30 messages a minute apart, 1-4 days between
 * sessions, from January 2019 on.
 */
export function generatedChat(chats: LocomoChat[], count: number, seed = 7): string {
  const rand = random(seed);
  const pool = chats.flatMap((chat) => chat.messages.map((m) => m.mes));
  const words = [...new Set(pool.flatMap((text) => text.match(/\b[A-Za-z]{5,}\b/g) ?? []))];
  const vary = (text: string) =>
    text.replace(/\b[A-Za-z]{5,}\b/g, (word) =>
      rand() < 1 / 6 ? words[Math.floor(rand() * words.length)]! : word,
    );
  const lines = [
    JSON.stringify({
      user_name: "Sam",
      character_name: "Robin",
      create_date: "2019-01-01@09h00m00s",
      chat_metadata: { source: "generated from LoCoMo" },
    }),
  ];
  let clock = Date.UTC(2019, 0, 1, 9);
  let left = 0;
  for (let i = 0; i < count; i += 1) {
    if (left === 0) {
      left = 10 + Math.floor(rand() * 21);
      clock += (1 + Math.floor(rand() * 4)) * 24 * 60 * 60_000;
    }
    left -= 1;
    clock += 60_000;
    const isUser = i % 2 === 0;
    lines.push(
      JSON.stringify({
        name: isUser ? "Sam" : "Robin",
        is_user: isUser,
        is_system: false,
        send_date: sillyTavernDate(clock),
        mes: vary(pool[Math.floor(rand() * pool.length)]!),
        extra: { locomo_id: `G:${i + 1}` },
      }),
    );
  }
  return `${lines.join("\n")}\n`;
}
