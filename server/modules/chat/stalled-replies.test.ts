import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openConversation } from "../../container/conversation";
import type { ChatHistoryRow } from "../../db/schema";
import { english } from "../../i18n/messages";
import type { LlmProvider } from "../../providers/llm/llm";
import { openRedis, type RedisHandle } from "../../providers/redis/redis";
import type { FileStorage } from "../../providers/storage/storage";
import { demoWithCharacter } from "../../testing/api";
import { createTestApp, TEST_REDIS_URL, type TestApp } from "../../testing/server";
import { QuotaRepo } from "../quota/quota.repo";
import { QuotaService } from "../quota/quota.service";
import { ChatRepo } from "./chat.repo";
import { ChatService } from "./chat.service";
import { InspectionsRepo } from "./inspections.repo";
import { INSTANCE_LEASE_MS, InstanceLease } from "./instance-lease";
import { type LiveReplies, type LiveReplyWriter, MemoryLiveReplies } from "./live-replies";
import { RedisLiveReplies } from "./live-replies.redis";
import { STALL_GRACE_MS, STALL_MARGIN_MS } from "./stalled-replies";

const TIMEOUT_MS = 60_000;

/** A model that says `chunks`, then hangs until its run is aborted (or `release` is called). */
function hangingModel(chunks: string[] = []) {
  const pending: Array<() => void> = [];
  const llm: LlmProvider = {
    name: "hanging",
    contextWindow: () => 4096,
    status: () => ({ ready: true, message: "ready" }),
    countTokens: (text) => Math.ceil(text.length / 4),
    close: async () => {},
    async generate(request) {
      for (const chunk of chunks) request.onTextChunk?.(chunk);
      await new Promise<void>((_, reject) => {
        const fail = () => reject(new Error("aborted"));
        request.signal?.addEventListener("abort", fail, { once: true });
        pending.push(fail);
      });
      return { text: "", modelMs: 0 };
    },
  };
  const release = () => {
    for (const fail of pending.splice(0)) fail();
  };
  return { llm, release };
}

