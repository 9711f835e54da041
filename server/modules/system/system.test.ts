import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type DbHandle, openDatabase } from "../../db/index";
import { loadConfig } from "../../env";
import { registerRouteSchemas } from "../../http/route-schemas";
import { createLlm, type ModelDownloadRequest } from "../../providers/llm/index";
import { NOT_CONFIGURED_MESSAGE } from "../../providers/llm/llm";
import { LocalStorage } from "../../providers/storage/local";
import { NoTts } from "../../providers/tts/tts";
import { call, demoLogin, demoWithCharacter } from "../../testing/api";
import { ScriptedLlm } from "../../testing/fake-llm";
import { assertSharedEngines, createTestApp, TEST_STACK, type TestApp } from "../../testing/server";
import { type SystemDeps, systemRoutes } from "./system.routes";

/** Operations: liveness, readiness with named checks, and who may read /metrics. */

describe("health, readiness and metrics of the whole app", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ llm: new ScriptedLlm() });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it("/api/health keeps its fields: version, database and the model's status", async () => {
    const health = await call(t.app, "GET", "/api/health");
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({
      success: 1,
      data: {
        version: expect.any(String),
        // The shared stack runs every app on PostgreSQL.
        database: TEST_STACK === "shared" ? "postgres" : "sqlite",
        llm: { provider: "scripted", ready: true },
      },
    });
  });

  it("/api/ready answers 200 with each check while every check passes", async () => {
    const ready = await call(t.app, "GET", "/api/ready");
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({
      success: 1,
      message: "Ready.",
      data: { shuttingDown: false, checks: { model: { ok: true, ms: expect.any(Number) } } },
    });
    // The database and the storage are asked on every stack; Redis where there is one.
    const passed = { ok: true, ms: expect.any(Number) };
    expect(ready.body.data).toMatchObject({
      checks: { database: passed, storage: passed, ...(TEST_STACK === "shared" ? { redis: passed } : {}) },
    });
  });

  it("exposes the request histogram by route pattern, never by raw URL", async () => {
    await t.app.inject({ method: "GET", url: "/api/auth/oauth/provider-qzxvk/start" });
    await t.app.inject({ method: "GET", url: "/api/no-such-thing/qzxwk" });
    const response = await t.app.inject({ method: "GET", url: "/metrics" });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/plain");
    const text = response.body;
    expect(text).toMatch(
      /companion_http_request_duration_seconds_count\{method="GET",route="\/api\/auth\/oauth\/:platform\/start",status_code="\d+"\} [1-9]/,
    );
    expect(text).toMatch(/route="unmatched",status_code="404"/);
    // Letters, not digits: a metric's value may contain any digits by chance.
    expect(text).not.toContain("qzxvk");
    expect(text).not.toContain("qzxwk");
    // Node's default process metrics come along.
    expect(text).toContain("companion_process_resident_memory_bytes");
    expect(text).toContain("companion_nodejs_eventloop_lag_seconds");
  });

  it("counts chat replies by outcome and quota refusals as chats happen", async () => {
    const counter = async (pattern: RegExp) => {
      const text = (await t.app.inject({ method: "GET", url: "/metrics" })).body;
      return Number(pattern.exec(text)?.[1] ?? 0);
    };
    const replied = /companion_chat_replies_total\{outcome="replied"\} (\d+)/;
    const refused = /companion_quota_refusals_total (\d+)/;
    const before = { replied: await counter(replied), refused: await counter(refused) };
    const user = await demoWithCharacter(t.app);
    const send = () =>
      call(t.app, "POST", "/api/chat/message", {
        token: user.token,
        form: { message: "Hello there", id: user.characterId },
      });
    expect((await send()).body.success).toBe(1);
    expect(await counter(replied)).toBe(before.replied + 1);
    await t.db.db.updateTable("users").set({ chat_limit: 0, extra_messages: 0 }).execute();
    // A write behind the app's back reaches the chat path's caches within 5 s: drop them now.
    t.caches.forgetAll();
    expect((await send()).status).toBe(429);
    expect(await counter(refused)).toBe(before.refused + 1);
  });

  it("answers /metrics to loopback and private addresses only when no token is set", async () => {
    for (const remoteAddress of ["127.0.0.1", "::1", "10.1.2.3", "172.20.0.5", "192.168.1.9", "fd00::7"]) {
      const response = await t.app.inject({ method: "GET", url: "/metrics", remoteAddress });
      expect(response.statusCode, remoteAddress).toBe(200);
    }
    for (const remoteAddress of ["203.0.113.9", "8.8.8.8", "2001:db8::1", "172.32.0.1"]) {
      const response = await t.app.inject({ method: "GET", url: "/metrics", remoteAddress });
      expect(response.statusCode, remoteAddress).toBe(403);
      expect(response.json()).toMatchObject({ success: 0, code: "forbidden" });
    }
  });

  it("refuses /metrics without a token to a request forwarded by a proxy it does not trust", async () => {
    // Without TRUST_PROXY the client behind the proxy is unknown: the proxy's private address does not count.
    const forwarded = await t.app.inject({
      method: "GET",
      url: "/metrics",
      remoteAddress: "10.0.0.2",
      headers: { "x-forwarded-for": "203.0.113.9" },
    });
    expect(forwarded.statusCode).toBe(403);
  });

  it("/api/ready answers 503 once the shutdown has begun; health still answers", async () => {
    t.app.lifecycle.beginShutdown();
    const ready = await call(t.app, "GET", "/api/ready");
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ success: 0, message: "Shutting down.", data: { shuttingDown: true } });
    expect((await call(t.app, "GET", "/api/health")).status).toBe(200);
  });
});

