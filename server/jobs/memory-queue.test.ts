import { afterEach, describe, expect, it } from "vitest";
import { MemoryJobQueue } from "./memory-queue";
import { periodic } from "./queue";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("in-process job queue", () => {
  const queues: MemoryJobQueue[] = [];
  const errors: unknown[] = [];
  const queue = () => {
    const q = new MemoryJobQueue((error) => errors.push(error));
    queues.push(q);
    return q;
  };
  afterEach(async () => {
    for (const q of queues.splice(0)) await q.close();
    errors.length = 0;
  });

  it("runs jobs in the order queued, one at a time, after the caller's turn", async () => {
    const q = queue();
    const seen: string[] = [];
    let running = 0;
    let most = 0;
    q.define<{ n: string }>("note", async ({ n }) => {
      running += 1;
      most = Math.max(most, running);
      await sleep(5);
      seen.push(n);
      running -= 1;
    });
    await q.start();
    for (const n of ["a", "b", "c", "d"]) await q.enqueue("note", { n });
    // Nothing has run yet: the request that queued them answers first.
    expect(seen).toEqual([]);
    expect(await q.depth()).toBe(4);
    await q.idle();
    expect(seen).toEqual(["a", "b", "c", "d"]);
    expect(most).toBe(1);
    expect(await q.depth()).toBe(0);
  });

  it("waits until start() to run what was queued before", async () => {
    const q = queue();
    const seen: number[] = [];
    q.define<{ n: number }>("n", async ({ n }) => void seen.push(n));
    await q.enqueue("n", { n: 1 });
    await sleep(20);
    expect(seen).toEqual([]);
    await q.start();
    await q.idle();
    expect(seen).toEqual([1]);
  });

  it("drops a job whose key is still waiting, not one whose twin already runs", async () => {
    const q = queue();
    const seen: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    q.define<{ v: string }>("summary", async ({ v }) => {
      seen.push(v);
      if (v === "1") await gate;
    });
    await q.start();
    await q.enqueue("summary", { v: "1" }, { key: "chat-1" });
    await sleep(10); // "1" is running now
    await q.enqueue("summary", { v: "2" }, { key: "chat-1" });
    await q.enqueue("summary", { v: "3" }, { key: "chat-1" }); // "2" still waits: dropped
    await q.enqueue("summary", { v: "4" }, { key: "chat-2" });
    release();
    await q.idle();
    expect(seen).toEqual(["1", "2", "4"]);
  });

  it("retries a failing job with exponential back-off, then gives up and logs each try", async () => {
    const q = queue();
    const tries: number[] = [];
    q.define(
      "flaky",
      async () => {
        tries.push(Date.now());
        throw new Error("mail server down");
      },
      { attempts: 3, backoffMs: 40 },
    );
    await q.start();
    await q.enqueue("flaky", {});
    await q.idle();
    expect(tries).toHaveLength(3);
    expect(tries[1]! - tries[0]!).toBeGreaterThanOrEqual(38);
    expect(tries[2]! - tries[1]!).toBeGreaterThanOrEqual(78);
    expect(errors.map((e) => (e as Error).message)).toEqual([
      'job "flaky" failed (try 1 of 3): mail server down',
      'job "flaky" failed (try 2 of 3): mail server down',
      'job "flaky" failed (try 3 of 3): mail server down',
    ]);
  });

  it("stops succeeding tries from being retried again and counts retries in the depth", async () => {
    const q = queue();
    let calls = 0;
    q.define(
      "once-flaky",
      async () => {
        calls += 1;
        if (calls === 1) throw new Error("first try fails");
      },
      { attempts: 5, backoffMs: 30 },
    );
    await q.start();
    await q.enqueue("once-flaky", {});
    await sleep(10);
    expect(await q.depth()).toBe(1); // the retry waiting for its back-off
    await q.idle();
    expect(calls).toBe(2);
  });

  it("stop() waits for the running job, then runs nothing more", async () => {
    const q = queue();
    const seen: string[] = [];
    q.define<{ n: string }>("slow", async ({ n }) => {
      await sleep(50);
      seen.push(n);
    });
    await q.start();
    await q.enqueue("slow", { n: "first" });
    await q.enqueue("slow", { n: "second" });
    await sleep(10);
    await q.stop();
    expect(seen).toEqual(["first"]);
    await q.enqueue("slow", { n: "late" });
    await sleep(80);
    expect(seen).toEqual(["first"]);
  });

  it("runs a scheduled job soon after start, then every interval, never piling up", async () => {
    const q = queue();
    const runs: number[] = [];
    const started = Date.now();
    periodic(q, "cleanup", 60, async () => {
      runs.push(Date.now() - started);
      await sleep(150); // longer than two intervals: ticks meanwhile are dropped, not queued twice
    });
    await q.start();
    await sleep(20);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toBeLessThan(20);
    await sleep(400);
    await q.stop();
    // Runs at ~0, ~150, ~300 (each waiting tick ran once the previous run ended): not 7 runs.
    expect(runs.length).toBeGreaterThanOrEqual(2);
    expect(runs.length).toBeLessThanOrEqual(4);
    for (let i = 1; i < runs.length; i++) expect(runs[i]! - runs[i - 1]!).toBeGreaterThanOrEqual(145);
  });

  it("hands handlers a JSON copy and refuses unknown jobs and nested data", async () => {
    const q = queue();
    let got: unknown;
    q.define("copy", async (data) => {
      got = data;
    });
    await q.start();
    const data = { id: "x", n: 1 };
    await q.enqueue("copy", data);
    await q.idle();
    expect(got).toEqual(data);
    expect(got).not.toBe(data);
    expect(() => q.enqueue("nope", {})).toThrow('job "nope" is not defined');
    expect(() => q.enqueue("copy", { nested: { a: 1 } } as never)).toThrow("nested is not a plain value");
    expect(() => q.define("copy", async () => {})).toThrow("defined twice");
    expect(() => q.every("nope", 10)).toThrow('job "nope" is not defined');
  });
});
