import { AUDIO_RETRY_COUNT, AUDIO_RETRY_DELAY_MS } from "../../common/speech";
import { isAppleDevice } from "./device";

/**
 * The one audio player of the chat (spec 4 "Audio"): only one reply plays at a time; playing
 * another stops the first; a failed autoplay is retried 3 times 500 ms apart (spec 8, 9);
 * Apple systems get no autoplay (their native control plays on tap). Replies split into spoken
 * sentences play as a queue. Components follow `currentUrl` through `subscribe`.
 */

type Listener = () => void;

let element: HTMLAudioElement | null = null;
let current = "";
let queue: string[] = [];
let generation = 0;
const listeners = new Set<Listener>();
const idleWaiters = new Set<() => void>();

function notify() {
  for (const listener of listeners) listener();
  if (!current) {
    for (const resolve of idleWaiters) resolve();
    idleWaiters.clear();
  }
}

const wait = (ms: number) => new Promise<void>((resolve) => window.setTimeout(resolve, ms));

async function start(url: string, run: number): Promise<void> {
  element?.pause();
  const audio = new Audio(url);
  element = audio;
  current = url;
  notify();
  audio.addEventListener("ended", () => {
    if (run !== generation || element !== audio) return;
    const next = queue.shift();
    if (next) void start(next, run);
    else {
      current = "";
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
      // spec 8: audio play failures are logged; autoplay is retried 3 times at 500 ms.
      console.error("audio: play failed", url, error);
      if (attempt < AUDIO_RETRY_COUNT) await wait(AUDIO_RETRY_DELAY_MS);
    }
  }
  if (run === generation && element === audio) {
    current = "";
    element = null;
    queue = [];
    notify();
  }
}

export const audioPlayer = {
  /** The URL playing now ("" when silent). */
  get currentUrl(): string {
    return current;
  },
  /** Plays `url`, stopping whatever played. Selecting the one playing stops it (spec 4). */
  toggle(url: string): void {
    if (current === url) this.stop();
    else this.play([url]);
  },
  /** Plays the URLs one after another, stopping whatever played. */
  play(urls: string[]): void {
    generation += 1;
    queue = urls.slice(1);
    if (urls[0]) void start(urls[0], generation);
  },
  /** Adds a URL to the end of what plays now (a streamed reply's next sentence). */
  enqueue(url: string): void {
    if (!current) this.play([url]);
    else queue.push(url);
  },
  /** Autoplay of a reply: never on Apple systems (spec 4). */
  autoplay(url: string, append = false): void {
    if (isAppleDevice()) return;
    if (append) this.enqueue(url);
    else this.play([url]);
  },
  stop(): void {
    generation += 1;
    queue = [];
    element?.pause();
    element = null;
    current = "";
    notify();
  },
  /** Resolves once nothing plays (at once when silent). */
  idle(): Promise<void> {
    if (!current) return Promise.resolve();
    return new Promise((resolve) => idleWaiters.add(resolve));
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};
