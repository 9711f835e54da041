import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { CACHE_TTL_MS } from "../server/db/short-cache";
import { type Cluster, clusterUnavailable, startCluster } from "../server/testing/cluster";
import { type CompletionsRequest, startScriptedCompletions } from "../server/testing/completions-server";
import { makeImage } from "../server/testing/image-servers";
import { waitFor } from "../server/testing/processes";
import { hasRedisServer } from "../server/testing/redis-process";
import { TEST_DATABASE_URL } from "../server/testing/server";
import { api, demoUser, entryRow, printOutputOnFailure, readEvents, sendStreamed } from "./support";

/**
 * The cluster's engines failing under it, as real faults on real processes: two built instances
 * behind nginx on PostgreSQL, a redis-server of the test's own (killed and brought back empty)
 * and an S3 server behind a relay that can freeze. What must hold: no instance exits, at most the
 * requests in flight fail, nothing stored is lost, and every reply left pending is settled.
 */

/** Gets SLOW_REPLY, a word every TOKEN_DELAY_MS. */
const SLOW = "[slow]";
/** The model answers nothing for LATE_MS (an instance dies before the first token). */
const LATE = "[late]";
const LATE_MS = 60_000;
const TOKEN_DELAY_MS = 100;
const SLOW_REPLY = `${Array.from({ length: 60 }, (_, i) => `step${i + 1}`).join(" ")}.`;
const QUICK_REPLY = "Hello there, it is lovely to hear from you again.";
/** Storage calls give up after this long. */
const S3_TIMEOUT_MS = 2000;

const lastUser = (request: CompletionsRequest) =>
  String([...request.messages].reverse().find((m) => m.role === "user")?.content ?? "");
const isExtraction = (request: CompletionsRequest) =>
  String(request.messages[0]?.content ?? "").startsWith("Extract lasting facts");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const unavailable = clusterUnavailable() ?? (hasRedisServer() ? undefined : "redis-server is not installed");
if (unavailable) console.warn(`SKIPPED cluster fault tests: ${unavailable}.`);

