import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CharacterListItem } from "../common/api";
import { startScriptedCompletions } from "../server/testing/completions-server";
import { callApi, DESKTOP, ensureCharacters, openChat, PHONE, signedInPage } from "./chat.helpers";
import { closePage, hasChromium } from "./support/browser";
import { useBrowserSuite } from "./support/suite";

/**
 * In Chromium, on a phone and a desktop: the greeting spoken through the
 * audio-message call, Settings that do something real (Bluetooth output, screen wake, system
 * notifications), the mobile-wrapper listening bridge with the voice-chat cue 300 ms after
 * listening starts and the notice sound 1000 ms after a reply (the page's clock, not sleeps).
 * Browser APIs a test cannot drive (output devices, Wake Lock, Notification, the wrapper, Web
 * Audio) are init-script stand-ins that record what the SPA asks of them.
 */
const REPLY = "I am doing great, thank you for asking.";
/** Asked for with "story": four sentences, streamed slowly, each spoken as soon as it ends. */
const STORY =
  "Once upon a time a little red fox lived at the edge of a quiet forest. Every morning she ran down to the river to drink the cold clear water. One day she met an old turtle who told her long stories about the sea. From then on the fox dreamed of the waves every single night.";
const lastWords = (request: { messages?: Array<{ content?: unknown }> }) =>
  String(request.messages?.at(-1)?.content ?? "");
const SIZES = [
  ["desktop", DESKTOP],
  ["phone", PHONE],
] as const;

type Played = Array<{ src: string; event: string }>;

/** Records, in the page, every audio element that starts playing or ends. */
async function recordAudio(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const log: Array<{ src: string; event: string }> = [];
    (window as unknown as { __audio: typeof log }).__audio = log;
    const play = HTMLMediaElement.prototype.play;
    const watched = new WeakSet<HTMLMediaElement>();
    HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
      if (!watched.has(this)) {
        watched.add(this);
        for (const event of ["playing", "ended"]) {
          this.addEventListener(event, () => log.push({ src: this.src, event }));
        }
      }
      return play.call(this);
    };
  });
}

const played = (page: Page) => page.evaluate(() => (window as unknown as { __audio: Played }).__audio);

/** Every audio-message call of the page (form fields) and its answers. */
function watchAudioMessages(page: Page) {
  const calls: Array<Record<string, string>> = [];
  const answers: Array<{ success?: number; audioUrl?: string }> = [];
  page.on("request", (request) => {
    if (request.url().endsWith("/api/chat/audio-message"))
      calls.push(Object.fromEntries(new URLSearchParams(request.postData() ?? "")));
  });
  page.on("response", (response) => {
    if (response.url().endsWith("/api/chat/audio-message")) void response.json().then((a) => answers.push(a));
  });
  return { calls, answers };
}

