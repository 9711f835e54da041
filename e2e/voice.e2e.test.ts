import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EspeakTts } from "../server/providers/tts/espeak";
import { wavFile } from "../server/testing/audio";
import { startScriptedCompletions } from "../server/testing/completions-server";
import { startTranscriptionDouble } from "../server/testing/voice-servers";
import { DESKTOP, ensureCharacters, openChat, signedInPage } from "./chat.helpers";
import { closePage, hasChromium } from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * Hands-free voice chat in Chromium with a fake microphone: the microphone
 * plays a WAV our own eSpeak NG made; voice-activity detection (Silero VAD, served by us) ends
 * the speech after the Settings silence; the recording (MediaRecorder, webm) goes to
 * POST /api/chat/transcribe and on to a local OpenAI-compatible transcription double; the
 * message is sent; the reply's audio plays; listening resumes.
 */
const SAID = "Hello, how are you today?";
const REPLY = "I am doing great, thank you for asking.";

type Played = Array<{ src: string; at: number; event: string }>;

/** Records, in the page, every audio element that starts playing or ends (page clock). */
async function recordAudio(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const log: Array<{ src: string; at: number; event: string }> = [];
    (window as unknown as { __audio: typeof log }).__audio = log;
    // Players made with `new Audio()` are not in the document: watch every element that plays.
    const play = HTMLMediaElement.prototype.play;
    const watched = new WeakSet<HTMLMediaElement>();
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      if (!watched.has(this)) {
        watched.add(this);
        for (const event of ["playing", "ended"]) {
          this.addEventListener(event, () => log.push({ src: this.src, at: performance.now(), event }));
        }
      }
      return play.call(this);
    };
  });
}

const played = (page: Page) => page.evaluate(() => (window as unknown as { __audio: Played }).__audio);

