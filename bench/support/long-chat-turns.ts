// The long-chat benchmark's sender: one streamed turn as the SPA sends it, with the sender's local clock and the turn's new text.
import { randomUUID } from "node:crypto";
import { multipartBody } from "./stream-client";

/** The sender's profile fields, sent with every message (`pname`, `ptext`). */
export const SENDER = { pname: "Sam", ptext: "a night nurse, just off shift" };

/** A chat's sender: its session, its character, and its local clock (advanced each turn). */
export interface Chat {
  token: string;
  characterId: string;
  /** The sender's wall clock, as epoch ms of a UTC+01:00 local time. */
  clock: number;
  /** The previous reply's text ("" before the first). */
  previousReply: string;
}

/** `time` as the SPA sends it: ISO 8601 with the sender's UTC offset (+01:00 here). */
function isoLocal(clock: number): string {
  return `${new Date(clock + 3_600_000).toISOString().slice(0, -1)}+01:00`;
}

/** The local time as the server writes it into the prompt, e.g. "Friday, 22:41". */
function localTimeWords(clock: number): string {
  const local = new Date(clock + 3_600_000);
  const weekday = local.toLocaleDateString("en-GB", { weekday: "long", timeZone: "UTC" });
  return `${weekday}, ${local.toISOString().slice(11, 16)}`;
}

/** Mulberry32: a seeded pseudo-random number generator, [0, 1). */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface TurnResult {
  ttftMs: number;
  endMs: number;
  reply: string;
  /** What this turn tells the model that it has not seen (see the file's comment). */
  newText: string;
}

/** One streamed message (multipart, as the SPA sends it); reads the answer to its `done`. */
export async function sendTurn(base: string, chat: Chat, message: string): Promise<TurnResult> {
  const form = multipartBody({
    message,
    id: chat.characterId,
    cId: chat.characterId,
    mute: "1",
    stream: "1",
    clientMessageId: randomUUID(),
    time: isoLocal(chat.clock),
    ...SENDER,
  });
  const started = performance.now();
  const answer = await fetch(`${base}/api/chat/message`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${chat.token}`,
      accept: "text/event-stream",
      "content-type": form.contentType,
    },
    body: new Uint8Array(form.body),
  });
  const reader = answer.body!.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let ttftMs = Number.NaN;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
    if (Number.isNaN(ttftMs) && text.includes("event: token")) ttftMs = performance.now() - started;
  }
  const endMs = performance.now() - started;
  const events = text.split("\n\n").map((block) => ({
    event: /^event: (.*)$/m.exec(block)?.[1],
    data: /^data: (.*)$/m.exec(block)?.[1],
  }));
  const last = events.findLast((e) => e.event === "done" || e.event === "error");
  if (answer.status !== 200 || last?.event !== "done" || Number.isNaN(ttftMs)) {
    throw new Error(`HTTP ${answer.status}, no reply: ${text.slice(0, 400)}`);
  }
  const streamed = events
    .filter((e) => e.event === "token")
    .map((e) => (JSON.parse(e.data ?? "{}") as { text?: string }).text ?? "")
    .join("");
  const reply = (JSON.parse(last.data ?? "{}") as { text?: string }).text ?? streamed;
  const newText = [chat.previousReply, message, SENDER.pname, SENDER.ptext, localTimeWords(chat.clock)].join(
    "\n",
  );
  chat.previousReply = reply;
  return { ttftMs, endMs, reply, newText };
}