describe("readiness without a language model", () => {
  it("answers 503 naming the model check", async () => {
    const t = await createTestApp();
    try {
      const ready = await call(t.app, "GET", "/api/ready");
      expect(ready.status).toBe(503);
      expect(ready.body).toMatchObject({
        success: 0,
        message: "Not ready: model.",
        data: { checks: { model: { ok: false, failure: "error" } } },
      });
    } finally {
      await t.dispose();
    }
  });
});

describe("chat capabilities while the default model downloads", () => {
  it("add modelDownload with the progress next to the unchanged fields, and drop it when the download ends", async () => {
    // A simulated download (no internet here): the test reports the bytes, then fails it.
    let request: ModelDownloadRequest | undefined;
    let fail!: (error: Error) => void;
    const { llm, ready } = createLlm(
      loadConfig({
        DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), "caps-download-")),
        LLM_AUTO_DOWNLOAD: "1",
      }),
      () => {},
      {
        fetcher: {
          reachable: async () => true,
          download: (r) => {
            request = r;
            return new Promise((_resolve, reject) => {
              fail = reject;
            });
          },
        },
      },
    );
    await expect.poll(() => request).toBeDefined();
    const t = await createTestApp({ llm });
    try {
      const { token } = await demoLogin(t.app);
      const capabilities = async () => {
        const answer = await call(t.app, "GET", "/api/chat/capabilities", { token });
        expect(answer.body.success).toBe(1);
        return answer.body.data as Record<string, unknown>;
      };
      const fields = ["chat", "voiceReplies", "speechInput", "imageRequests", "photoUpload"];

      request!.onProgress(300, 1_200);
      const during = await capabilities();
      expect(Object.keys(during).sort()).toEqual([...fields, "modelDownload"].sort());
      expect(during.chat).toEqual({ enabled: false, reason: expect.stringMatching(/being downloaded/) });
      expect(during.modelDownload).toEqual({ doneBytes: 300, totalBytes: 1_200, percent: 25 });

      request!.onProgress(600, 0);
      expect((await capabilities()).modelDownload).toEqual({
        doneBytes: 600,
        totalBytes: null,
        percent: null,
      });

      fail(new Error("connection reset"));
      await ready;
      const after = await capabilities();
      expect(Object.keys(after).sort()).toEqual([...fields].sort());
      expect(after.chat).toEqual({
        enabled: false,
        reason: expect.stringMatching(/No language model is connected/),
      });
    } finally {
      await t.dispose();
    }
  });
});

