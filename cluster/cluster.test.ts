import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ChatHistoryEntry } from "../common/api";
import { SEED_PLANS } from "../server/db/seed-data";
import { FACTS_BATCH } from "../server/modules/memory/memory.service";
import {
  type Cluster,
  type ClusterInstance,
  clusterUnavailable,
  startCluster,
} from "../server/testing/cluster";
import { type CompletionsRequest, startScriptedCompletions } from "../server/testing/completions-server";
import { type ImageDouble, makeImage, startImageDouble } from "../server/testing/image-servers";
import { waitFor } from "../server/testing/processes";
import {
  api,
  demoUser,
  entryRow,
  printOutputOnFailure,
  readEvents,
  sendStreamed,
  tokenText,
} from "./support";

/**
 * The cluster test: two instances of the built server behind a real nginx, on one
 * PostgreSQL database, Redis and an S3 server, with a scripted model and an image engine in this
 * process. Everything goes through the proxy; a header picks the instance where a test needs to.
 */

/** A user message holding this gets a slow reply (SLOW_REPLY, a word every TOKEN_DELAY_MS). */
const SLOW = "[slow]";
const TOKEN_DELAY_MS = 100;
const SLOW_REPLY = `${Array.from({ length: 40 }, (_, i) => `step${i + 1}`).join(" ")}.`;
const QUICK_REPLY = "Hello there, it is lovely to hear from you again.";
const FACTS = '["The user has a dog named Rex."]';
/** Replies are cut after this long (a killed instance's reply must be settled soon after). */
const LLM_TIMEOUT_MS = 8000;

const lastUser = (request: CompletionsRequest) =>
  String([...request.messages].reverse().find((m) => m.role === "user")?.content ?? "");
const isExtraction = (request: CompletionsRequest) =>
  String(request.messages[0]?.content ?? "").startsWith("Extract lasting facts");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const unavailable = clusterUnavailable();
if (unavailable) console.warn(`SKIPPED cluster test: ${unavailable}.`);

