// Batching a streamed reply's tokens into fewer `token` events (held at most TOKEN_FLUSH_MS), one timer for all replies.
/**
 * The tokens of a streamed reply leave in batches: a model sends a token every 20-50 ms, and each
 * `token` event costs the server a socket write to the client (and an append to the live reply,
 * a Redis command in a cluster) whatever its size. A reply's first token after a pause leaves at
 * once (time to first token is untouched); the tokens that follow are held and leave together
 * once the oldest of them has waited TOKEN_FLUSH_MS: below what a reader sees (the SPA paints
 * each event as it comes), and with a token every 30 ms, two tokens an event. One timer, ticking
 * every TOKEN_TICK_MS while any reply holds tokens, serves every open reply.
 */

/** Longest a token is held, milliseconds. */
export const TOKEN_FLUSH_MS = 50;

/** How often the held tokens are looked at, milliseconds: a batch leaves 40-50 ms after its first token. */
const TOKEN_TICK_MS = 10;

/** Batches holding text, oldest first. */
const waiting = new Set<TokenBatch>();
let ticker: NodeJS.Timeout | undefined;

function tick(): void {
  const due = performance.now() - (TOKEN_FLUSH_MS - TOKEN_TICK_MS);
  for (const batch of waiting) {
    if (batch.heldSince > due) break;
    batch.flush();
  }
  if (waiting.size === 0 && ticker) {
    clearInterval(ticker);
    ticker = undefined;
  }
}

/** The token text of one reply on its way out; `send` gets each batch's text. */
export class TokenBatch {
  private text = "";
  private sentAt = Number.NEGATIVE_INFINITY;
  /** When the oldest token held came (performance.now() ms). */
  heldSince = 0;

  constructor(private readonly send: (text: string) => void) {}

  /** Sends `text` now when nothing left in the last TOKEN_FLUSH_MS, else holds it for the batch. */
  push(text: string): void {
    if (!text) return;
    const now = performance.now();
    if (this.text) {
      this.text += text;
      return;
    }
    if (now - this.sentAt >= TOKEN_FLUSH_MS) {
      this.sentAt = now;
      this.send(text);
      return;
    }
    this.text = text;
    this.heldSince = now;
    waiting.add(this);
    if (!ticker) {
      ticker = setInterval(tick, TOKEN_TICK_MS);
      ticker.unref();
    }
  }

  /** Sends the text held, if any (before any other event of the reply, so the order stays). */
  flush(): void {
    if (!this.text) return;
    waiting.delete(this);
    const text = this.text;
    this.text = "";
    this.sentAt = performance.now();
    this.send(text);
  }
}
