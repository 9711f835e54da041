// Replies first on a model that shares the CPU: background generation waits for a pause between replies, and a reply that starts pauses it.

/** How long background work waits for replies, milliseconds. */
export interface ReplyFirstOptions {
  /**
   * How long no reply must have run before background work starts: the pause between one reply's
   * end and the user's next message, so that back-to-back messages do not let it in between.
   */
  quietMs: number;
  /**
   * How long a background call holds out for such a pause, in all; after it, any moment without
   * a reply will do (the gap between one reply and the next message).
   */
  quietForMs: number;
  /**
   * The longest a background call waits at a stretch (since it came, or since a reply cut its
   * last run); after it, it runs even beside replies and is no longer paused, so it is never
   * starved.
   */
  maxWaitMs: number;
  /** Told how long each background call waited in all, ms. */
  onWaited?: (ms: number) => void;
  /** Told each time a reply cut a background run short (it runs again after the next pause). */
  onCut?: () => void;
}

/** The abort reason of a background run cut short by a reply. */
export class CutForReply extends Error {
  constructor() {
    super("A reply started: background generation stops and runs again later.");
    this.name = "CutForReply";
  }
}

/**
 * Puts replies before background work on one model. `reply` runs a reply at once, always; while
 * any reply runs (queued for a slot or generating), and for `quietMs` after the last one ended,
 * `background` holds its call back. A background run that started is cut short when a reply
 * starts (its signal aborts with CutForReply) and run again after the next pause (the caller
 * continues where the cut run stopped: llama.ts), so it makes progress in the pauses. Once it has
 * waited `quietForMs` in all, any moment without a reply will do (the gaps between back-to-back
 * messages: it advances a little in each); once it has waited `maxWaitMs` at a stretch (no gap at
 * all), it runs to its end whatever replies do. The embedded model uses it (llama.ts): replies and
 * background work share its CPU.
 */
export class ReplyFirst {
  private replies = 0;
  private lastReplyEnd = Number.NEGATIVE_INFINITY;
  /** The background runs a reply may still cut short. */
  private readonly cuttable = new Set<AbortController>();
  /** Background calls waiting: woken when a reply starts or ends. */
  private wakers = new Set<() => void>();

  constructor(
    private readonly options: ReplyFirstOptions,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Replies running now (queued for a slot or generating). */
  get running(): number {
    return this.replies;
  }

  /**
   * Runs a reply at once, cutting short the background runs that may still be cut; background
   * calls wait until it and the pause after it are over. @returns what `run` returns.
   */
  async reply<T>(run: () => Promise<T>): Promise<T> {
    this.replies += 1;
    for (const controller of this.cuttable) controller.abort(new CutForReply());
    this.wake();
    try {
      return await run();
    } finally {
      this.replies -= 1;
      this.lastReplyEnd = this.now();
      this.wake();
    }
  }

  /**
   * Runs background work once replies leave room for it. `run` gets the signal to generate with:
   * `signal` joined with the cut a reply makes, until the bounded wait is over. A run whose cut
   * fired is set aside (its result or error) and `run` is called again after the next pause.
   * @returns what the run that was not cut returns. @throws what it throws, or `signal`'s reason
   *   when `signal` aborts while waiting.
   */
  async background<T>(
    run: (signal: AbortSignal | undefined) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    let waited = 0;
    for (;;) {
      const from = this.now();
      const late = await this.waitForPause(waited, signal);
      waited += this.now() - from;
      const cut = late ? undefined : new AbortController();
      if (cut) this.cuttable.add(cut);
      const joined = cut ? (signal ? AbortSignal.any([signal, cut.signal]) : cut.signal) : signal;
      try {
        const result = await run(joined);
        if (!this.wasCut(cut, signal)) {
          this.options.onWaited?.(waited);
          return result;
        }
      } catch (error) {
        if (!this.wasCut(cut, signal)) {
          this.options.onWaited?.(waited);
          throw error;
        }
      } finally {
        if (cut) this.cuttable.delete(cut);
      }
      this.options.onCut?.();
    }
  }

  private wasCut(cut: AbortController | undefined, signal: AbortSignal | undefined): boolean {
    return Boolean(cut?.signal.aborted) && !signal?.aborted;
  }

  /**
   * Waits until no reply runs and none ended in the last `quietMs` (after `quietForMs` of waiting
   * in all: until no reply runs), or for `maxWaitMs` at most.
   * @param before ms this call waited already. @returns true when `maxWaitMs` came first.
   */
  private async waitForPause(before: number, signal: AbortSignal | undefined): Promise<boolean> {
    const from = this.now();
    const { quietMs, quietForMs, maxWaitMs } = this.options;
    for (;;) {
      signal?.throwIfAborted();
      const now = this.now();
      const waited = before + now - from;
      const quietAt = this.lastReplyEnd + (waited < quietForMs ? quietMs : 0);
      if (this.replies === 0 && now >= quietAt) return false;
      if (now - from >= maxWaitMs) return true;
      const wakes = [from + maxWaitMs];
      if (this.replies === 0) wakes.push(quietAt, from + quietForMs - before);
      await this.sleep(Math.min(...wakes.filter((at) => at > now)) - now, signal);
    }
  }

  /** Sleeps `ms`, or less when a reply starts or ends or `signal` aborts. */
  private sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakers.delete(done);
        signal?.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, ms));
      this.wakers.add(done);
      signal?.addEventListener("abort", done, { once: true });
    });
  }

  private wake(): void {
    const wakers = this.wakers;
    this.wakers = new Set();
    for (const waker of wakers) waker();
  }
}