describe.skipIf(Boolean(unavailable))("the cluster rides out its engines' faults", () => {
  let cluster: Cluster;
  let model: Awaited<ReturnType<typeof startScriptedCompletions>>;

  beforeAll(async () => {
    model = await startScriptedCompletions(
      async (request) => {
        if (isExtraction(request)) return "[]";
        const said = lastUser(request);
        if (said.includes(LATE)) await sleep(LATE_MS);
        return said.includes(SLOW) ? SLOW_REPLY : QUICK_REPLY;
      },
      {
        tokenDelayMs: (request) => (request.stream && lastUser(request).includes(SLOW) ? TOKEN_DELAY_MS : 0),
      },
    );
    cluster = await startCluster({
      modelBaseUrl: model.baseUrl,
      ownRedis: true,
      freezableStorage: true,
      env: { LLM_TIMEOUT_MS: "90000", S3_TIMEOUT_MS: String(S3_TIMEOUT_MS) },
    });
  }, 120_000);

  afterEach((context) => printOutputOnFailure(context, cluster));

  afterAll(async () => {
    await cluster?.stop();
    await model?.close();
  }, 60_000);

  /** Waits until the entry is no longer pending. @returns its row and when that was seen. */
  const settledRow = (entryId: string, timeoutMs: number) =>
    waitFor(
      async () => {
        const row = await entryRow(cluster, entryId);
        return row && row.status !== "pending" ? { row, at: Date.now() } : undefined;
      },
      timeoutMs,
      () => `entry ${entryId} to leave pending`,
    );

  /** Starts a streamed message on `via`; resolves with the entry's id at its first event. */
  async function startReply(via: string, user: { token: string; characterId: string }, message: string) {
    const response = await sendStreamed(cluster, via, user, message);
    let tokens = 0;
    let entryId = "";
    const entered = new Promise<void>((resolve) => {
      void readEvents(response, (event) => {
        if (event.event === "entry") {
          entryId = String(event.data.chatHistoryUUID);
          resolve();
        }
        if (event.event === "token") tokens += 1;
        return undefined;
      });
    });
    await entered;
    return { entryId, tokens: () => tokens };
  }

  it("an instance killed before the first token: its reply is settled within 20 s", async () => {
    const a = cluster.instance("a");
    const user = await demoUser(cluster, "b");
    const { entryId } = await startReply("a", user, `${LATE} are you there?`);
    await a.kill();
    const killedAt = Date.now();
    const { row, at } = await settledRow(entryId, 30_000);
    expect(row).toMatchObject({ status: "failed", message: `${LATE} are you there?` });
    expect(at - killedAt).toBeLessThan(20_000);
    await a.start();
  }, 90_000);

  it("PostgreSQL connections terminated three times under 20 users: no instance exits, only requests in flight fail", async () => {
    const users = await Promise.all(Array.from({ length: 20 }, () => demoUser(cluster, "both")));
    // A demo's 15 messages a day would run out within the run.
    await cluster.query("update users set chat_limit = 100000 where id = any($1)", [
      users.map((u) => u.userId),
    ]);
    await sleep(CACHE_TTL_MS + 500); // until the instances' cached sessions hold the new limit
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    admin.on("error", () => {});
    await admin.connect();
    const database = new URL(cluster.databaseUrl).pathname.slice(1);
    const terminations: number[] = [];
    const outcomes: Array<{
      start: number;
      end: number;
      ok: boolean;
      entryId: string;
      message: string;
      detail: string;
    }> = [];
    const began = Date.now();
    const until = began + 11_000;
    const chatter = users.map(async (user, u) => {
      for (let n = 0; Date.now() < until; n += 1) {
        const message = `user ${u} message ${n}`;
        const start = Date.now();
        let ok = false;
        let entryId = "";
        let detail = "";
        try {
          const response = await sendStreamed(cluster, "both", user, message);
          const { events } = await readEvents(response);
          entryId = String(events.find((e) => e.event === "entry")?.data.chatHistoryUUID ?? "");
          ok = events.at(-1)?.event === "done" && events.at(-1)?.data.success === 1;
          detail = `${response.status} ${JSON.stringify(events.at(-1) ?? null).slice(0, 200)}`;
        } catch (error) {
          detail = String(error);
        }
        outcomes.push({ start: start - began, end: Date.now() - began, ok, entryId, message, detail });
      }
    });
    for (const at of [2000, 4500, 7000]) {
      await sleep(began + at - Date.now());
      terminations.push(Date.now() - began);
      await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
        [database],
      );
    }
    await Promise.all(chatter);
    await admin.end();

    expect(cluster.instances.map((i) => i.running)).toEqual([true, true]);
    for (const instance of cluster.instances)
      expect(instance.output()).not.toMatch(/Unhandled 'error' event/);
    // A failure is a request in flight at a termination or started within 2 s of one.
    const failed = outcomes.filter((o) => !o.ok);
    const stray = failed.filter((o) => !terminations.some((t) => o.start <= t + 2000 && o.end >= t));
    const afterLast = outcomes.filter((o) => o.start > terminations.at(-1)! + 2000);
    console.log(
      `PostgreSQL terminated at ${terminations.join(", ")} ms: ${outcomes.length} messages, ${failed.length} failed`,
    );
    if (stray.length > 0) console.log(JSON.stringify({ terminations, stray: stray.slice(0, 10) }, null, 1));
    expect(stray).toEqual([]);
    expect(afterLast.length).toBeGreaterThan(0);
    expect(afterLast.every((o) => o.ok)).toBe(true);
    expect(outcomes.filter((o) => o.ok).length).toBeGreaterThan(failed.length);
    // Nothing lost: every message the server took (its entry announced) is stored with its words,
    // and every answered one with the whole reply. Its status is "replied", or "partial" when the
    // connection of the reply's own final write was terminated (a write is not run twice): the
    // reply is then kept by the next write, marked cut short.
    for (const outcome of outcomes.filter((o) => o.entryId)) {
      const row = await entryRow(cluster, outcome.entryId);
      expect(row?.message).toBe(outcome.message);
      if (!outcome.ok) continue;
      expect(row?.reply_message).toBe(QUICK_REPLY);
      expect(["replied", "partial"]).toContain(row?.status);
    }
  }, 120_000);

  it("Redis restarted empty: every schedule is declared again and a stalled reply is settled", async () => {
    const a = cluster.instance("a");
    const user = await demoUser(cluster, "b");
    const reply = await startReply("a", user, `${SLOW} tell me everything`);
    await waitFor(
      () => (reply.tokens() >= 3 ? true : undefined),
      10_000,
      () => "three tokens",
    );
    await cluster.redis!.restartEmpty();
    await a.kill();
    const killedAt = Date.now();
    const { row, at } = await settledRow(reply.entryId, 40_000);
    expect(["partial", "failed"]).toContain(row.status);
    expect(at - killedAt).toBeLessThan(30_000);
    // Every schedule is back in the empty Redis (each runs again within its period).
    const { Queue } = await import("bullmq");
    const queue = new Queue("background", {
      connection: { host: "127.0.0.1", port: cluster.redis!.port, maxRetriesPerRequest: 1 },
      prefix: `${cluster.redisPrefix}jobs`,
    });
    try {
      const names = (await queue.getJobSchedulers()).map((s) => s.key).sort();
      expect(names).toEqual(
        expect.arrayContaining([
          "account.expire-exports",
          "auth.remove-expired-demo-users",
          "chat.settle-stalled-replies",
          "checkins.send-due",
          "payments.expire-ended-plans",
        ]),
      );
    } finally {
      await queue.close();
    }
    // Sends and streams work again.
    const next = await sendStreamed(cluster, "b", user, "Still there?");
    expect((await readEvents(next)).events.at(-1)).toMatchObject({ event: "done", data: { success: 1 } });
    await a.start();
  }, 120_000);

  it("storage frozen: an upload answers 503 with Retry-After within the timeout; it works again after", async () => {
    const user = await demoUser(cluster, "a");
    await cluster.query("update users set image_generation = 1 where id = $1", [user.userId]);
    const photo = new Uint8Array(await makeImage(320, 240, "jpeg"));
    const upload = () => {
      const form = new FormData();
      form.set("id", user.characterId);
      form.set("message", "my new bike");
      form.set("photo", new Blob([photo], { type: "image/jpeg" }), "me.jpg");
      return api(cluster, "a", "POST", "/api/chat/photo-process", { token: user.token, form });
    };
    await cluster.storageRelay!.set("hang");
    try {
      const started = Date.now();
      const refused = await upload();
      expect(Date.now() - started).toBeLessThan(S3_TIMEOUT_MS * 3 + 3000);
      expect(refused.status).toBe(503);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(refused.body).toMatchObject({ success: 0, code: "storage_unavailable" });
    } finally {
      await cluster.storageRelay!.set("pass");
    }
    const accepted = await upload();
    expect(accepted.body).toMatchObject({ success: 1 });
    expect(cluster.instances.map((i) => i.running)).toEqual([true, true]);
  }, 60_000);
});
