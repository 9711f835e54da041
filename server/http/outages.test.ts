import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import SQLite from "better-sqlite3";
import Fastify, { type FastifyBaseLogger } from "fastify";
import { Redis, type RedisOptions } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { isOutageCode, OUTAGE_CODES } from "../../common/errors";
import { AppError } from "../errors";
import type { LiveReplies } from "../modules/chat/live-replies";
import { StreamedReply } from "../modules/chat/reply-stream";
import { fetchWithTimeout } from "../providers/http";
import type { RedisHandle } from "../providers/redis/redis";
import { S3Storage } from "../providers/storage/s3";
import { StorageTimeoutError } from "../providers/storage/storage";
import { testConfig } from "../testing/server";
import { failBody, failStatus } from "./envelope";
import { classifyOutage, OUTAGE_MESSAGE, OutageError, outageEventData } from "./outages";
import { redisLimitStore } from "./rate-limit";
import { registerPlugins } from "./setup";
import type { EventStream } from "./sse";

/**
 * The outage classification (server/http/outages.ts) on the errors the engines' clients really
 * throw when their server is down or silent (ioredis, the S3 SDK through S3Storage, node-postgres,
 * better-sqlite3, the file system), none of which may pass for one of ours ("internal") and none
 * of a remote provider's failures that may pass for the database's; the error handler's answer
 * and single log line; the `error` event of a reply stream; the rate limiter's store failing
 * closed at once while its Redis connection is down.
 */

/** A TCP port nobody listens on right now (the OS picks it). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = (server.address() as net.AddressInfo) ?? { port: 0 };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The rejection of `work` (fails the test when it resolves). */
async function rejection(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error("expected a failure");
}

/** An ioredis client on a closed port with `options`, and the error its GET fails with. */
async function redisError(options: RedisOptions): Promise<unknown> {
  const client = new Redis(await closedPort(), "127.0.0.1", options);
  client.on("error", () => {});
  try {
    return await rejection(client.get("key"));
  } finally {
    client.disconnect();
  }
}

describe("what ioredis throws while Redis is down is a Redis outage", () => {
  it("the offline queue's refusal (enableOfflineQueue false)", async () => {
    const error = await redisError({ enableOfflineQueue: false, retryStrategy: () => 50 });
    expect(String(error)).toContain("Stream isn't writeable");
    expect(classifyOutage(error)).toMatchObject({
      engine: "redis",
      code: "redis_unavailable",
      retryAfter: 5,
    });
  });

  it("MaxRetriesPerRequestError", async () => {
    const error = await redisError({ maxRetriesPerRequest: 0, retryStrategy: () => 50 });
    expect((error as Error).name).toBe("MaxRetriesPerRequestError");
    expect(classifyOutage(error)?.engine).toBe("redis");
  });

  it("the command time limit (the server's own settings: commandTimeout)", async () => {
    const error = await redisError({ commandTimeout: 100, retryStrategy: () => 50 });
    expect((error as Error).message).toBe("Command timed out");
    expect(classifyOutage(error)?.engine).toBe("redis");
  });

  it("a closed connection", async () => {
    const client = new Redis(await closedPort(), "127.0.0.1", { lazyConnect: true });
    client.on("error", () => {});
    client.disconnect();
    const error = await rejection(client.get("key"));
    expect((error as Error).message).toBe("Connection is closed.");
    expect(classifyOutage(error)?.engine).toBe("redis");
  });
});