describe.skipIf(!hasChromium)("voice chat in Chromium with a fake microphone", () => {
  let stt: Awaited<ReturnType<typeof startTranscriptionDouble>> | undefined;
  let llm: Awaited<ReturnType<typeof startScriptedCompletions>> | undefined;
  let wavPath = "";

  beforeAll(async () => {
    const tts = new EspeakTts();
    const speech = await tts.run(SAID, "en+m3", "pcm");
    await tts.close();
    // 1 s of silence, the sentence, then 9 s of silence: the file loops.
    const silence = (seconds: number) => Buffer.alloc(Math.round(speech.sampleRate * seconds) * 2);
    wavPath = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "voice-e2e-")), "speech.wav");
    fs.writeFileSync(
      wavPath,
      wavFile(Buffer.concat([silence(1), speech.audio, silence(9)]), speech.sampleRate),
    );

    // The double hears only a real browser recording: a WebM file of some length.
    stt = await startTranscriptionDouble((call) =>
      call.file.readUInt32BE(0) === 0x1a45dfa3 && call.file.length > 2000 ? SAID : "",
    );
    llm = await startScriptedCompletions(() => REPLY);
  }, 120_000);

  afterAll(async () => {
    await stt?.close();
    await llm?.close();
    if (wavPath) fs.rmSync(path.dirname(wavPath), { recursive: true, force: true });
  });

  const suite = useBrowserSuite({
    env: () => ({
      LLM_PROVIDER: "openai",
      LLM_BASE_URL: `${llm?.baseUrl}`,
      LLM_MODEL: "scripted",
      TTS_PROVIDER: "espeak",
      STT_BASE_URL: `${stt?.url}/v1`,
    }),
    browserArgs: () => [
      "--use-fake-ui-for-media-stream",
      "--use-fake-device-for-media-stream",
      `--use-file-for-fake-audio-capture=${wavPath}`,
    ],
  });

  it("speak, silence, the message is sent, the reply's audio plays, listening resumes", async () => {
    if (!stt) throw new Error("setup failed");
    const { server, browser } = suite;
    const { page } = await signedInPage(browser, server.url, DESKTOP);
    await recordAudio(page);
    const [character] = await ensureCharacters(page, 1);
    if (!character) throw new Error("no character");
    await openChat(page, server.url, character.characterUUID);

    await page.getByRole("button", { name: "Chat menu" }).click();
    await page.getByRole("button", { name: "Settings" }).click();
    const dialog = page.getByRole("dialog", { name: "Settings" });
    await dialog.getByRole("switch", { name: "Voice chat" }).check();
    await dialog.getByRole("switch", { name: "Speech recognition on the server" }).check();
    await dialog.getByLabel("Silence duration").selectOption("1000");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "hidden" });

    const mic = page.getByRole("button", { name: "Microphone" });
    await mic.click();
    // The greeting spoken on opening is not the reply: only audio from here on counts.
    await page.evaluate(() => {
      (window as unknown as { __audio: Played }).__audio.length = 0;
    });
    const status = page.getByRole("status").filter({ hasText: /Listening…|Transcribing…/ });
    await status.waitFor({ timeout: 15_000 });
    expect(await page.getByRole("button", { name: "Stop listening" }).getAttribute("aria-pressed")).toBe(
      "true",
    );
    // The waveform draws the microphone's level: speech makes it move.
    const waveform = page.getByRole("img", { name: "Recording level" });
    await expect
      .poll(async () => Number((await waveform.getAttribute("data-level")) ?? 0), {
        timeout: 15_000,
        interval: 50,
      })
      .toBeGreaterThan(5);

    const log = page.getByRole("log", { name: "Messages" });
    await log
      .getByRole("article", { name: "Your message" })
      .filter({ hasText: SAID })
      .waitFor({ timeout: 30_000 });
    expect(stt.calls.length).toBeGreaterThan(0);
    expect(stt.calls[0]?.filename).toBe("speech.webm");

    const reply = log.getByRole("article", { name: `Reply from ${character.characterName}` }).filter({
      hasText: REPLY,
    });
    await reply.waitFor({ timeout: 30_000 });
    // The reply's audio (an MP3 under /content/voice/) starts playing by itself.
    await expect
      .poll(
        async () =>
          (await played(page)).some((p) => p.event === "playing" && /\/content\/voice\/.+\.mp3$/.test(p.src)),
        {
          timeout: 15_000,
        },
      )
      .toBe(true);
    await reply
      .getByRole("button", { name: `Play ${character.characterName}'s reply` })
      .or(reply.getByRole("button", { name: `Stop ${character.characterName}'s reply` }))
      .waitFor();

    // When it has ended, listening resumes by itself 1 s later (product.md §4, 9).
    await expect
      .poll(async () => (await played(page)).some((p) => p.event === "ended"), { timeout: 20_000 })
      .toBe(true);
    const ended = (await played(page)).find((p) => p.event === "ended")!.at;
    await page.waitForFunction(
      () => [...document.querySelectorAll('[role="status"]')].some((e) => e.textContent === "Listening…"),
      undefined,
      { timeout: 15_000, polling: 20 },
    );
    const resumedAt = await page.evaluate(() => performance.now());
    expect(resumedAt - ended).toBeGreaterThanOrEqual(1000);
    await page.screenshot({ path: "test-results/voice-chat.png" });

    // The button stops the loop.
    await page.getByRole("button", { name: "Stop listening" }).click();
    await page.getByRole("button", { name: "Microphone" }).waitFor();
    await closePage(page);
  }, 120_000);

  it("the character form's voice preview: stop image while the sample loads and plays, play again at its end", async () => {
    const { server, browser } = suite;
    const { page } = await signedInPage(browser, server.url, DESKTOP);
    await recordAudio(page);
    await page.goto(`${server.url}/characters/add`);
    await page.getByRole("combobox", { name: /^Voice/ }).selectOption("Spanish Male");
    await page.getByRole("button", { name: "Play voice preview" }).click();
    await page.getByRole("button", { name: "Stop voice preview" }).waitFor();
    await expect
      .poll(async () => (await played(page)).find((p) => p.event === "playing")?.src ?? "", {
        timeout: 15_000,
      })
      .toMatch(/\/content\/voice\/[0-9a-f]{40}\.mp3$/);
    // Still the stop image while it plays; play again once it has ended.
    expect(await page.getByRole("button", { name: "Stop voice preview" }).count()).toBe(1);
    await expect
      .poll(async () => (await played(page)).some((p) => p.event === "ended"), { timeout: 20_000 })
      .toBe(true);
    await page.getByRole("button", { name: "Play voice preview" }).waitFor();
    await closePage(page);
  }, 60_000);

  it("the browser's own recognition: silence ends it, censored words come in full, nothing heard sends 'listening'", async () => {
    const { server, browser } = suite;
    const { page } = await signedInPage(browser, server.url, DESKTOP);
    // Chromium's recogniser needs Google's online service, which a test cannot reach: a stand-in
    // with the Web Speech API's shape hears a censored sentence once, then nothing (no-speech).
    await page.addInitScript(() => {
      const w = window as unknown as Record<string, unknown> & { __heardAt: number[]; __sentAt: number[] };
      w.__heardAt = [];
      w.__sentAt = [];
      const realFetch = window.fetch.bind(window);
      window.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
        if (String(input instanceof Request ? input.url : input).includes("/api/chat/message"))
          w.__sentAt.push(performance.now());
        return realFetch(input, init);
      };
      let sessions = 0;
      class FakeRecognition {
        lang = "";
        onresult: ((e: unknown) => void) | null = null;
        onerror: ((e: { error: string }) => void) | null = null;
        onend: (() => void) | null = null;
        start() {
          sessions += 1;
          const first = sessions === 1;
          setTimeout(() => {
            if (first) {
              w.__heardAt.push(performance.now());
              const result = Object.assign([{ transcript: "what the f**k is this" }], { isFinal: true });
              this.onresult?.({ resultIndex: 0, results: [result] });
            } else {
              this.onerror?.({ error: "no-speech" });
              this.onend?.();
            }
          }, 300);
        }
        stop() {
          setTimeout(() => this.onend?.(), 10);
        }
        abort() {}
      }
      w.SpeechRecognition = FakeRecognition;
      w.webkitSpeechRecognition = FakeRecognition;
    });
    const [character] = await ensureCharacters(page, 1);
    if (!character) throw new Error("no character");
    await openChat(page, server.url, character.characterUUID);
    await page.getByRole("button", { name: "Chat menu" }).click();
    await page.getByRole("button", { name: "Settings" }).click();
    const dialog = page.getByRole("dialog", { name: "Settings" });
    await dialog.getByRole("switch", { name: "Voice chat" }).check();
    await dialog.getByLabel("Silence duration").selectOption("1000");
    await dialog.getByRole("button", { name: "Save" }).click();
    await dialog.waitFor({ state: "hidden" });
    const sendsBefore = stt?.calls.length ?? 0;

    await page.getByRole("button", { name: "Microphone" }).click();
    const log = page.getByRole("log", { name: "Messages" });
    const mine = log.getByRole("article", { name: "Your message" });
    await mine.filter({ hasText: "what the fuck is this" }).waitFor({ timeout: 15_000 });
    // Sent only after the Settings silence (1 s) without new words.
    const { heard, sent } = await page.evaluate(() => {
      const w = window as unknown as { __heardAt: number[]; __sentAt: number[] };
      return { heard: w.__heardAt[0]!, sent: w.__sentAt[0]! };
    });
    expect(sent - heard).toBeGreaterThanOrEqual(1000);
    expect(sent - heard).toBeLessThan(2500);
    // Voice chat goes on: the next turn hears nothing and sends the placeholder.
    await mine
      .filter({ hasText: /^listening/ })
      .first()
      .waitFor({ timeout: 30_000 });
    // The server's transcription was not used on this path.
    expect(stt?.calls.length).toBe(sendsBefore);
    await page.getByRole("button", { name: "Stop listening" }).click();
    await closePage(page);
  }, 90_000);
});
