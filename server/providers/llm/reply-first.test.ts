import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { CutForReply, ReplyFirst } from "./reply-first";

/** A promise with its resolve function outside. */
function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A reply that runs until `end` is called. */
function openReply(gate: ReplyFirst): { started: () => boolean; end: () => void; done: Promise<string> } {
  let started = false;
  const finish = deferred();
  const done = gate.reply(async () => {
    started = true;
    await finish.promise;
    return "reply";
  });
  return { started: () => started, end: () => finish.resolve(), done };
}

describe("ReplyFirst: background work yields to replies", () => {
  const waits: number[] = [];
  let cuts = 0;
  let gate: ReplyFirst;
  beforeEach(() => {
    vi.useFakeTimers();
    waits.length = 0;
    cuts = 0;
    gate = new ReplyFirst(
      {
        quietMs: 1000,
        quietForMs: 30_000,
        maxWaitMs: 60_000,
        onWaited: (ms) => waits.push(ms),
        onCut: () => {
          cuts += 1;
        },
      },
      () => Date.now(),
    );
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("holds a background call while a reply runs and lets it run after the pause that follows", async () => {
    const reply = openReply(gate);
    let ran = false;
    const job = gate.background(async () => {
      ran = true;
      return "facts";
    });
    await vi.advanceTimersByTimeAsync(5000);
    expect(ran).toBe(false);
    reply.end();
    await reply.done;
    await vi.advanceTimersByTimeAsync(999);
    expect(ran).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(ran).toBe(true);
    await expect(job).resolves.toBe("facts");
    expect(waits).toEqual([6000]);
  });

  it("holds out for a pause for quietForMs, then takes any gap between replies", async () => {
    let ran = false;
    let reply = openReply(gate);
    const job = gate.background(async () => {
      ran = true;
    });
    // Back-to-back replies: each 3 s, the next message 200 ms after the last reply ended.
    for (let turn = 1; !ran; turn += 1) {
      await vi.advanceTimersByTimeAsync(3000);
      expect(ran).toBe(false);
      reply.end();
      await reply.done;
      await vi.advanceTimersByTimeAsync(200);
      expect(ran).toBe(turn * 3200 >= 30_000);
      reply = openReply(gate);
    }
    reply.end();
    await reply.done;
    await job;
    // 30 s came during the tenth reply: it ran in the gap after it (3.2 s a turn).
    expect(waits).toEqual([31_800]);
  });

  it("runs anyway once the bounded wait is over, while replies overlap without a gap", async () => {
    let ran = false;
    let reply = openReply(gate);
    const job = gate.background(async () => {
      ran = true;
    });
    for (let elapsed = 0; elapsed < 60_000; elapsed += 2000) {
      expect(ran).toBe(false);
      const next = openReply(gate);
      await vi.advanceTimersByTimeAsync(2000);
      reply.end();
      await reply.done;
      reply = next;
    }
    await vi.advanceTimersByTimeAsync(0);
    expect(ran).toBe(true);
    expect(gate.running).toBe(1);
    reply.end();
    await reply.done;
    await job;
    expect(waits).toEqual([60_000]);
  });

  it("counts the bounded wait from the last run a reply cut short", async () => {
    let runs = 0;
    const first = openReply(gate);
    const job = gate.background(async (signal) => {
      runs += 1;
      if (runs === 1) await new Promise((resolve) => signal?.addEventListener("abort", resolve));
      return runs;
    });
    await vi.advanceTimersByTimeAsync(19_000);
    first.end();
    await first.done;
    await vi.advanceTimersByTimeAsync(1000);
    expect(runs).toBe(1);
    // Replies overlapping without a gap from 50 s on: the cut run waits 60 s from the cut, not
    // 60 s in all (20 s before its first run, 40 s after the cut).
    await vi.advanceTimersByTimeAsync(30_000);
    let reply = openReply(gate);
    for (let elapsed = 0; elapsed < 58_000; elapsed += 2000) {
      const next = openReply(gate);
      await vi.advanceTimersByTimeAsync(2000);
      reply.end();
      await reply.done;
      reply = next;
    }
    expect(runs).toBe(1);
    await vi.advanceTimersByTimeAsync(2000);
    expect(runs).toBe(2);
    reply.end();
    await reply.done;
    await expect(job).resolves.toBe(2);
    expect(waits).toEqual([80_000]);
  });

  it("never delays a reply: it starts at once beside a waiting or running background call", async () => {
    const first = openReply(gate);
    let ran = false;
    const release = deferred();
    const job = gate.background(async () => {
      ran = true;
      await release.promise;
    });
    // Waiting: a second reply starts at once.
    const second = openReply(gate);
    expect(second.started()).toBe(true);
    second.end();
    await second.done;
    // Past the bound the background call runs beside the first reply, and is not cut any more:
    // a reply still starts at once.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(ran).toBe(true);
    first.end();
    await first.done;
    const third = openReply(gate);
    expect(third.started()).toBe(true);
    third.end();
    await third.done;
    release.resolve();
    await job;
    expect(cuts).toBe(0);
  });

  it("cuts a running background call short when a reply starts, and runs it again after the next pause", async () => {
    const signals: Array<AbortSignal | undefined> = [];
    const job = gate.background(async (signal) => {
      signals.push(signal);
      const run = signals.length;
      if (run === 1) {
        // Generates until its signal says stop (node-llama-cpp returns the partial text).
        await new Promise((resolve) => signal?.addEventListener("abort", resolve));
        return "partial";
      }
      return "whole";
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(signals).toHaveLength(1);
    const reply = openReply(gate);
    expect(reply.started()).toBe(true);
    expect(signals[0]?.aborted).toBe(true);
    expect(signals[0]?.reason).toBeInstanceOf(CutForReply);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(signals).toHaveLength(1);
    reply.end();
    await reply.done;
    await vi.advanceTimersByTimeAsync(1000);
    await expect(job).resolves.toBe("whole");
    expect(signals).toHaveLength(2);
    expect(cuts).toBe(1);
    expect(waits).toEqual([11_000]);
  });

  it("throws a cut run's error away, but passes on the error of a run that was not cut", async () => {
    let runs = 0;
    const job = gate.background(async (signal) => {
      runs += 1;
      if (runs === 1) {
        await new Promise((resolve) => signal?.addEventListener("abort", resolve));
        throw signal?.reason;
      }
      throw new Error("model failed");
    });
    const failed = expect(job).rejects.toThrow("model failed");
    await vi.advanceTimersByTimeAsync(0);
    const reply = openReply(gate);
    reply.end();
    await reply.done;
    await vi.advanceTimersByTimeAsync(1000);
    await failed;
    expect(runs).toBe(2);
  });

  it("stops waiting when the caller's own signal aborts, and never retries the caller's abort", async () => {
    const reply = openReply(gate);
    const controller = new AbortController();
    let ran = false;
    const job = gate.background(async () => {
      ran = true;
    }, controller.signal);
    const stopped = expect(job).rejects.toThrow("shutting down");
    controller.abort(new Error("shutting down"));
    await stopped;
    expect(ran).toBe(false);
    reply.end();
    await reply.done;
  });
});