describe("what the storage throws when the object store is down or silent is a storage outage", () => {
  const servers: Array<http.Server | net.Server> = [];
  const sockets = new Set<net.Socket>();
  afterAll(() => {
    for (const socket of sockets) socket.destroy();
    for (const server of servers) server.close();
  });

  async function listen(server: http.Server | net.Server): Promise<string> {
    servers.push(server);
    server.on("connection", (socket: net.Socket) => {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  }

  const bucket = (endpoint: string, timeoutMs: number) =>
    new S3Storage({
      bucket: "content",
      endpoint,
      region: "us-east-1",
      accessKeyId: "key",
      secretAccessKey: "secret",
      forcePathStyle: true,
      prefix: "",
      timeoutMs,
    });
  /** An S3 endpoint answering every request with `status` and an S3 error document. */
  const answering = (status: number, code: string) =>
    listen(
      http.createServer((_request, response) => {
        response.writeHead(status, { "content-type": "application/xml" });
        response.end(`<?xml version="1.0"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`);
      }),
    );

  it("connection refused", async () => {
    const error = await rejection(
      bucket(`http://127.0.0.1:${await closedPort()}`, 5000).put("a/b.jpg", Buffer.from("x")),
    );
    expect((error as { code?: string }).code).toBe("ECONNREFUSED");
    // A refused connection is the storage's here, not the database's.
    expect(classifyOutage(error)).toMatchObject({ engine: "storage", code: "storage_unavailable" });
  });

  it("no answer within S3_TIMEOUT_MS: StorageTimeoutError, for a call and for a stream's headers", async () => {
    const silent = await listen(net.createServer(() => {}));
    const started = performance.now();
    const put = await rejection(bucket(silent, 300).put("a/b.jpg", Buffer.from("x")));
    expect(performance.now() - started).toBeLessThan(2000);
    expect(put).toBeInstanceOf(StorageTimeoutError);
    expect((put as Error).message).toBe("Storage PutObject timed out after 300 ms");
    expect(classifyOutage(put)?.engine).toBe("storage");
    const stream = await rejection(bucket(silent, 300).stream("a/b.jpg"));
    expect(stream).toBeInstanceOf(StorageTimeoutError);
    expect(classifyOutage(stream)?.engine).toBe("storage");
  });

  it("the store answers 503 (SlowDown) or 500, but not 403: a refusal is a configuration error of ours", async () => {
    const slowDown = await rejection(
      bucket(await answering(503, "SlowDown"), 10_000).put("a/b.jpg", Buffer.from("x")),
    );
    expect(classifyOutage(slowDown)?.engine).toBe("storage");
    const internal = await rejection(bucket(await answering(500, "InternalError"), 10_000).read("a/b.jpg"));
    expect(classifyOutage(internal)?.engine).toBe("storage");
    const denied = await rejection(
      bucket(await answering(403, "AccessDenied"), 10_000).put("a/b.jpg", Buffer.from("x")),
    );
    expect((denied as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode).toBe(403);
    expect(classifyOutage(denied)).toBeUndefined();
  });

  it.skipIf(!fs.existsSync("/dev/full"))("a full local disk (ENOSPC)", async () => {
    const error = await rejection(fs.promises.writeFile("/dev/full", "x"));
    expect((error as { code?: string }).code).toBe("ENOSPC");
    expect(classifyOutage(error)?.engine).toBe("storage");
  });
});

describe("the database's lost connections are database outages; other failures are not outages", () => {
  it("node-postgres on a server that refuses connections", async () => {
    const client = new pg.Client({ host: "127.0.0.1", port: await closedPort(), user: "x", database: "x" });
    const error = await rejection(client.connect());
    expect(classifyOutage(error)).toMatchObject({ engine: "database", code: "database_unavailable" });
  });

  it("a session the server ended (SQLSTATE 57P01)", () => {
    const ended = Object.assign(new Error("terminating connection due to administrator command"), {
      severity: "FATAL",
      code: "57P01",
    });
    expect(classifyOutage(ended)).toMatchObject({
      engine: "database",
      reason: "57P01 terminating connection due to administrator command",
    });
    expect(classifyOutage(new Error("Connection terminated unexpectedly"))?.engine).toBe("database");
  });

  it("SQLite on a full disk (SQLITE_FULL), but not a busy lock (SQLITE_BUSY)", () => {
    const db = new SQLite(":memory:");
    db.pragma("max_page_count = 2");
    db.exec("create table t (v text)");
    let full: unknown;
    try {
      for (let i = 0; i < 100; i++) db.prepare("insert into t values (?)").run("x".repeat(4000));
    } catch (error) {
      full = error;
    } finally {
      db.close();
    }
    expect((full as { code?: string }).code).toBe("SQLITE_FULL");
    expect(classifyOutage(full)?.engine).toBe("database");
    expect(
      classifyOutage(Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" })),
    ).toBeUndefined();
  });

  it("a remote provider that cannot be reached is not the database", async () => {
    const error = await rejection(fetchWithTimeout(`http://127.0.0.1:${await closedPort()}/v1/images`));
    expect((error as Error).name).toBe("ProviderHttpError");
    expect(classifyOutage(error)).toBeUndefined();
  });

  it("errors of ours, AppErrors and thrown non-errors are not outages; causes are followed", () => {
    expect(classifyOutage(new Error("Cannot read properties of undefined"))).toBeUndefined();
    expect(classifyOutage("Connection is closed.")).toBeUndefined();
    expect(classifyOutage(null)).toBeUndefined();
    expect(classifyOutage(new AppError("bad_request", "Command timed out", undefined))).toBeUndefined();
    const wrapped = new Error("could not save the photo", {
      cause: new StorageTimeoutError("PutObject", 100),
    });
    expect(classifyOutage(wrapped)?.engine).toBe("storage");
    expect(classifyOutage(new OutageError("redis", "down"))?.engine).toBe("redis");
  });
});

describe("the answer of an outage", () => {
  it("the failure envelope: 503, the code, the outage sentence; the codes are 503 outage codes", () => {
    const timeout = new StorageTimeoutError("PutObject", 100);
    expect(failStatus(timeout)).toBe(503);
    expect(failBody(timeout)).toEqual({ success: 0, message: OUTAGE_MESSAGE, code: "storage_unavailable" });
    expect(OUTAGE_CODES.every(isOutageCode)).toBe(true);
    expect(isOutageCode("internal")).toBe(false);
  });

  describe("the error handler", () => {
    const lines: Array<Record<string, unknown>> = [];
    const app = Fastify({
      logger: {
        level: "info",
        stream: new Writable({
          write(chunk, _encoding, done) {
            for (const line of String(chunk).split("\n").filter(Boolean)) lines.push(JSON.parse(line));
            done();
          },
        }),
      },
    });
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "outages-handler-"));
    beforeAll(async () => {
      await registerPlugins(app, testConfig(dataDir, ""));
      app.get("/api/upload", async () => {
        throw new StorageTimeoutError("PutObject", 30_000, { cause: new Error("Request aborted") });
      });
      app.get("/api/bug", async () => {
        throw new Error("a bug of ours");
      });
      await app.ready();
    });
    afterAll(async () => {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it("answers 503 with Retry-After in the request's language and logs one line naming the engine, no stack", async () => {
      lines.length = 0;
      const answer = await app.inject({
        method: "GET",
        url: "/api/upload",
        headers: { "accept-language": "pt" },
      });
      expect(answer.statusCode).toBe(503);
      expect(answer.headers["retry-after"]).toBe("5");
      expect(answer.json()).toEqual({
        success: 0,
        code: "storage_unavailable",
        message: "O serviço está momentaneamente indisponível. Tente novamente dentro de alguns segundos.",
      });
      const logged = lines.filter((line) => line.level === 50);
      expect(logged).toEqual([
        expect.objectContaining({
          msg: "storage unavailable",
          engine: "storage",
          code: "storage_unavailable",
          reason: "Storage PutObject timed out after 30000 ms",
        }),
      ]);
      expect(JSON.stringify(logged)).not.toContain("stack");
    });

    it("a bug of ours stays a 500 with its stack in the log", async () => {
      lines.length = 0;
      const answer = await app.inject({ method: "GET", url: "/api/bug" });
      expect(answer.statusCode).toBe(500);
      expect(answer.headers["retry-after"]).toBeUndefined();
      expect(answer.json()).toMatchObject({ code: "internal" });
      expect(JSON.stringify(lines.filter((line) => line.level === 50))).toContain("stack");
    });
  });

  it("a reply stream that meets an outage ends with an error event carrying its code and 503, logged once without a stack", () => {
    const sent: Array<{ event: string; data: unknown }> = [];
    const events: EventStream = {
      send: (event, data) => sent.push({ event, data }),
      fail: () => {},
      end: () => {},
      open: true,
    };
    const log = { error: vi.fn() } as unknown as FastifyBaseLogger;
    const lost = Object.assign(new Error("terminating connection due to administrator command"), {
      code: "57P01",
    });
    new StreamedReply(events, {} as LiveReplies).fail(lost, log);
    expect(sent).toEqual([
      {
        event: "error",
        data: { success: 0, code: "database_unavailable", message: OUTAGE_MESSAGE, status: 503 },
      },
    ]);
    expect(log.error).toHaveBeenCalledTimes(1);
    expect(vi.mocked(log.error).mock.calls[0]?.[0]).toEqual({
      engine: "database",
      code: "database_unavailable",
      reason: "57P01 terminating connection due to administrator command",
    });
    expect(outageEventData(new Error("a bug of ours"), log)).toBeUndefined();
    expect(log.error).toHaveBeenCalledTimes(1);
  });
});

describe("the rate limiter's Redis store fails closed", () => {
  /** A stand-in for the ioredis client: rate-limiter-flexible defines its Lua command on it. */
  function fakeRedis(status: string) {
    const calls: string[] = [];
    const client = {
      status,
      defineCommand(name: string) {
        (client as unknown as Record<string, unknown>)[name] = async ([key]: string[]) => {
          calls.push(`${name} ${key}`);
          return [1, 60_000];
        };
      },
    };
    return {
      handle: { client, transactions: client, prefix: "p:" } as unknown as RedisHandle,
      client,
      calls,
    };
  }

  it("refuses at once with a Redis outage while the connection is reconnecting or closed, counts in Redis when it is ready", async () => {
    const { handle, client, calls } = fakeRedis("ready");
    const Store = redisLimitStore(handle);
    const route = new Store({ continueExceeding: false }).child({
      method: "POST",
      url: "/api/auth/demo-login",
      routeInfo: { method: "POST", url: "/api/auth/demo-login" },
    } as never);
    const incr = () =>
      new Promise<{ error: Error | null; result?: unknown }>((resolve) =>
        route.incr("203.0.113.7", (error, result) => resolve({ error, result }), 60_000, 10),
      );
    expect(await incr()).toEqual({ error: null, result: { current: 1, ttl: 60_000 } });
    expect(calls).toEqual(["rlflxIncr p:rate-limit:POST/api/auth/demo-login-203.0.113.7"]);
    for (const status of ["reconnecting", "close", "end"]) {
      client.status = status;
      const { error } = await incr();
      expect(error).toBeInstanceOf(OutageError);
      expect(classifyOutage(error)?.engine).toBe("redis");
    }
    expect(calls).toHaveLength(1);
  });
});