async function openSettings(page: Page) {
  await page.getByRole("button", { name: "Chat menu" }).click();
  await page.getByRole("button", { name: "Settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.waitFor();
  return dialog;
}

async function saveSettings(page: Page) {
  const dialog = page.getByRole("dialog", { name: "Settings" });
  await dialog.getByRole("button", { name: "Save" }).click();
  await dialog.waitFor({ state: "hidden" });
  // "Settings saved!" sits over the phone's chat menu for a few seconds, and a pointer resting on
  // a toast keeps it open: the pointer leaves, and the next step waits for the toast to go.
  await page.mouse.move(1, 1);
  await expect.poll(() => page.locator("[data-sonner-toast]").count(), { timeout: 15_000 }).toBe(0);
}

/** The greeting's bubble (the first reply) of `character`. */
const greetingBubble = (page: Page, character: CharacterListItem) =>
  page
    .getByRole("log", { name: "Messages" })
    .getByRole("article", { name: `Reply from ${character.characterName}` })
    .first();

/** A round trip through the page: what the SPA was about to ask has been asked. */
const settle = (page: Page) => callApi(page, "GET", "/api/characters/list/chat");

/** Clicks Stop unless the audio has ended by itself meanwhile. */
async function stopIfPlaying(stop: ReturnType<Page["getByRole"]>) {
  await stop.click({ timeout: 2000 }).catch(() => {});
}

/** Sends `text` once the previous send is over (Enter does nothing while a send is in flight). */
async function send(page: Page, text: string) {
  const box = page.getByRole("textbox", { name: "Type a message" });
  await box.fill(text);
  await expect
    .poll(
      async () => {
        if ((await box.inputValue()) !== "") await box.press("Enter");
        return box.inputValue();
      },
      { timeout: 30_000 },
    )
    .toBe("");
}

describe.skipIf(!hasChromium)("voice features", () => {
  let llm: Awaited<ReturnType<typeof startScriptedCompletions>> | undefined;
  beforeAll(async () => {
    llm = await startScriptedCompletions(
      (request) => (lastWords(request).includes("story") ? STORY : REPLY),
      {
        tokenDelayMs: (request) => (lastWords(request).includes("story") ? 60 : 0),
      },
    );
  });
  afterAll(async () => {
    await llm?.close();
  });
  const suite = useBrowserSuite({
    env: () => ({
      LLM_PROVIDER: "openai",
      LLM_BASE_URL: `${llm?.baseUrl}`,
      LLM_MODEL: "scripted",
      TTS_PROVIDER: "espeak",
    }),
  });

  for (const [label, viewport] of SIZES) {
    it(`${label}: a new chat's greeting is spoken once through the audio-message call; reopened, it only has its play button`, async () => {
      const { server, browser } = suite;
      const { page } = await signedInPage(browser, server.url, viewport);
      await recordAudio(page);
      const { calls, answers } = watchAudioMessages(page);
      // On the phone with voice chat on: the greeting is spoken there too.
      if (label === "phone")
        await page.evaluate(() =>
          localStorage.setItem("chatSettings", JSON.stringify({ enableVoiceChat: true })),
        );
      const [character] = await ensureCharacters(page, 1);
      if (!character) throw new Error("no character");
      await openChat(page, server.url, character.characterUUID);

      await expect.poll(() => calls.length, { timeout: 20_000 }).toBe(1);
      expect(calls[0]).toMatchObject({
        is_greeting: "1",
        id: character.characterUUID,
        characterId: character.characterUUID,
        mute: "0",
      });
      await expect.poll(() => answers.length, { timeout: 20_000 }).toBe(1);
      const audioUrl = answers[0]?.audioUrl ?? "";
      expect(audioUrl).toMatch(/\/content\/voice\/.+\.mp3$/);
      // The returned audio plays by itself; the greeting's bubble has its button meanwhile.
      await expect
        .poll(
          async () => (await played(page)).some((p) => p.event === "playing" && p.src.endsWith(audioUrl)),
          {
            timeout: 20_000,
          },
        )
        .toBe(true);
      const greeting = greetingBubble(page, character);
      await greeting
        .getByRole("button", { name: `Stop ${character.characterName}'s reply` })
        .or(greeting.getByRole("button", { name: `Play ${character.characterName}'s reply` }))
        .waitFor();
      await settle(page);
      expect(calls.length).toBe(1);

      // Reopened: the greeting has its audio now; it is not asked for or played again.
      await page.reload();
      await greeting.getByRole("button", { name: `Play ${character.characterName}'s reply` }).waitFor();
      await settle(page);
      expect(calls.length).toBe(1);
      expect(await played(page)).toEqual([]);
      await closePage(page);
    }, 90_000);
  }

  it("a group's greeting is asked for with the group's id and the member's characterId", async () => {
    const { server, browser } = suite;
    const { page } = await signedInPage(browser, server.url, DESKTOP);
    const { calls } = watchAudioMessages(page);
    const [character] = await ensureCharacters(page, 1);
    if (!character) throw new Error("no character");
    await openChat(page, server.url, character.characterUUID);
    await expect.poll(() => calls.length, { timeout: 20_000 }).toBe(1);
    await page.getByRole("button", { name: "Chat menu" }).click();
    await page.getByRole("button", { name: "Start Group" }).click();
    await expect.poll(() => calls.length, { timeout: 20_000 }).toBe(2);
    expect(calls[1]).toMatchObject({ is_greeting: "1", characterId: character.characterUUID, mute: "0" });
    expect(calls[1]?.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(calls[1]?.id).not.toBe(character.characterUUID);
    await settle(page);
    expect(calls.length).toBe(2);
    await closePage(page);
  }, 60_000);

  it("a greeting's audio that arrives after the user has sent something is not played (the bubble gets its button)", async () => {
    const { server, browser } = suite;
    const { page } = await signedInPage(browser, server.url, DESKTOP);
    await recordAudio(page);
    // The greeting's audio-message answer is held until the user has sent a message.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let greetingUrl = "";
    await page.route("**/api/chat/audio-message", async (route) => {
      const response = await route.fetch();
      const answer = (await response.json()) as { audioUrl?: string };
      greetingUrl = answer.audioUrl ?? "";
      await held;
      await route.fulfill({ response, json: answer });
    });
    const [character] = await ensureCharacters(page, 1);
    if (!character) throw new Error("no character");
    await openChat(page, server.url, character.characterUUID);
    await expect.poll(() => greetingUrl, { timeout: 20_000 }).toMatch(/\/content\/voice\/.+\.mp3$/);
    await send(page, "hi there");
    await page
      .getByRole("log", { name: "Messages" })
      .getByRole("article", { name: "Your message" })
      .filter({ hasText: "hi there" })
      .waitFor();
    release();
    const greeting = greetingBubble(page, character);
    await greeting
      .getByRole("button", { name: `Play ${character.characterName}'s reply` })
      .waitFor({ timeout: 20_000 });
    await settle(page);
    expect((await played(page)).filter((p) => p.src.endsWith(greetingUrl))).toEqual([]);
    await closePage(page);
  }, 60_000);

  it("a muted voice speaks no greeting (no audio-message call)", async () => {
    const { server, browser } = suite;
    const { page } = await signedInPage(browser, server.url, DESKTOP);
    const { calls } = watchAudioMessages(page);
    await page.evaluate(() => localStorage.setItem("chatSettings", JSON.stringify({ muteVoice: true })));
    const [character] = await ensureCharacters(page, 1);
    if (!character) throw new Error("no character");
    await openChat(page, server.url, character.characterUUID);
    await greetingBubble(page, character).waitFor();
    await settle(page);
    expect(calls.length).toBe(0);
    await closePage(page);
  }, 60_000);

  for (const [label, viewport] of SIZES) {
    it(`${label}: Bluetooth sends the chat's audio to the chosen output (setSinkId); hidden where the browser cannot`, async () => {
      const { server, browser } = suite;
      const { page } = await signedInPage(browser, server.url, viewport);
      await page.addInitScript(() => {
        const w = window as unknown as { __sinks: Array<{ src: string; id: string }> };
        w.__sinks = [];
        const outputs = [
          { kind: "audiooutput", deviceId: "default", label: "Default", groupId: "a" },
          { kind: "audiooutput", deviceId: "speakers", label: "Built-in speakers", groupId: "b" },
          { kind: "audiooutput", deviceId: "bt-headset", label: "Headset (Bluetooth)", groupId: "c" },
        ];
        navigator.mediaDevices.enumerateDevices = async () => outputs as unknown as MediaDeviceInfo[];
        HTMLMediaElement.prototype.setSinkId = function (this: HTMLMediaElement, id: string) {
          w.__sinks.push({ src: this.src, id });
          return Promise.resolve();
        };
      });
      const sinks = () =>
        page.evaluate(() => (window as unknown as { __sinks: Array<{ src: string; id: string }> }).__sinks);
      const [character] = await ensureCharacters(page, 1);
      if (!character) throw new Error("no character");
      await openChat(page, server.url, character.characterUUID);
      const greeting = greetingBubble(page, character);
      const play = greeting.getByRole("button", { name: `Play ${character.characterName}'s reply` });
      const stop = greeting.getByRole("button", { name: `Stop ${character.characterName}'s reply` });
      await play.or(stop).waitFor({ timeout: 20_000 });
      await stopIfPlaying(stop);
      await play.waitFor();

      let dialog = await openSettings(page);
      await dialog.getByRole("switch", { name: "Bluetooth" }).check();
      const output = dialog.getByRole("combobox", { name: "Audio output" });
      // The Bluetooth-looking output is chosen; the others can be picked.
      expect(await output.inputValue()).toBe("bt-headset");
      expect(await output.locator("option").allTextContents()).toEqual([
        "System default",
        "Built-in speakers",
        "Headset (Bluetooth)",
      ]);
      await saveSettings(page);

      await play.click();
      await expect
        .poll(
          async () => (await sinks()).some((s) => s.id === "bt-headset" && /\/content\/voice\//.test(s.src)),
          {
            timeout: 10_000,
          },
        )
        .toBe(true);
      await stopIfPlaying(stop);

      // Off: the next audio plays on the system default (no output is set).
      dialog = await openSettings(page);
      await dialog.getByRole("switch", { name: "Bluetooth" }).uncheck();
      expect(await dialog.getByRole("combobox", { name: "Audio output" }).count()).toBe(0);
      await saveSettings(page);
      const before = (await sinks()).filter((s) => s.id === "bt-headset").length;
      await play.click();
      await stop.waitFor();
      expect((await sinks()).filter((s) => s.id === "bt-headset").length).toBe(before);
      await stopIfPlaying(stop);
      await closePage(page);

      // A browser without setSinkId: no Bluetooth toggle (the system decides the output).
      const other = await signedInPage(browser, server.url, viewport);
      await other.page.addInitScript(() => {
        delete (HTMLMediaElement.prototype as { setSinkId?: unknown }).setSinkId;
      });
      await openChat(other.page, server.url, (await ensureCharacters(other.page, 1))[0]!.characterUUID);
      dialog = await openSettings(other.page);
      await dialog.getByRole("switch", { name: "Dark mode" }).waitFor();
      expect(await dialog.getByRole("switch", { name: "Bluetooth" }).count()).toBe(0);
      await closePage(other.page);
    }, 120_000);
  }

  for (const [label, viewport] of SIZES) {
    it(`${label}: screen wake holds a Wake Lock while on and releases it when off; hidden without the API`, async () => {
      const { server, browser } = suite;
      const { page } = await signedInPage(browser, server.url, viewport);
      await page.addInitScript(() => {
        const w = window as unknown as { __wake: string[] };
        w.__wake = [];
        const wakeLock = {
          request: async (type: string) => {
            w.__wake.push(`request:${type}`);
            const sentinel = {
              type,
              released: false,
              release: async () => {
                sentinel.released = true;
                w.__wake.push("release");
              },
              addEventListener() {},
              removeEventListener() {},
            };
            return sentinel;
          },
        };
        Object.defineProperty(Navigator.prototype, "wakeLock", { get: () => wakeLock, configurable: true });
      });
      const wake = () => page.evaluate(() => (window as unknown as { __wake: string[] }).__wake);
      const [character] = await ensureCharacters(page, 1);
      if (!character) throw new Error("no character");
      await openChat(page, server.url, character.characterUUID);
      await settle(page);
      expect(await wake()).toEqual([]);

      let dialog = await openSettings(page);
      await dialog.getByRole("switch", { name: "Screen wake" }).check();
      await saveSettings(page);
      await expect.poll(wake, { timeout: 10_000 }).toEqual(["request:screen"]);

      dialog = await openSettings(page);
      await dialog.getByRole("switch", { name: "Screen wake" }).uncheck();
      await saveSettings(page);
      await expect.poll(wake, { timeout: 10_000 }).toEqual(["request:screen", "release"]);
      await closePage(page);

      const other = await signedInPage(browser, server.url, viewport);
      await other.page.addInitScript(() => {
        delete (Navigator.prototype as { wakeLock?: unknown }).wakeLock;
      });
      await openChat(other.page, server.url, (await ensureCharacters(other.page, 1))[0]!.characterUUID);
      dialog = await openSettings(other.page);
      await dialog.getByRole("switch", { name: "Dark mode" }).waitFor();
      expect(await dialog.getByRole("switch", { name: "Screen wake" }).count()).toBe(0);
      await closePage(other.page);
    }, 90_000);
  }

  /** A stand-in Notification recording what is shown, and a visibility the test sets. */
  async function fakeNotifications(page: Page, grant: "granted" | "denied") {
    await page.addInitScript((answer) => {
      const w = window as unknown as {
        __notes: Array<{ title: string; body: string }>;
        __asked: number;
        __hidden: boolean;
      };
      w.__notes = [];
      w.__asked = 0;
      w.__hidden = false;
      class FakeNotification {
        static permission = "default";
        static async requestPermission() {
          w.__asked += 1;
          FakeNotification.permission = answer;
          return answer;
        }
        constructor(title: string, options?: { body?: string }) {
          w.__notes.push({ title, body: options?.body ?? "" });
        }
      }
      Object.defineProperty(window, "Notification", {
        value: FakeNotification,
        configurable: true,
        writable: true,
      });
      Object.defineProperty(Document.prototype, "visibilityState", {
        get: () => (w.__hidden ? "hidden" : "visible"),
        configurable: true,
      });
    }, grant);
  }
  const notes = (page: Page) =>
    page.evaluate(() => (window as unknown as { __notes: Array<{ title: string; body: string }> }).__notes);
  const asked = (page: Page) => page.evaluate(() => (window as unknown as { __asked: number }).__asked);
  const hide = (page: Page) =>
    page.evaluate(() => {
      (window as unknown as { __hidden: boolean }).__hidden = true;
    });

  for (const [label, viewport] of SIZES) {
    it(`${label}: notifications ask permission when turned on; a reply while the tab is hidden shows one`, async () => {
      const { server, browser } = suite;
      const { page } = await signedInPage(browser, server.url, viewport);
      await fakeNotifications(page, "granted");
      const [character] = await ensureCharacters(page, 1);
      if (!character) throw new Error("no character");
      await openChat(page, server.url, character.characterUUID);
      await greetingBubble(page, character).waitFor();
      expect(await asked(page)).toBe(0);

      const dialog = await openSettings(page);
      const toggle = dialog.getByRole("switch", { name: "Notifications" });
      await toggle.uncheck();
      await toggle.check();
      await expect.poll(() => asked(page)).toBe(1);
      await saveSettings(page);

      const replies = page
        .getByRole("log", { name: "Messages" })
        .getByRole("article", { name: `Reply from ${character.characterName}` });
      // A visible tab: the notice sound only.
      await send(page, "Hello there");
      // Finished (the newest finished reply has Continue), not only written out.
      await replies
        .filter({ hasText: REPLY })
        .getByRole("button", { name: "Continue" })
        .waitFor({ timeout: 30_000 });
      await settle(page);
      expect(await notes(page)).toEqual([]);

      await hide(page);
      await send(page, "Are you still there?");
      await page
        .getByRole("log", { name: "Messages" })
        .getByRole("article", { name: "Your message" })
        .filter({ hasText: "Are you still there?" })
        .waitFor();
      await expect.poll(() => replies.filter({ hasText: REPLY }).count(), { timeout: 30_000 }).toBe(2);
      await expect
        .poll(() => notes(page), { timeout: 10_000 })
        .toEqual([{ title: character.characterName, body: REPLY }]);
      await closePage(page);
    }, 120_000);
  }

  it("notifications refused by the browser: the setting says so and no notification is shown", async () => {
    const { server, browser } = suite;
    const { page } = await signedInPage(browser, server.url, DESKTOP);
    await fakeNotifications(page, "denied");
    const [character] = await ensureCharacters(page, 1);
    if (!character) throw new Error("no character");
    await openChat(page, server.url, character.characterUUID);
    const dialog = await openSettings(page);
    const toggle = dialog.getByRole("switch", { name: "Notifications" });
    await toggle.uncheck();
    await toggle.check();
    await dialog
      .getByText("The browser blocks notifications for this site: only the notice sound plays.")
      .waitFor();
    await saveSettings(page);
    await hide(page);
    await send(page, "Hello there");
    const replies = page
      .getByRole("log", { name: "Messages" })
      .getByRole("article", { name: `Reply from ${character.characterName}` });
    await replies
      .filter({ hasText: REPLY })
      .getByRole("button", { name: "Continue" })
      .waitFor({ timeout: 30_000 });
    await settle(page);
    expect(await notes(page)).toEqual([]);
    await closePage(page);
  }, 90_000);

  for (const [label, viewport] of SIZES) {
    it(`${label}: a reply spoken sentence by sentence shows Stop while any sentence plays or waits; Stop ends the whole queue`, async () => {
      const { server, browser } = suite;
      const { page } = await signedInPage(browser, server.url, viewport);
      await recordAudio(page);
      await page.addInitScript(() => {
        const w = window as unknown as { __elements: HTMLMediaElement[] };
        w.__elements = [];
        const play = HTMLMediaElement.prototype.play;
        HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
          if (!w.__elements.includes(this)) w.__elements.push(this);
          return play.call(this);
        };
      });
      const [character] = await ensureCharacters(page, 1);
      if (!character) throw new Error("no character");
      await openChat(page, server.url, character.characterUUID);
      await send(page, "Tell me a story please");
      const reply = page
        .getByRole("log", { name: "Messages" })
        .getByRole("article", { name: `Reply from ${character.characterName}` })
        .filter({ hasText: "From then on the fox" });
      await reply.getByRole("button", { name: "Continue" }).waitFor({ timeout: 60_000 });
      const stop = reply.getByRole("button", { name: `Stop ${character.characterName}'s reply` });
      const play = reply.getByRole("button", { name: `Play ${character.characterName}'s reply` });
      // The reply is finished, its sentences still play one after another: its button says Stop.
      await stop.waitFor({ timeout: 10_000 });
      const whole = (await stop.getAttribute("data-audio-url")) ?? "";
      expect(whole).toMatch(/\/content\/voice\/.+\.mp3$/);
      // Never the whole reply's file so far: Stop stands for the sentences of the queue.
      expect((await played(page)).some((p) => p.src.endsWith(whole))).toBe(false);

      await stop.click();
      await play.waitFor();
      expect(
        await page.evaluate(() =>
          (window as unknown as { __elements: HTMLMediaElement[] }).__elements.every((e) => e.paused),
        ),
      ).toBe(true);
      // Nothing of the queue goes on: the next audio to play is the whole reply, on request.
      const before = (await played(page)).filter((p) => p.event === "playing").length;
      await play.click();
      await expect
        .poll(async () => (await played(page)).filter((p) => p.event === "playing").slice(before), {
          timeout: 15_000,
        })
        .not.toEqual([]);
      const next = (await played(page)).filter((p) => p.event === "playing")[before]!;
      expect(next.src.endsWith(whole)).toBe(true);
      await stop.click();
      await closePage(page);
    }, 120_000);
  }

  for (const [label, viewport] of SIZES) {
    it(`${label}: inside the mobile wrapper voice chat listens through its bridge; cue at 300 ms, notice sound at 1000 ms, listening resumes`, async () => {
      const { server, browser } = suite;
      const { page } = await signedInPage(browser, server.url, viewport);
      await page.addInitScript(() => {
        const w = window as unknown as {
          __bridge: Array<{ type: string; at: number; language?: string; silenceMs?: number }>;
          __tones: Array<{ frequency: number; at: number }>;
          CompanionBridge: { postMessage(message: string): void };
        };
        w.__bridge = [];
        w.__tones = [];
        // The wrapper: hears a sentence the first time, nothing the second.
        w.CompanionBridge = {
          postMessage(message: string) {
            const parsed = JSON.parse(message) as { type: string };
            w.__bridge.push({ ...parsed, at: Date.now() });
            if (parsed.type !== "startListening") return;
            const turn = w.__bridge.filter((m) => m.type === "startListening").length;
            setTimeout(() => {
              window.postMessage({ type: "companion:speaking" }, "*");
              window.postMessage(
                JSON.stringify({
                  type: "companion:transcript",
                  text: turn === 1 ? "Hello from the app" : "",
                }),
                "*",
              );
            }, 500);
          },
        };
        // Web Audio: each tone's first frequency and when it starts (page clock).
        class FakeContext {
          currentTime = 0;
          destination = {};
          createOscillator() {
            let frequency = 0;
            return {
              type: "",
              frequency: {
                setValueAtTime(value: number) {
                  frequency = value;
                },
                exponentialRampToValueAtTime() {},
              },
              connect: (node: unknown) => node,
              start: () => w.__tones.push({ frequency, at: Date.now() }),
              stop() {},
            };
          }
          createGain() {
            return {
              gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} },
              connect: (n: unknown) => n,
            };
          }
        }
        Object.defineProperty(window, "AudioContext", {
          value: FakeContext,
          configurable: true,
          writable: true,
        });
      });
      await page.clock.install();
      const bridge = () =>
        page.evaluate(
          () =>
            (window as unknown as { __bridge: Array<{ type: string; at: number; silenceMs?: number }> })
              .__bridge,
        );
      const tones = (frequency: number) =>
        page.evaluate(
          (f) =>
            (window as unknown as { __tones: Array<{ frequency: number; at: number }> }).__tones.filter(
              (t) => t.frequency === f,
            ),
          frequency,
        );
      const starts = async () => (await bridge()).filter((m) => m.type === "startListening");
      // Voice chat on; muted, so no reply audio is awaited; notifications on (the default).
      await page.evaluate(() =>
        localStorage.setItem(
          "chatSettings",
          JSON.stringify({ enableVoiceChat: true, muteVoice: true, silenceDuration: 3000 }),
        ),
      );
      const [character] = await ensureCharacters(page, 1);
      if (!character) throw new Error("no character");
      await openChat(page, server.url, character.characterUUID);
      await greetingBubble(page, character).waitFor();
      const mic = page.getByRole("button", { name: "Microphone" });
      expect(await mic.isEnabled()).toBe(true);

      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
      await mic.click();
      await expect.poll(starts).toHaveLength(1);
      const [first] = await starts();
      expect(first).toMatchObject({ language: expect.any(String), silenceMs: 3000 });
      // product.md §4, 9: the cue 300 ms after listening starts, not at 299 ms.
      await page.clock.runFor(299);
      expect(await tones(660)).toEqual([]);
      await page.clock.runFor(1);
      await expect.poll(() => tones(660)).toEqual([{ frequency: 660, at: first!.at + 300 }]);

      // The wrapper's transcript is sent as the message.
      await page.clock.runFor(200);
      const log = page.getByRole("log", { name: "Messages" });
      await log
        .getByRole("article", { name: "Your message" })
        .filter({ hasText: "Hello from the app" })
        .waitFor({ timeout: 15_000 });
      await log
        .getByRole("article", { name: `Reply from ${character.characterName}` })
        .filter({ hasText: REPLY })
        .waitFor({ timeout: 30_000 });
      await page.getByRole("banner").getByText("online", { exact: true }).waitFor({ timeout: 30_000 });
      const repliedAt = await page.evaluate(() => Date.now());
      // product.md §4, 9: the notice sound 1000 ms after the reply, not at 999 ms.
      await page.clock.runFor(999);
      expect(await tones(880)).toEqual([]);
      await page.clock.runFor(1);
      await expect.poll(() => tones(880)).toEqual([{ frequency: 880, at: repliedAt + 1000 }]);

      // Listening resumes through the wrapper about 1 s after the reply, the cue 300 ms later.
      await page.clock.runFor(100);
      await expect.poll(starts).toHaveLength(2);
      const second = (await starts())[1]!;
      expect(second.at - repliedAt).toBeGreaterThanOrEqual(1000);
      expect(second.at - repliedAt).toBeLessThanOrEqual(1100);
      await page.clock.runFor(second.at + 299 - (await page.evaluate(() => Date.now())));
      expect(await tones(660)).toHaveLength(1);
      await page.clock.runFor(1);
      await expect.poll(() => tones(660)).toHaveLength(2);

      // The button stops the loop: the wrapper is told to stop listening.
      await page.getByRole("button", { name: "Stop listening" }).click();
      await expect.poll(async () => (await bridge()).some((m) => m.type === "stopListening")).toBe(true);
      await page.clock.resume();
      await closePage(page);
    }, 120_000);
  }
});