/** Resolves when `check` holds, polling; fails after `ms`. */
async function until(check: () => boolean | Promise<boolean>, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * A reply whose generation died (its instance killed) never stays "pending": the
 * settlement marks it partial with what was streamed, or failed with its message given back.
 */
describe("settling replies left pending", () => {
  let t: TestApp;
  const releases: Array<() => void> = [];
  /** Sends still running (their models hang), ended before the database closes. */
  const sends: Array<Promise<unknown>> = [];
  beforeAll(async () => {
    t = await createTestApp();
  });
  /** Redis connections of the two-instance tests, under their own key prefix. */
  const prefix = `test:stalled:${randomUUID()}:`;
  const handles: RedisHandle[] = [];
  afterAll(async () => {
    for (const release of releases) release();
    await Promise.allSettled(sends);
    const keys = await handles[0]?.client.keys(`${prefix}*`);
    if (keys?.length) await handles[0]!.client.del(...keys);
    await Promise.all(handles.map((handle) => handle.close()));
    await t?.dispose();
  });

  /** A chat service on the test app's database: one server instance with its own live replies. */
  const instance = (live: LiveReplies, llm: LlmProvider, now: () => number = Date.now, owner = "") => {
    const db = t.db.db;
    const quota = new QuotaService(new QuotaRepo(db));
    return new ChatService(
      new ChatRepo(db, new InspectionsRepo(db)),
      openConversation(db, { now, owner }),
      quota,
      llm,
      { maxReplyTokens: 64, temperature: 0.7, timeoutMs: TIMEOUT_MS },
      {
        promptFacts: async () => ({ settled: [], recent: [] }),
        afterReply: () => {},
        beforeClear: async () => {},
      },
      {} as FileStorage,
      live,
      now,
    );
  };
  const userRow = (userId: string) =>
    t.db.db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirstOrThrow();
  const entryRow = (id: string) =>
    t.db.db.selectFrom("chat_history").selectAll().where("id", "=", id).executeTakeFirstOrThrow();

  /**
   * Sends a message on `chat` whose model hangs; its events go to `live` as a streamed request's
   * would. @returns the stored entry once its events are appended, and the send's promise.
   */
  async function sendHanging(chat: ChatService, live: LiveReplies, userId: string, characterId: string) {
    let entry: ChatHistoryRow | undefined;
    let writer: LiveReplyWriter | undefined;
    const sent = chat.sendMessage(await userRow(userId), {
      message: "Tell me a story",
      chatId: characterId,
      characterId: "",
      onStored: async (stored) => {
        writer = await live.open(stored.id, { fresh: true });
        writer.append("entry", { chatHistoryUUID: stored.id });
        entry = stored;
      },
      onToken: (text) => writer?.append("token", { text }),
    });
    sends.push(sent);
    await until(() => entry !== undefined);
    return { entry: entry!, sent, end: () => writer?.end() };
  }

  it("one process: a pending entry of a previous process is settled after the timeout, not before", async () => {
    const s = await demoWithCharacter(t.app);
    const before = (await userRow(s.userId)).chat_count;
    let offset = 0;
    const clock = () => Date.now() + offset;
    const model = hangingModel();
    releases.push(model.release);
    const first = new MemoryLiveReplies();
    const firstProcess = instance(first, model.llm, clock);
    const { entry, sent, end } = await sendHanging(firstProcess, first, s.userId, s.characterId);
    expect((await userRow(s.userId)).chat_count).toBe(before + 1);
    // Still running in its own process: never settled, however old.
    offset = TIMEOUT_MS + STALL_MARGIN_MS + 1000;
    expect(await firstProcess.settleStalledReplies()).toBe(0);
    // The next process knows nothing of it: settled once older than the timeout and the margin.
    const nextProcess = instance(new MemoryLiveReplies(), hangingModel().llm, clock);
    offset = 10_000;
    expect(await nextProcess.settleStalledReplies()).toBe(0);
    expect((await entryRow(entry.id)).status).toBe("pending");
    offset = TIMEOUT_MS + STALL_MARGIN_MS + 1000;
    expect(await nextProcess.settleStalledReplies()).toBe(1);
    expect(await entryRow(entry.id)).toMatchObject({ status: "failed", reply_message: "" });
    expect((await userRow(s.userId)).chat_count).toBe(before);
    expect(await nextProcess.settleStalledReplies()).toBe(0);
    // The old run ending later gives nothing back a second time.
    model.release();
    expect(await sent).toMatchObject({ success: false });
    end();
    expect(await first.isRunning(entry.id)).toBe(false);
    expect((await userRow(s.userId)).chat_count).toBe(before);
  });

  it("an owned entry is settled once its owner's lease lapses, started or not, and never while it is renewed", async () => {
    const s = await demoWithCharacter(t.app);
    const before = (await userRow(s.userId)).chat_count;
    let offset = 0;
    const clock = () => Date.now() + offset;
    const lease = new InstanceLease(t.db.db, clock);
    await lease.renew();
    const model = hangingModel();
    releases.push(model.release);
    const owner = new MemoryLiveReplies();
    const { entry } = await sendHanging(
      instance(owner, model.llm, clock, lease.id),
      owner,
      s.userId,
      s.characterId,
    );
    expect((await entryRow(entry.id)).owner).toBe(lease.id);
    // Another process that knows nothing of the run (as after Redis lost its data): while the
    // owner renews its lease, the entry is left alone however old it is.
    const other = instance(new MemoryLiveReplies(), hangingModel().llm, clock);
    offset = TIMEOUT_MS + STALL_MARGIN_MS + 1000;
    await lease.renew();
    expect(await other.settleStalledReplies()).toBe(0);
    expect((await entryRow(entry.id)).status).toBe("pending");
    // The owner stops renewing: settled once its lease lapses, long before the model's timeout.
    offset += INSTANCE_LEASE_MS - 1000;
    expect(await other.settleStalledReplies()).toBe(0);
    offset += 2000;
    expect(await other.settleStalledReplies()).toBe(1);
    expect(await entryRow(entry.id)).toMatchObject({ status: "failed", reply_message: "" });
    expect((await userRow(s.userId)).chat_count).toBe(before);
  });

  it("an entry whose owner stopped (its lease given up) is settled at the next sweep", async () => {
    const s = await demoWithCharacter(t.app);
    const lease = new InstanceLease(t.db.db);
    await lease.start();
    const model = hangingModel(["Half a "]);
    releases.push(model.release);
    const owner = new MemoryLiveReplies();
    const a = instance(owner, model.llm, Date.now, lease.id);
    const { entry } = await sendHanging(a, owner, s.userId, s.characterId);
    const other = instance(
      new MemoryLiveReplies(),
      hangingModel().llm,
      () => Date.now() + STALL_GRACE_MS + 1,
    );
    expect(await other.settleStalledReplies()).toBe(0);
    await lease.stop();
    expect(await other.settleStalledReplies()).toBe(1);
    expect((await entryRow(entry.id)).status).toBe("failed");
  });

  if (!TEST_REDIS_URL) {
    console.warn(
      "SKIPPED settling replies across instances: TEST_REDIS_URL is not set (no Redis server given).",
    );
  }
  describe.skipIf(!TEST_REDIS_URL)("two instances on Redis", () => {
    const live = (leaseMs = 300) => {
      const handle = openRedis(TEST_REDIS_URL, prefix);
      handles.push(handle);
      return new RedisLiveReplies(handle, { leaseMs });
    };
    // B runs the settlement with a clock past the grace period (entries are seconds old).
    const later = () => Date.now() + 10_000;

    it("Stop through B ends a reply generated on A, keeping what was said", async () => {
      const s = await demoWithCharacter(t.app);
      const liveA = live();
      const model = hangingModel(["Once upon ", "a time"]);
      releases.push(model.release);
      const a = instance(liveA, model.llm);
      const b = instance(live(), hangingModel().llm);
      const { entry, sent, end } = await sendHanging(a, liveA, s.userId, s.characterId);
      await until(async () => (await b.live.inspect([entry.id])).get(entry.id)!.text === "Once upon a time");
      expect(await b.stop(await userRow(s.userId), entry.id)).toBe(true);
      const result = await sent;
      expect(result.success).toBe(true);
      expect(english(result.message)).toBe("Stopped.");
      expect(await entryRow(entry.id)).toMatchObject({
        status: "stopped",
        reply_message: "Once upon a time",
      });
      // The streamed request's last event ends its live reply, and with it the lease.
      end();
      await until(async () => !(await b.live.isRunning(entry.id)));
      expect(await b.stop(await userRow(s.userId), entry.id)).toBe(false);
    });

    it("A dies mid-reply: its lease expires and B settles the entry partial, with the streamed text", async () => {
      const s = await demoWithCharacter(t.app);
      const liveA = live();
      const model = hangingModel(["It was a dark ", "and stormy night"]);
      releases.push(model.release);
      const a = instance(liveA, model.llm);
      const b = instance(live(), hangingModel().llm, later);
      const { entry } = await sendHanging(a, liveA, s.userId, s.characterId);
      await until(async () => (await b.live.inspect([entry.id])).get(entry.id)!.text !== "");
      // Alive: A refreshes its lease, B leaves the entry alone.
      await new Promise((resolve) => setTimeout(resolve, 700));
      expect(await b.settleStalledReplies()).toBe(0);
      await liveA.close();
      await until(async () => !(await b.live.isRunning(entry.id)));
      expect(await b.settleStalledReplies()).toBe(1);
      expect(await entryRow(entry.id)).toMatchObject({
        status: "partial",
        reply_message: "It was a dark and stormy night",
      });
    });

    it("A dies before a word: B settles the entry failed and gives the message back", async () => {
      const s = await demoWithCharacter(t.app);
      const before = (await userRow(s.userId)).chat_count;
      const liveA = live();
      const model = hangingModel();
      releases.push(model.release);
      const a = instance(liveA, model.llm);
      const b = instance(live(), hangingModel().llm, later);
      const { entry } = await sendHanging(a, liveA, s.userId, s.characterId);
      expect((await userRow(s.userId)).chat_count).toBe(before + 1);
      await liveA.close();
      await until(async () => !(await b.live.isRunning(entry.id)));
      expect(await b.settleStalledReplies()).toBe(1);
      expect(await entryRow(entry.id)).toMatchObject({ status: "failed", reply_message: "" });
      expect((await userRow(s.userId)).chat_count).toBe(before);
    });
  });
});
