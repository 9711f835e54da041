// The chat's one audio player (product.md §4 "Audio"): one reply at a time, sentence queues, autoplay retries, Apple rules.
import { AUDIO_RETRY_COUNT, AUDIO_RETRY_DELAY_MS } from "../../common/speech";
import { isAppleDevice } from "./device";

/**
 * The one audio player of the chat (product.md §4 "Audio"): only one reply plays at a time; playing
 * another stops the first; a failed autoplay is retried 3 times 500 ms apart (product.md §8, 9);
 * Apple systems get no autoplay (their native control plays on tap). Replies split into spoken
 * sentences play as a queue. Components follow `currentUrl` through `subscribe`.
 *
 * Every URL may carry an `owner`: the chatHistoryUUID of the reply it speaks. A reply
 * whose sentences are playing or queued is `busy`, so its one button shows Stop meanwhile and
 * stopping it stops the whole queue. Without an owner a URL is its own owner (as before).
 */

type Listener = () => void;

interface Track {
  url: string;
  /** The reply (chatHistoryUUID) the audio speaks, or "" when unknown. */
  owner: string;
}

/** Minimal view of `HTMLMediaElement.setSinkId` (not in every browser nor every TS lib). */
type SinkElement = HTMLAudioElement & { setSinkId?: (id: string) => Promise<void> };

let element: HTMLAudioElement | null = null;
let current: Track = { url: "", owner: "" };
let queue: Track[] = [];
let generation = 0;
let sinkId = "";
const listeners = new Set<Listener>();
const idleWaiters = new Set<() => void>();

function notify() {
  for (const listener of listeners) listener();
  if (!current.url) {
    for (const resolve of idleWaiters) resolve();
    idleWaiters.clear();
  }
}

const wait = (ms: number) => new Promise<void>((resolve) => window.setTimeout(resolve, ms));

/** Sends `audio` to the chosen output (Settings 'Bluetooth'); a refusal is logged, never thrown. */
function routeOutput(audio: HTMLAudioElement): void {
  const sink = audio as SinkElement;
  if (typeof sink.setSinkId !== "function") return;
  if (!sinkId && !sink.sinkId) return;
  sink.setSinkId(sinkId).catch((error: unknown) => console.warn("audio: output not set", sinkId, error));
}

async function start(track: Track, run: number): Promise<void> {
  element?.pause();
  const audio = new Audio(track.url);
  routeOutput(audio);
  element = audio;
  current = track;
  notify();
  audio.addEventListener("ended", () => {
    if (run !== generation || element !== audio) return;
    const next = queue.shift();
    if (next) void start(next, run);
    else {
      current = { url: "", owner: "" };
      element = null;
      notify();
    }
  });
  for (let attempt = 0; attempt <= AUDIO_RETRY_COUNT; attempt += 1) {
    if (run !== generation) return;
    try {
      await audio.play();
      return;
    } catch (error) {
      // product.md §8: audio play failures are logged; autoplay is retried 3 times at 500 ms.
      console.error("audio: play failed", track.url, error);
      if (attempt < AUDIO_RETRY_COUNT) await wait(AUDIO_RETRY_DELAY_MS);
    }
  }
  if (run === generation && element === audio) {
    current = { url: "", owner: "" };
    element = null;
    queue = [];
    notify();
  }
}

const same = (track: Track, url: string, owner: string) =>
  track.url === url || (owner !== "" && track.owner === owner);

export const audioPlayer = {
  /** The URL playing now ("" when silent). */
  get currentUrl(): string {
    return current.url;
  },
  /** The owner (reply chatHistoryUUID) of what plays now ("" when silent or unknown). */
  get currentOwner(): string {
    return current.owner;
  },
  /**
   * Whether `url`, or any audio of reply `owner`, is playing now or waiting in the queue: the
   * reply's button then shows Stop.
   */
  isBusy(url: string, owner = ""): boolean {
    if (!current.url) return false;
    return same(current, url, owner) || queue.some((track) => same(track, url, owner));
  },
  /**
   * Plays `url`, stopping whatever played. Selecting the one playing (or any sentence of the
   * same `owner`, playing or queued) stops it and its whole queue (product.md §4).
   */
  toggle(url: string, owner = ""): void {
    if (this.isBusy(url, owner)) this.stop();
    else this.play([url], owner);
  },
  /** Plays the URLs one after another, stopping whatever played; all belong to `owner`. */
  play(urls: string[], owner = ""): void {
    generation += 1;
    queue = urls.slice(1).map((url) => ({ url, owner }));
    if (urls[0]) void start({ url: urls[0], owner }, generation);
  },
  /** Adds a URL (of reply `owner`) to the end of what plays now (a streamed reply's next sentence). */
  enqueue(url: string, owner = ""): void {
    if (!current.url) this.play([url], owner);
    else {
      queue.push({ url, owner });
      notify();
    }
  },
  /**
   * Autoplay of a reply: never on Apple systems (product.md §4). `append` queues it after what plays
   * (the next sentence of a streamed reply); `owner` is the reply's chatHistoryUUID, so its
   * button shows Stop while any of its sentences plays or waits (optional).
   */
  autoplay(url: string, append = false, owner = ""): void {
    if (isAppleDevice()) return;
    if (append) this.enqueue(url, owner);
    else this.play([url], owner);
  },
  /** Stops what plays and empties the queue. */
  stop(): void {
    generation += 1;
    queue = [];
    element?.pause();
    element = null;
    current = { url: "", owner: "" };
    notify();
  },
  /**
   * The audio output device (Settings 'Bluetooth', a `deviceId` of `enumerateDevices` or
   * `selectAudioOutput`); "" is the system default. Applies to what plays now and to every later
   * audio, where the browser has `HTMLMediaElement.setSinkId`.
   */
  setOutput(deviceId: string): void {
    if (deviceId === sinkId) return;
    sinkId = deviceId;
    if (element) routeOutput(element);
  },
  /** The output chosen with `setOutput` ("" the default). */
  get output(): string {
    return sinkId;
  },
  /** Resolves once nothing plays (at once when silent). */
  idle(): Promise<void> {
    if (!current.url) return Promise.resolve();
    return new Promise((resolve) => idleWaiters.add(resolve));
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
