// A first-come first-served pool of slots, such as a loaded model's context sequences.
/**
 * A first-come first-served pool of `size` slots (e.g. the context sequences of a loaded
 * model). `acquire` resolves with a slot index once one is free.
 */
export class SlotPool {
  private readonly free: number[];
  private readonly waiting: Array<(slot: number) => void> = [];

  constructor(size: number) {
    this.free = Array.from({ length: size }, (_, i) => i);
  }

  /** Number of callers waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  acquire(): Promise<number> {
    const slot = this.free.pop();
    if (slot !== undefined) return Promise.resolve(slot);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(slot: number): void {
    const next = this.waiting.shift();
    if (next) next(slot);
    else this.free.push(slot);
  }
}