describe("chat capabilities while no model is connected", () => {
  it("tell a user to ask the administrator, and an admin to connect one in Admin → Models", async () => {
    // No model configured and none injected (LLM_PROVIDER=none).
    const t = await createTestApp();
    try {
      const chatOf = async (token: string) =>
        ((await call(t.app, "GET", "/api/chat/capabilities", { token })).body.data as { chat: unknown }).chat;
      const guest = await demoLogin(t.app);
      expect(await chatOf(guest.token)).toEqual({ enabled: false, reason: NOT_CONFIGURED_MESSAGE });
      const { user } = await t.accounts.members.add({
        email: "owner@example.com",
        password: "owner-password-1",
        admin: true,
      });
      const admin = (await t.auth.signInAs(user)).token;
      expect(await chatOf(admin)).toEqual({
        enabled: false,
        reason: "No language model is connected yet. As an administrator, connect one in Admin → Models.",
      });
    } finally {
      await t.dispose();
    }
  });
});

describe("system routes with every check and the metrics settings", () => {
  let dir: string;
  let handle: DbHandle;
  let storage: LocalStorage;
  let app: FastifyInstance | undefined;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "companion-system-"));
    handle = openDatabase(":memory:", dir);
    storage = new LocalStorage(dir);
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });
  afterAll(async () => {
    await handle.db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function build(deps: Partial<SystemDeps>): Promise<FastifyInstance> {
    app = Fastify();
    // The zod compilers as the server sets them, answers checked against their schemas.
    await registerRouteSchemas(app, "throw");
    await systemRoutes(
      app,
      { llm: new ScriptedLlm(), tts: new NoTts(), dialect: "sqlite", db: handle.db, storage, ...deps },
      async () => {},
    );
    return app;
  }

  it("checks the database, the storage, the model and the extra named checks", async () => {
    const app = await build({ checks: [{ name: "redis", run: async () => {} }] });
    const ready = await call(app, "GET", "/api/ready");
    expect(ready.status).toBe(200);
    const checks = (ready.body.data as { checks: Record<string, { ok: boolean }> }).checks;
    expect(Object.keys(checks)).toEqual(["database", "storage", "model", "redis"]);
    expect(Object.values(checks).every((check) => check.ok)).toBe(true);
  });

  it("bounds each check by its timeout and says which one failed, without its reason", async () => {
    const hanging = new (class extends LocalStorage {
      override exists = () => new Promise<boolean>(() => {});
    })(dir);
    const app = await build({
      storage: hanging,
      readyTimeoutMs: 100,
      checks: [
        {
          name: "redis",
          run: async () => {
            throw new Error("connect ECONNREFUSED 10.0.0.7:6379");
          },
        },
      ],
    });
    const started = Date.now();
    const ready = await call(app, "GET", "/api/ready");
    expect(Date.now() - started).toBeLessThan(2000);
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({
      success: 0,
      message: "Not ready: storage (timed out), redis.",
      data: {
        checks: {
          database: { ok: true },
          storage: { ok: false, failure: "timeout" },
          model: { ok: true },
          redis: { ok: false, failure: "error" },
        },
      },
    });
    expect(JSON.stringify(ready.body)).not.toContain("ECONNREFUSED");
  });

  it("fails the database check when the database does not answer", async () => {
    // Nothing listens on port 1: the connection is refused at once.
    const down = openDatabase("postgres://companion@127.0.0.1:1/companion", dir);
    try {
      const app = await build({ db: down.db });
      const ready = await call(app, "GET", "/api/ready");
      expect(ready.status).toBe(503);
      expect(ready.body.message).toBe("Not ready: database.");
    } finally {
      await down.db.destroy();
    }
  });

  it("with METRICS_TOKEN asks every client for the bearer token, loopback included", async () => {
    const app = await build({ metrics: { enabled: true, token: "s3cret-token" } });
    const get = (remoteAddress: string, authorization?: string) =>
      app.inject({
        method: "GET",
        url: "/metrics",
        remoteAddress,
        headers: authorization ? { authorization } : {},
      });
    expect((await get("127.0.0.1")).statusCode).toBe(403);
    expect((await get("127.0.0.1", "Bearer wrong")).statusCode).toBe(403);
    expect((await get("203.0.113.9", "Bearer s3cret-token-and-more")).statusCode).toBe(403);
    const allowed = await get("203.0.113.9", "Bearer s3cret-token");
    expect(allowed.statusCode).toBe(200);
    expect(allowed.body).toContain("companion_chat_replies_total");
  });

  it("behind a trusted proxy judges the client's own address", async () => {
    app = Fastify({ trustProxy: true });
    await registerRouteSchemas(app, "throw");
    await systemRoutes(app, { llm: new ScriptedLlm(), tts: new NoTts(), dialect: "sqlite" }, async () => {});
    const get = (client: string) =>
      app!.inject({
        method: "GET",
        url: "/metrics",
        remoteAddress: "10.0.0.2",
        headers: { "x-forwarded-for": client },
      });
    expect((await get("192.168.4.4")).statusCode).toBe(200);
    expect((await get("203.0.113.9")).statusCode).toBe(403);
  });

  it("with METRICS_ENABLED=0 serves no /metrics route", async () => {
    const app = await build({ metrics: { enabled: false, token: "" } });
    expect((await app.inject({ method: "GET", url: "/metrics" })).statusCode).toBe(404);
  });
});

