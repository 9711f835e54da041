// The Fastify server and what every route shares: the request log, plugins, rate limiter, error handler, file sending and the SPA fallback.
import fs from "node:fs";
import path from "node:path";
import cookie from "@fastify/cookie";
import formbody from "@fastify/formbody";
import multipart from "@fastify/multipart";
import rateLimit from "@fastify/rate-limit";
import fastifyStatic from "@fastify/static";
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
} from "fastify";
import pino from "pino";
import type { AppConfig } from "../env";
import { AppError } from "../errors";
import { requestLanguage } from "../i18n/language";
import { msg } from "../i18n/messages";
import { isEnvelope, localiseEnvelope } from "../i18n/translate";
import { observeRequest } from "../observability/metrics";
import type { RedisHandle } from "../providers/redis/redis";
import { fail, failBody, failStatus } from "./envelope";
import { classifyOutage, logOutage, outageBody } from "./outages";
import { rateLimitError, redisLimitStore } from "./rate-limit";
import { registerRouteSchemas } from "./route-schemas";
import {
  registerSecurity,
  transportOptions,
  UPLOAD_FILE_LIMIT_BYTES,
  UPLOAD_MAX_FIELDS,
  UPLOAD_MAX_FILES,
} from "./security";

declare module "fastify" {
  interface FastifyRequest {
    startedAt?: number;
  }
}

/**
 * Fastify's request log with one line per request, when its answer has left (a streamed reply:
 * when it has ended), instead of one on arrival and one on completion.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) {
      super.requestCompleted(error, request, reply);
      return;
    }
    logRequest(request, reply);
  }
}

/**
 * The request log's one line for a request: method, url, status and milliseconds taken, plus
 * `extra` (e.g. `closedByClient`). Written by Fastify's log controller when the answer has left,
 * and by an event stream whose client went away before its end (`server/http/sse.ts`), which
 * Fastify never sees finish.
 */
export function logRequest(
  request: FastifyRequest,
  reply: FastifyReply,
  extra?: Record<string, unknown>,
): void {
  reply.log.info(
    {
      method: request.method,
      url: request.url,
      statusCode: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
      ...extra,
    },
    "request",
  );
}

/** Log lines are written to stdout in batches of at least this many bytes (or every LOG_FLUSH_MS). */
const LOG_BATCH_BYTES = 4096;
/** Longest a log line waits in the batch, milliseconds. */
const LOG_FLUSH_MS = 500;
/** Most log bytes held while stdout is slow; lines past it are dropped, not queued without end. */
const LOG_BUFFER_MAX_BYTES = 16 * 1024 * 1024;

/**
 * The Fastify instance of the server: logger from LOG_LEVEL, trailing slashes ignored (product.md §7
 * writes some paths with one), transport limits and proxy trust from `transportOptions`. Each
 * request is logged once, when its answer has left (`logRequests`), not on arrival as well.
 * Log lines leave in batches (LOG_BATCH_BYTES, at the latest after LOG_FLUSH_MS: a
 * write per request line was a fiftieth of a chat message's CPU); the batch is written out when
 * the server closes.
 */
export function createServer(config: AppConfig): FastifyInstance {
  const stream =
    config.LOG_LEVEL === "silent"
      ? undefined
      : pino.destination({
          dest: 1,
          sync: false,
          minLength: LOG_BATCH_BYTES,
          maxLength: LOG_BUFFER_MAX_BYTES,
        });
  const app = Fastify({
    logger: stream ? { level: config.LOG_LEVEL, stream } : false,
    logController: new OneLinePerRequest(),
    routerOptions: { ignoreTrailingSlash: true },
    ...transportOptions(config),
  });
  if (stream) {
    const flusher = setInterval(() => stream.flush(), LOG_FLUSH_MS).unref();
    app.addHook("onClose", (_instance, done) => {
      clearInterval(flusher);
      try {
        stream.flushSync();
      } catch {
        // stdout is already closed: nothing can be written any more.
      }
      done();
    });
  }
  return app;
}

/**
 * Everything every route shares, registered before the routes: cookies (@fastify/cookie: parsed
 * into `request.cookies` first thing on every request, written by `reply.setCookie`; the picture
 * cookie signs its grants itself, with its own key), the rate limiter (in Redis when
 * `redis` is given, failing closed with 503 while Redis is down, else in memory; routes name their own limits; tests turn it off with RATE_LIMIT_ENABLED=0 except in the tests of the limits
 * themselves), security headers and input checks, form and multipart parsers with their limits,
 * the Server-Timing header, the request-duration metric and the error handler that answers the
 * failure envelope (an outage of the database, Redis or the storage: 503 with `Retry-After`).
 */
