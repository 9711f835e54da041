// Speech in voice chat (product.md §4, §5): the words of a reply read aloud, its sentences while streaming, and uncensoring transcripts.
/**
 * Text rules of spoken replies and speech input, shared by the server (synthesis,
 * transcripts) and the SPA (the browser's own speech recognition).
 */

/** product.md §5: the placeholder sent in voice chat when nothing was said. */
export const LISTENING_PLACEHOLDER = "listening";
/** product.md §4, 9: listening resumes 1000 ms after a message is sent in voice chat. */
export const LISTEN_RESUME_DELAY_MS = 1000;
/** product.md §4, 9: the voice-chat cue plays after 300 ms. */
export const VOICE_CUE_DELAY_MS = 300;
/** product.md §8, 9: a failed autoplay is retried 3 times at 500 ms. */
export const AUDIO_RETRY_COUNT = 3;
export const AUDIO_RETRY_DELAY_MS = 500;

/**
 * The words of a reply that are read aloud. Narration between asterisks (`*smiles*`) is a stage
 * direction, not speech: it is dropped, never read as symbols or as words. Leftover asterisks,
 * markup characters and runs of spaces go too.
 * @returns "" when the reply is only narration (no audio is made then).
 */
export function speechText(reply: string): string {
  return reply
    .replace(/\*[^*\n]*\*/g, " ")
    .replace(/[*_~`#<>[\]|]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * Collects streamed text and hands out each finished sentence of speech as soon as it ends
 * (the first sentence is spoken before the whole reply is written). Narration between
 * asterisks is held back until it closes, then dropped.
 */
export class SentenceStream {
  private buffer = "";

  /** Adds streamed text. @returns the sentences (speech text) finished by it, in order. */
  push(chunk: string): string[] {
    this.buffer += chunk;
    const out: string[] = [];
    let from = 0;
    for (;;) {
      const cut = this.sentenceEnd(from);
      if (cut < 0) break;
      const spoken = speechText(this.buffer.slice(0, cut));
      // Too short to stand alone ("Oh."): joined to the sentence after it.
      if (spoken.length < 12) {
        from = cut;
        continue;
      }
      out.push(spoken);
      this.buffer = this.buffer.slice(cut);
      from = 0;
    }
    return out;
  }

  /** The rest once the stream is over. */
  end(): string[] {
    const spoken = speechText(this.buffer);
    this.buffer = "";
    return spoken ? [spoken] : [];
  }

  /** Where the first sentence ending at or after `from` ends (outside narration), or -1. */
  private sentenceEnd(from: number): number {
    let inNarration = false;
    for (let i = 0; i < this.buffer.length; i++) {
      const c = this.buffer[i]!;
      if (c === "*") inNarration = !inNarration;
      if (inNarration || i < from) continue;
      if (c === "\n") return i + 1;
      if (".!?…".includes(c)) {
        let j = i + 1;
        while (j < this.buffer.length && ".!?…\"'”’)".includes(this.buffer[j]!)) j++;
        if (j < this.buffer.length && /\s/.test(this.buffer[j]!)) return j;
      }
    }
    return -1;
  }
}

/**
 * The sentences of a whole reply, cut exactly as `SentenceStream` cuts it while streaming, so
 * audio made during streaming is found again in the cache for the whole reply.
 */
export function speechSentences(reply: string): string[] {
  const stream = new SentenceStream();
  return [...stream.push(reply), ...stream.end()];
}

/**
 * Common words that speech recognisers (Chrome's among them) write censored, first letter kept
 * and the rest as asterisks.
 */
const CENSORED_WORDS = [
  "fuck",
  "fucking",
  "fucked",
  "fucker",
  "shit",
  "shitty",
  "bitch",
  "bitches",
  "ass",
  "asshole",
  "damn",
  "dick",
  "cock",
  "cunt",
  "pussy",
  "bastard",
  "crap",
  "piss",
  "slut",
  "whore",
  "motherfucker",
  "bullshit",
  "hell",
];

/**
 * product.md §5: "Speech text in the form of a censored word with asterisks is replaced by the full
 * word": `f**k`, `f***`, `s***ty` become the word with the same visible letters and length.
 * Words that match nothing are left as they are.
 */
export function uncensorTranscript(text: string): string {
  return text.replace(/\b([a-z]+)(\*+)([a-z]*)/gi, (whole, head: string, stars: string, tail: string) => {
    const length = head.length + stars.length + tail.length;
    const found = CENSORED_WORDS.find(
      (w) => w.length === length && w.startsWith(head.toLowerCase()) && w.endsWith(tail.toLowerCase()),
    );
    if (!found) return whole;
    return head[0] === head[0]!.toUpperCase() && head[0] !== head[0]!.toLowerCase()
      ? found[0]!.toUpperCase() + found.slice(1)
      : found;
  });
}