describe.skipIf(Boolean(unavailable))("two instances behind nginx", () => {
  let cluster: Cluster;
  let model: Awaited<ReturnType<typeof startScriptedCompletions>>;
  let images: ImageDouble;

  beforeAll(async () => {
    model = await startScriptedCompletions(
      (request) =>
        isExtraction(request) ? FACTS : lastUser(request).includes(SLOW) ? SLOW_REPLY : QUICK_REPLY,
      {
        tokenDelayMs: (request) => (request.stream && lastUser(request).includes(SLOW) ? TOKEN_DELAY_MS : 0),
      },
    );
    images = await startImageDouble("automatic1111");
    cluster = await startCluster({
      modelBaseUrl: model.baseUrl,
      env: {
        RATE_LIMIT_ENABLED: "1",
        LLM_TIMEOUT_MS: String(LLM_TIMEOUT_MS),
        IMAGE_PROVIDER: "automatic1111",
        IMAGE_BASE_URL: images.baseUrl,
        IMAGE_PORTRAIT_SIZE: "256x384",
        IMAGE_LANDSCAPE_SIZE: "384x256",
      },
    });
  }, 120_000);

  afterEach((context) => printOutputOnFailure(context, cluster));

  afterAll(async () => {
    await cluster?.stop();
    await model?.close();
    await images?.close();
  }, 60_000);

  const history = async (via: string, user: { token: string; characterId: string }) =>
    (
      (await api(cluster, via, "GET", `/api/chat/history?id=${user.characterId}`, { token: user.token })).body
        .data as {
        data: ChatHistoryEntry[];
      }
    ).data;

  it("the main journey works through the round robin of both instances", async () => {
    const served = new Set<string | undefined>();
    const user = await demoUser(cluster, "both");
    const list = await api(cluster, "both", "GET", `/api/characters/list/?id=${user.userId}`, {
      token: user.token,
    });
    served.add(list.servedBy);
    expect((list.body.data as Array<{ characterUUID: string }>).map((c) => c.characterUUID)).toContain(
      user.characterId,
    );
    const response = await sendStreamed(cluster, "both", user, "Hi, how are you today?");
    served.add(cluster.servedBy(response));
    const { events } = await readEvents(response);
    expect(events[0]?.event).toBe("entry");
    expect(tokenText(events)).toBe(QUICK_REPLY);
    expect(events.at(-1)).toMatchObject({ event: "done", data: { success: 1, text: QUICK_REPLY } });
    for (let i = 0; i < 2; i += 1) {
      const shown = await api(cluster, "both", "GET", `/api/chat/history?id=${user.characterId}`, {
        token: user.token,
      });
      served.add(shown.servedBy);
      const entries = (shown.body.data as { data: ChatHistoryEntry[] }).data;
      expect(entries.at(-1)).toMatchObject({
        chatHistoryMessage: "Hi, how are you today?",
        chatHistoryReplyMessage: QUICK_REPLY,
        chatHistoryStatus: "replied",
      });
    }
    expect([...served].sort()).toEqual(["a", "b"]);
  }, 30_000);

  it("a photo uploaded through A is read through B", async () => {
    const user = await demoUser(cluster, "a");
    await cluster.query("update users set image_generation = 1 where id = $1", [user.userId]);
    const form = new FormData();
    form.set("id", user.characterId);
    form.set("message", "my new bike");
    form.set(
      "photo",
      new Blob([new Uint8Array(await makeImage(640, 480, "jpeg"))], { type: "image/jpeg" }),
      "me.jpg",
    );
    const upload = await api(cluster, "a", "POST", "/api/chat/photo-process", { token: user.token, form });
    expect(upload.servedBy).toBe("a");
    expect(upload.body).toMatchObject({ success: 1 });
    const cookie = upload.headers
      .getSetCookie()
      .find((c) => c.startsWith("chat_content="))
      ?.split(";")[0];
    expect(cookie).toBeDefined();
    const url = `/content/${user.characterId}/user_photo/${String(upload.body.photo)}`;
    const fromA = await cluster.fetch("a", url, { headers: { cookie: cookie! } });
    const fromB = await cluster.fetch("b", url, { headers: { cookie: cookie! } });
    expect([fromA.status, fromB.status]).toEqual([200, 200]);
    expect(cluster.servedBy(fromB)).toBe("b");
    const bytes = Buffer.from(await fromB.arrayBuffer());
    expect(bytes.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    expect(bytes.equals(Buffer.from(await fromA.arrayBuffer()))).toBe(true);
    // Still authorised on B: without the cookie, nothing.
    expect((await cluster.fetch("b", url)).status).toBe(404);
  }, 30_000);

  it("the sign-in limit per address is reached across A and B together", async () => {
    // auth.routes.ts: 30 sign-ins per address in 15 minutes (each e-mail here is new, so the
    // per-e-mail limit of 10 is never the one met).
    const attempt = (via: string, k: number) =>
      api(cluster, via, "POST", "/api/auth/login", {
        form: { email: `nobody-${k}@example.com`, password: "not the password" },
      });
    const servedBy: Record<string, number> = {};
    // Two at a time, one on each instance (each attempt costs a password hash).
    for (let k = 0; k < 30; k += 2) {
      for (const answer of await Promise.all([attempt("a", k), attempt("b", k + 1)])) {
        expect(answer.status, `attempt ${k + 1}`).not.toBe(429);
        servedBy[answer.servedBy!] = (servedBy[answer.servedBy!] ?? 0) + 1;
      }
    }
    expect(servedBy).toEqual({ a: 15, b: 15 });
    for (const via of ["a", "b"]) {
      const refused = await attempt(via, 100);
      expect(refused.servedBy).toBe(via);
      expect(refused.status).toBe(429);
      expect(refused.body.message).toMatch(/Too many attempts/);
    }
  }, 60_000);

  it("a reply started on A is followed to the end from B after a reload (Last-Event-ID)", async () => {
    const user = await demoUser(cluster, "both");
    const first = await sendStreamed(cluster, "a", user, `${SLOW} tell me a long story`);
    expect(cluster.servedBy(first)).toBe("a");
    let entryId = "";
    let tokens = 0;
    const before = await readEvents(first, (e) => {
      if (e.event === "entry") entryId = String(e.data.chatHistoryUUID);
      // The page reloads after the third token: the stream is closed.
      return e.event === "token" && ++tokens === 3 ? "stop" : undefined;
    });
    const lastId = before.events.at(-1)?.id;
    expect(lastId, "events carry ids").toBeDefined();
    const resumed = await cluster.fetch("b", `/api/chat/stream?id=${entryId}`, {
      headers: {
        authorization: `Bearer ${user.token}`,
        accept: "text/event-stream",
        "last-event-id": lastId!,
      },
    });
    expect(resumed.status).toBe(200);
    expect(cluster.servedBy(resumed)).toBe("b");
    const after = await readEvents(resumed);
    expect(after.cut).toBe(false);
    expect(after.events.at(-1)).toMatchObject({ event: "done", data: { success: 1 } });
    // Nothing lost, nothing twice: the tokens before and after the reload are the whole reply.
    expect(tokenText(before.events) + tokenText(after.events)).toBe(SLOW_REPLY);
    const ids = [...before.events, ...after.events].map((e) => Number(e.id));
    expect(ids.every((id, i) => Number.isFinite(id) && (i === 0 || id > ids[i - 1]!))).toBe(true);
    expect(await entryRow(cluster, entryId)).toMatchObject({ status: "replied", reply_message: SLOW_REPLY });
  }, 30_000);

  it("Stop sent through B ends a reply generated on A", async () => {
    const user = await demoUser(cluster, "both");
    const response = await sendStreamed(cluster, "a", user, `${SLOW} keep talking`);
    let entryId = "";
    let tokens = 0;
    let stop: Awaited<ReturnType<typeof api>> | undefined;
    const { events } = await readEvents(response, async (e) => {
      if (e.event === "entry") entryId = String(e.data.chatHistoryUUID);
      if (e.event === "token" && ++tokens === 3)
        stop = await api(cluster, "b", "POST", "/api/chat/stop", {
          token: user.token,
          form: { id: entryId },
        });
      return undefined;
    });
    expect(stop?.servedBy).toBe("b");
    expect(stop?.body.message).toBe("Stopped.");
    expect(events.at(-1)).toMatchObject({ event: "done", data: { message: "Stopped." } });
    expect(tokens).toBeLessThan(30);
    const row = await entryRow(cluster, entryId);
    expect(row?.status).toBe("stopped");
    expect(SLOW_REPLY.startsWith(row!.reply_message.trim())).toBe(true);
  }, 30_000);

  it("a picture job and a memory job each run exactly once across both instances", async () => {
    const user = await demoUser(cluster, "both");
    await cluster.query("update users set image_generation = 1 where id = $1", [user.userId]);
    const drawnBefore = images.drawn.length;
    const asks = ["a portrait in the park", "a portrait at the beach", "a portrait in the snow"];
    const answers = await Promise.all(
      asks.map((message) => {
        const form = new FormData();
        for (const [k, v] of Object.entries({
          message,
          id: user.characterId,
          cid: user.characterId,
          mute: "1",
        }))
          form.set(k, v);
        form.set("type", "1");
        return api(cluster, "both", "POST", "/api/chat/request-photo", { token: user.token, form });
      }),
    );
    expect(answers.map((a) => a.body.success)).toEqual([1, 1, 1]);
    await waitFor(
      async () => {
        const done = (await history("both", user)).filter((e) => e.chatHistoryReplyImage);
        return done.length >= 3 ? true : undefined;
      },
      30_000,
      () => "three pictures in the history",
    );

    // Facts are extracted once per batch of FACTS_BATCH messages: one job, whichever
    // instance queued it and however many workers share the queue.
    const facts = [
      "I have a dog named Rex",
      "My sister lives in Lisbon now",
      "I work as a baker in town",
      "I am learning to play the cello",
      "My birthday is in early March",
      "I moved here from Porto last year",
    ].slice(0, FACTS_BATCH);
    const extractionsBefore = model.requests.filter(isExtraction).length;
    for (const message of facts) {
      const { events } = await readEvents(await sendStreamed(cluster, "both", user, message));
      expect(events.at(-1)?.event).toBe("done");
    }
    await waitFor(
      async () => (model.requests.filter(isExtraction).length > extractionsBefore ? true : undefined),
      30_000,
      () => "a fact extraction",
    );
    // Time for a second worker to run any job twice.
    await sleep(3000);
    expect(images.drawn.length - drawnBefore).toBe(3);
    const extracted = model.requests.filter(isExtraction).slice(extractionsBefore).map(lastUser);
    expect(extracted).toHaveLength(1);
    for (const fact of facts) expect(extracted[0]).toContain(fact);
    const memories = await api(cluster, "b", "GET", `/api/chat/memories?id=${user.characterId}`, {
      token: user.token,
    });
    expect((memories.body.data as unknown[]).length).toBeGreaterThan(0);
  }, 90_000);

  it("A killed in the middle of a reply: the message is kept, the reply settled, B answers the next", async () => {
    const a = cluster.instance("a");
    const user = await demoUser(cluster, "b");
    const response = await sendStreamed(cluster, "a", user, `${SLOW} what happened next`);
    let entryId = "";
    let tokens = 0;
    const read = await readEvents(response, async (e) => {
      if (e.event === "entry") entryId = String(e.data.chatHistoryUUID);
      if (e.event === "token" && ++tokens === 3) await a.kill();
      return undefined;
    });
    expect(a.running).toBe(false);
    expect(read.events.some((e) => e.event === "done")).toBe(false);
    const settled = await waitFor(
      async () => {
        const row = await entryRow(cluster, entryId);
        return row && row.status !== "pending" ? row : undefined;
      },
      LLM_TIMEOUT_MS + 40_000,
      () => "the cut reply to leave pending",
    );
    expect(["partial", "failed"]).toContain(settled.status);
    expect(settled.message).toBe(`${SLOW} what happened next`);

    const next = await sendStreamed(cluster, "b", user, "Are you still there?");
    expect(cluster.servedBy(next)).toBe("b");
    expect((await readEvents(next)).events.at(-1)).toMatchObject({ event: "done", data: { success: 1 } });
    // The newest two entries (the character's greeting comes first).
    const entries = (await history("b", user)).slice(-2);
    expect(entries.map((e) => e.chatHistoryMessage)).toEqual([
      `${SLOW} what happened next`,
      "Are you still there?",
    ]);
    expect(entries.map((e) => e.chatHistoryStatus)).toEqual([settled.status, "replied"]);
    await a.start();
  }, 90_000);
});

describe.skipIf(Boolean(unavailable))("a new deployment", () => {
  let model: Awaited<ReturnType<typeof startScriptedCompletions>>;
  let cluster: Cluster | undefined;
  beforeAll(async () => {
    model = await startScriptedCompletions(() => QUICK_REPLY);
  });
  afterEach(async () => {
    await cluster?.stop();
    cluster = undefined;
  }, 60_000);
  afterAll(() => model?.close());

  it("replicas start together on an empty database and seed it once", async () => {
    // As `docker compose up` starts the replicas: both migrate and seed the new database.
    cluster = await startCluster({ modelBaseUrl: model.baseUrl, startTogether: true });
    const plans = await cluster.query<{ n: number }>("select count(*)::int as n from plans");
    expect(plans[0]?.n).toBe(SEED_PLANS.length);
    expect((await demoUser(cluster, "both")).characterId).toBeTruthy();
  }, 90_000);

  it("the demo clean-up runs once across the cluster", async () => {
    // No workers at first (JOB_WORKERS=0): the scheduled jobs have not started anywhere.
    cluster = await startCluster({ modelBaseUrl: model.baseUrl, env: { JOB_WORKERS: "0" } });
    const [a, b] = cluster.instances as [ClusterInstance, ClusterInstance];
    const expire = async () => {
      const user = await demoUser(cluster!, "both");
      await cluster!.query("update users set expires_at = $1 where id = $2", [
        Date.now() - 60_000,
        user.userId,
      ]);
      return user.userId;
    };
    const exists = async (id: string) =>
      (await cluster!.query("select id from users where id = $1", [id])).length > 0;
    const first = await expire();
    // A takes up the work: the clean-up's schedule starts and runs at once.
    await a.restart({ JOB_WORKERS: "1" });
    await waitFor(
      async () => ((await exists(first)) ? undefined : true),
      30_000,
      () => "the first expired demo user to be removed",
    );
    // B joins: the schedule is the cluster's, already started; the next run is an hour away.
    const second = await expire();
    await b.restart({ JOB_WORKERS: "1" });
    await sleep(3000);
    expect(await exists(second)).toBe(true);
    const lines = cluster.instances.map((i) => i.output().match(/Removed \d+ expired demo users/g) ?? []);
    expect(lines).toEqual([["Removed 1 expired demo users"], []]);
  }, 90_000);
});
