import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { demoChatUser } from "../e2e/support/demo";
import { buildApp } from "../server/app";
import { loadConfig } from "../server/env";
import type { GenerateRequest, GenerateResult, LlmProvider } from "../server/providers/llm/llm";
import { EspeakTts } from "../server/providers/tts/espeak";

/**
 * Voice benchmark, run by `npm run bench`:
 * 1. the embedded engine's real-time factor on this machine: eSpeak NG synthesis plus MP3
 *    encoding time divided by the length of the audio made (below 1 is faster than real time);
 * 2. time from a streamed reply's first sentence being written to its audio being ready: the
 *    server-sent `token` that completes the first sentence vs the `audio` event of sentence 0,
 *    measured by the client, with a model streaming one word every 30 ms. Every run speaks new
 *    words, so nothing comes from the cache.
 */
const RUNS = 12;
const WORD_GAP_MS = 30;

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

const SENTENCES = [
  "Good evening, it is lovely to hear from you again.",
  "I spent the afternoon reading about the stars and the planets.",
  "Tell me everything about your day, from the very beginning, and do not leave anything out.",
];

async function realTimeFactor(): Promise<void> {
  const tts = new EspeakTts();
  await tts.run("Warm up.", "en+f3", "mp3");
  let synthMs = 0;
  let audioSeconds = 0;
  for (let i = 0; i < RUNS; i++) {
    const text = `${SENTENCES[i % SENTENCES.length]} Number ${i + 1}.`;
    const started = performance.now();
    const result = await tts.run(text, i % 2 ? "en+m3" : "en+f3", "mp3");
    synthMs += performance.now() - started;
    audioSeconds += result.samples / result.sampleRate;
  }
  await tts.close();
  console.log("embedded TTS (eSpeak NG WebAssembly + MP3 32 kbit/s), one sentence at a time");
  console.log(
    `  ${RUNS} sentences, ${audioSeconds.toFixed(1)} s of audio in ${(synthMs / 1000).toFixed(2)} s: real-time factor ${(synthMs / 1000 / audioSeconds).toFixed(3)}`,
  );
}

/** Streams its reply word by word, WORD_GAP_MS apart, like a model generating it. */
class SlowStreamingLlm implements LlmProvider {
  readonly name = "bench-stream";
  reply = "";
  contextWindow() {
    return 4096;
  }
  status() {
    return { ready: true, message: "ready" };
  }
  countTokens(text: string) {
    return Math.ceil(text.length / 4);
  }
  async generate(request: GenerateRequest): Promise<GenerateResult> {
    for (const word of this.reply.match(/\S+\s*/g) ?? []) {
      await new Promise((r) => setTimeout(r, WORD_GAP_MS));
      request.onTextChunk?.(word);
    }
    return { text: this.reply, modelMs: 0 };
  }
  async close() {}
}

async function firstSentenceToAudio(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "companion-voice-bench-"));
  const llm = new SlowStreamingLlm();
  const app = await buildApp(
    loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: "silent",
      RATE_LIMIT_ENABLED: "0",
      TTS_PROVIDER: "espeak",
      DEMO_LOGIN: "1",
    }),
    { llm },
  );
  await app.db.db.updateTable("plans").set({ message_limit: 1_000_000_000 }).execute();
  const base = await app.app.listen({ port: 0, host: "127.0.0.1" });
  const { token, characterId } = await demoChatUser(base);
  const auth = { authorization: `Bearer ${token}` };

  const waits: number[] = [];
  const wholeReply: number[] = [];
  for (let run = 0; run < RUNS + 1; run++) {
    const first = `Run ${run + 1}: ${SENTENCES[0]}`;
    llm.reply = `${first} ${SENTENCES[1]} ${SENTENCES[2]} That makes ${run + 7} questions.`;
    const response = await fetch(`${base}/api/chat/message`, {
      method: "POST",
      headers: { ...auth, accept: "text/event-stream" },
      body: new URLSearchParams({ message: `Hello ${run}`, id: characterId }),
    });
    let written = "";
    let sentenceDone = 0;
    let audioReady = 0;
    let done = 0;
    const started = performance.now();
    let buffer = "";
    const decoder = new TextDecoder();
    const reader = response.body!.getReader();
    for (;;) {
      const { value, done: end } = await reader.read();
      if (end) break;
      buffer += decoder.decode(value, { stream: true });
      for (let cut = buffer.indexOf("\n\n"); cut >= 0; cut = buffer.indexOf("\n\n")) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? "{}") as {
          text?: string;
          index?: number;
        };
        const now = performance.now();
        if (event === "token") {
          written += data.text ?? "";
          // The sentence is complete once the word after its full stop begins.
          if (!sentenceDone && written.length > first.length) sentenceDone = now;
        } else if (event === "audio" && data.index === 0 && !audioReady) audioReady = now;
        else if (event === "done") done = now;
      }
    }
    if (run === 0) continue; // warm-up: starts the engine's worker thread
    waits.push(audioReady - sentenceDone);
    wholeReply.push(done - started);
  }
  console.log(`streamed reply (4 sentences, one word every ${WORD_GAP_MS} ms), embedded TTS, ${RUNS} runs`);
  console.log(
    `  first sentence written -> its audio ready: p50 ${percentile(waits, 50).toFixed(0)} ms, p95 ${percentile(waits, 95).toFixed(0)} ms`,
  );
  console.log(
    `  (whole reply written and spoken: p50 ${percentile(wholeReply, 50).toFixed(0)} ms from the request)`,
  );
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

await realTimeFactor();
await firstSentenceToAudio();