export async function registerPlugins(
  app: FastifyInstance,
  config: AppConfig,
  redis?: RedisHandle,
): Promise<void> {
  // First, so its onRequest hook has parsed the cookies before any other hook answers.
  await app.register(cookie);
  if (config.RATE_LIMIT_ENABLED === "1") {
    await app.register(rateLimit, {
      global: false,
      errorResponseBuilder: rateLimitError,
      // with Redis every instance counts on the same counters (a limit is per cluster).
      // Failing closed: while Redis is down a limited route answers 503 (see redisLimitStore).
      ...(redis ? { store: redisLimitStore(redis), skipOnError: false } : {}),
    });
  }
  await registerSecurity(app);
  const checks = { "0": "off", "1": "throw", log: "log" } as const;
  await registerRouteSchemas(app, checks[config.API_CHECK_RESPONSES]);
  await app.register(formbody);
  await app.register(multipart, {
    attachFieldsToBody: "keyValues",
    limits: {
      fileSize: UPLOAD_FILE_LIMIT_BYTES,
      files: UPLOAD_MAX_FILES,
      fields: UPLOAD_MAX_FIELDS,
      parts: UPLOAD_MAX_FILES + UPLOAD_MAX_FIELDS,
      fieldSize: 64 * 1024,
      headerPairs: 100,
    },
  });

  // Callback hooks, not async ones: these run on every request (a promise each).
  app.addHook("onRequest", (request, _reply, done) => {
    request.startedAt = performance.now();
    done();
  });
  // Request duration by route pattern for /metrics; a streamed reply counts when it ends.
  app.addHook("onResponse", (request, reply, done) => {
    observeRequest(request, reply);
    done();
  });
  // Server-Timing lets the benchmark (and a browser's devtools) split server time from model time.
  app.addHook("onSend", (request, reply, payload, done) => {
    if (request.modelMs !== undefined && request.startedAt !== undefined) {
      const total = performance.now() - request.startedAt;
      reply.header(
        "Server-Timing",
        `total;dur=${total.toFixed(3)}, model;dur=${request.modelMs.toFixed(3)}, app;dur=${(total - request.modelMs).toFixed(3)}`,
      );
    }
    done(null, payload);
  });

  // every envelope's message in the request's language, just before it is serialised
  // (route answers, the error handler's and the not-found handler's alike); caches keep one copy
  // per language.
  app.addHook("preSerialization", (request, reply, payload, done) => {
    if (!isEnvelope(payload)) return done(null, payload);
    const vary = reply.getHeader("vary");
    if (!vary) reply.header("vary", "Accept-Language");
    else if (!/accept-language/i.test(String(vary))) reply.header("vary", `${String(vary)}, Accept-Language`);
    done(null, localiseEnvelope(payload, requestLanguage(request)));
  });

  app.setErrorHandler((error, request, reply) => {
    // An engine is down (server/http/outages.ts): 503 with when to come back, and one log line
    // naming the engine rather than a stack per request.
    const outage = classifyOutage(error);
    if (outage) {
      logOutage(request.log, outage);
      return reply.status(503).header("retry-after", String(outage.retryAfter)).send(outageBody(outage));
    }
    // Errors of ours that are not the client's (no AppError) are logged; the wire gets a plain line.
    if (!(error instanceof AppError) && failStatus(error) >= 500) request.log.error(error);
    return reply.status(failStatus(error)).send(failBody(error));
  });
}

/**
 * Registers `reply.sendFile` (no static route: /content/ is served by the content routes, which
 * authorise the same normalised path they send) and creates the content folder.
 */
export async function registerFileSending(app: FastifyInstance, contentDir: string): Promise<void> {
  fs.mkdirSync(contentDir, { recursive: true });
  await app.register(fastifyStatic, { root: contentDir, serve: false, decorateReply: true });
}

/**
 * The built SPA (WEB_DIST_DIR) and the answer to every unknown path: the API's 404 envelope for
 * /api/, `missingContent` for /content/ (product.md §3: a missing public picture is user.jpg), the SPA's
 * index.html for a GET or HEAD without a file extension (client-side routes), otherwise a 404 envelope.
 * Registered after every route.
 */
export async function registerSpa(
  app: FastifyInstance,
  webDistDir: string,
  missingContent: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown> | unknown,
): Promise<void> {
  const webRoot = path.resolve(webDistDir);
  const hasWeb = fs.existsSync(path.join(webRoot, "index.html"));
  if (hasWeb) {
    await app.register(fastifyStatic, { root: webRoot, prefix: "/", decorateReply: false, wildcard: false });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split("?")[0] ?? "";
    if (url.startsWith("/api/") || url === "/api") {
      return reply
        .status(404)
        .send(fail(msg("http.unknownApiPath", { method: request.method, url }), "not_found"));
    }
    if (url.startsWith("/content/")) return missingContent(request, reply);
    if ((request.method === "GET" || request.method === "HEAD") && hasWeb && !path.extname(url)) {
      return reply.sendFile("index.html", webRoot);
    }
    return reply.status(404).send(fail(msg("server.notFound"), "not_found"));
  });
}