/**
 * "the Redis run fails if anything silently falls back to memory". Every app of the
 * shared-stack run reports its engines (`app.engines`), and createTestApp refuses to hand out one
 * whose state stayed in the process.
 */
describe("the shared stack refuses an engine that stayed embedded", () => {
  it("assertSharedEngines names every embedded engine and passes shared ones (limits may be off)", () => {
    expect(() =>
      assertSharedEngines({
        database: "postgres",
        storage: "s3",
        rateLimits: "off",
        jobs: "bullmq",
        streams: "redis",
      }),
    ).not.toThrow();
    expect(() =>
      assertSharedEngines({
        database: "sqlite",
        storage: "s3",
        rateLimits: "memory",
        jobs: "bullmq",
        streams: "redis",
      }),
    ).toThrow('TEST_STACK=shared, yet database is "sqlite", rateLimits is "memory"');
    expect(() =>
      assertSharedEngines({
        database: "postgres",
        storage: "local",
        rateLimits: "redis",
        jobs: "memory",
        streams: "memory",
      }),
    ).toThrow('storage is "local", jobs is "memory", streams is "memory"');
  });

  if (TEST_STACK !== "shared") console.warn("SKIPPED shared-stack fall-back check: TEST_STACK is not shared");
  it.skipIf(TEST_STACK !== "shared")(
    "an app left without Redis or without S3 does not start on the shared stack",
    async () => {
      await expect(createTestApp({ env: { REDIS_URL: "" } })).rejects.toThrow(
        /jobs is "memory", streams is "memory"/,
      );
      const noS3 = {
        S3_BUCKET: "",
        S3_ENDPOINT: "",
        S3_ACCESS_KEY_ID: "",
        S3_SECRET_ACCESS_KEY: "",
        S3_PREFIX: "",
      };
      await expect(createTestApp({ env: noS3 })).rejects.toThrow(/storage is "local"/);
      // Rate limits on without Redis would be per process too.
      await expect(createTestApp({ env: { REDIS_URL: "", RATE_LIMIT_ENABLED: "1" } })).rejects.toThrow(
        /rateLimits is "memory"/,
      );
    },
  );
});
