import { describe, expect, it } from "vitest";
import type { JobData, JobQueue } from "../../jobs/queue";
import type { LlmProvider } from "../../providers/llm/llm";
import type { MemoryRepo } from "./memory.repo";
import { FACTS_BATCH, MemoryService, QUEUED_GUARD_MS, SUMMARY_TRIGGER } from "./memory.service";

/** A queue that records what is queued and runs a job only when told. */
function recordingQueue() {
  const handlers = new Map<string, (data: JobData) => Promise<unknown>>();
  const queued: Array<{ name: string; data: JobData }> = [];
  const queue = {
    engine: "memory",
    define: (name: string, handler: (data: JobData) => Promise<unknown>) => handlers.set(name, handler),
    enqueue: async (name: string, data: JobData) => {
      queued.push({ name, data });
    },
  } as unknown as JobQueue;
  return { queue, queued, run: (name: string, data: JobData) => handlers.get(name)!(data) };
}

describe("memory jobs: one per chat while it waits or runs", () => {
  let clock = 1_000_000;
  // The jobs find nothing to do: only how often they are queued is looked at here.
  const repo = {
    factsUntilSeq: async () => undefined,
    summaryOf: async () => undefined,
  } as unknown as MemoryRepo;
  const llm = { status: () => ({ ready: true }) } as unknown as LlmProvider;
  const reply = (sessionId: string, messages: number, exchanges = messages) => ({
    userId: "u1",
    userName: "Sam",
    sessionId,
    exchanges,
    window: Array.from({ length: messages }, (_unused, i) => ({
      seq: i + 1,
      message: `I walked my dog ${i}`,
    })),
    kept: messages,
    full: false,
    factsUntilSeq: 0,
  });

  it("queues the facts job once while it is pending, and again after it ran", async () => {
    const jobs = recordingQueue();
    const memory = new MemoryService(repo, llm, jobs.queue, () => clock);
    memory.afterReply(reply("s1", FACTS_BATCH - 1));
    expect(jobs.queued).toHaveLength(0);
    memory.afterReply(reply("s1", FACTS_BATCH));
    memory.afterReply(reply("s1", FACTS_BATCH + 1));
    memory.afterReply(reply("s1", FACTS_BATCH + 2));
    expect(jobs.queued.map((j) => j.name)).toEqual(["memory.facts"]);
    // Another chat is not held back.
    memory.afterReply(reply("s2", FACTS_BATCH));
    expect(jobs.queued).toHaveLength(2);
    await jobs.run("memory.facts", jobs.queued[0]!.data);
    memory.afterReply(reply("s1", FACTS_BATCH + 3));
    expect(jobs.queued.filter((j) => j.data.sessionId === "s1")).toHaveLength(2);
  });

  it("queues the summary once, and again when a job queued by this process never ended here", () => {
    const jobs = recordingQueue();
    const memory = new MemoryService(repo, llm, jobs.queue, () => clock);
    // No message holds facts here: only the summary is at stake.
    const quiet = { ...reply("s3", 0, SUMMARY_TRIGGER + 1), window: [] };
    memory.afterReply(quiet);
    memory.afterReply({ ...quiet, exchanges: SUMMARY_TRIGGER + 2 });
    expect(jobs.queued.map((j) => j.name)).toEqual(["memory.summary"]);
    clock += QUEUED_GUARD_MS;
    memory.afterReply(quiet);
    expect(jobs.queued.map((j) => j.name)).toEqual(["memory.summary", "memory.summary"]);
  });
});
