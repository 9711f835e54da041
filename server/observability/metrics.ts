// The server's Prometheus metrics (GET /metrics): requests, reply outcomes, first-token time, prompt tokens, model errors, background waits, streams and queues.
import type { FastifyReply, FastifyRequest } from "fastify";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import { LlmUnavailableError } from "../providers/llm/llm";

/**
 * The server's Prometheus metrics (Operations), in one registry per process: Node's
 * default process metrics (CPU, memory, event-loop lag, handles, GC) prefixed `companion_`, plus
 * the ones below. Code elsewhere reports through the small functions of this module and never
 * touches a metric object. Label values come from closed sets (a route pattern, never a URL;
 * an outcome from a fixed list), so the number of series stays bounded. Served at GET /metrics
 * by the system routes.
 */
const registry = new Registry();
collectDefaultMetrics({ register: registry, prefix: "companion_" });

/**
 * A counter in this module's registry.
 * @param labelNames the labels it is counted by (each from a closed set); none by default.
 */
function counter<L extends string = never>(
  name: string,
  help: string,
  labelNames: readonly L[] = [],
): Counter<L> {
  return new Counter({ name, help, labelNames, registers: [registry] });
}

const httpDuration = new Histogram({
  name: "companion_http_request_duration_seconds",
  help: "HTTP request duration until the answer has left (a streamed reply: until it ended), by method, route pattern and status.",
  labelNames: ["method", "route", "status_code"] as const,
  // Plain answers sit in the first buckets; streamed replies reach the last ones.
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
  registers: [registry],
});

/** The outcomes a reply is counted under (chat_history status of the entry). */
export const REPLY_OUTCOMES = ["replied", "stopped", "partial", "failed", "cannot_continue"] as const;
export type ReplyOutcome = (typeof REPLY_OUTCOMES)[number];

const replies = counter(
  "companion_chat_replies_total",
  "Chat replies finished, by outcome (replied, stopped, partial, failed, cannot_continue, other).",
  ["outcome"] as const,
);

const firstTokenSeconds = new Histogram({
  name: "companion_chat_time_to_first_token_seconds",
  help: "Time from the start of a model run to its first streamed piece of text.",
  buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64],
  registers: [registry],
});

const promptTokens = counter(
  "companion_prompt_tokens_total",
  "Prompt tokens of chat replies, by state: reused from the model's prefix cache, or evaluated anew (where the model tells).",
  ["state"] as const,
);

const modelErrors = counter(
  "companion_model_errors_total",
  "Language model runs that failed, by reason (unavailable: no model ready; timeout; failed: any other error).",
  ["reason"] as const,
);

const activeStreams = new Gauge({
  name: "companion_active_streams",
  help: "Server-sent event reply streams open now.",
  registers: [registry],
});

const quotaRefusals = counter(
  "companion_quota_refusals_total",
  "Model runs refused because the user's message quota was used up (product.md §9).",
);

const backgroundWait = new Histogram({
  name: "companion_background_wait_seconds",
  help: "How long background model work (memory jobs, check-ins) waited for the embedded model's replies before the run that finished it.",
  buckets: [0, 0.5, 1, 2, 5, 10, 20, 30, 60, 120],
  registers: [registry],
});

const backgroundCuts = counter(
  "companion_background_cuts_total",
  "Background model runs on the embedded model cut short by a reply (each runs again after a pause).",
);

/** Where each queue's depth is read when the metrics are scraped, by queue name. */
const queueDepthSources = new Map<string, () => number | Promise<number>>();

new Gauge({
  name: "companion_queue_depth",
  help: "Jobs waiting or running in each background queue, read at scrape time.",
  labelNames: ["queue"] as const,
  registers: [registry],
  async collect() {
    this.reset();
    for (const [queue, depth] of queueDepthSources) {
      try {
        this.set({ queue }, await depth());
      } catch {
        // A queue that cannot answer (its database is down) is left out of this scrape.
      }
    }
  },
});

/**
 * Records one HTTP request: an `onResponse` hook (server/http/setup.ts). The route label is
 * Fastify's route pattern (`/api/chat/history/:id`), or "unmatched" for a path no route serves,
 * so ids and probes never become label values.
 */
export function observeRequest(request: FastifyRequest, reply: FastifyReply): void {
  httpDuration.observe(
    {
      method: request.method,
      route: request.routeOptions.url ?? "unmatched",
      status_code: String(reply.statusCode),
    },
    reply.elapsedTime / 1000,
  );
}

/**
 * Counts a finished chat reply under its outcome (the entry's status: "replied", "stopped",
 * "partial", "failed", or "cannot_continue"); any other string is counted as "other".
 */
export function replyFinished(outcome: string): void {
  replies.inc({ outcome: (REPLY_OUTCOMES as readonly string[]).includes(outcome) ? outcome : "other" });
}

/** Records the time from the start of a model run to its first piece of text, milliseconds. */
export function firstToken(ms: number): void {
  firstTokenSeconds.observe(ms / 1000);
}

/**
 * Counts a reply's prompt tokens: `total` of them, `evaluated` read anew by the model, the rest
 * reused from its prefix cache (prompt.ts lays the prompt out for that).
 */
export function replyPromptTokens(total: number, evaluated: number): void {
  promptTokens.inc({ state: "evaluated" }, evaluated);
  promptTokens.inc({ state: "reused" }, Math.max(0, total - evaluated));
}

/**
 * Counts a failed model run. The reason comes from the error: "unavailable" for
 * LlmUnavailableError (no model ready), "timeout" for an abort whose reason is a timeout,
 * otherwise "failed".
 */
export function modelError(error: unknown): void {
  const reason =
    error instanceof LlmUnavailableError
      ? "unavailable"
      : /timeout|timed out/i.test(error instanceof Error ? `${error.name} ${error.message}` : String(error))
        ? "timeout"
        : "failed";
  modelErrors.inc({ reason });
}

/**
 * Counts an open reply stream until `stream` (the raw response, or any emitter of "close")
 * closes: call once when a server-sent events answer opens.
 */
export function streamOpened(stream: { once(event: "close", listener: () => void): unknown }): void {
  activeStreams.inc();
  stream.once("close", () => activeStreams.dec());
}

/** Records how long a background model call waited for replies before its finishing run, ms. */
export function backgroundWaited(ms: number): void {
  backgroundWait.observe(ms / 1000);
}

/** Counts a background model run cut short by a reply on the embedded model. */
export function backgroundCut(): void {
  backgroundCuts.inc();
}

/** Counts a model run refused at the user's message quota (429 "quota_reached"). */
export function quotaRefused(): void {
  quotaRefusals.inc();
}

/** Where the newest backup's time is read at each scrape (epoch ms, or undefined for none). */
let newestBackup: () => number | undefined = () => undefined;

new Gauge({
  name: "companion_backup_last_success_timestamp_seconds",
  help: "When the newest complete backup archive of this instance's BACKUP_DIR began, Unix seconds (0: none yet).",
  registers: [registry],
  collect() {
    this.set(Math.floor((newestBackup() ?? 0) / 1000));
  },
});

/**
 * Reports the newest complete backup's time (epoch ms) from `newest`, read at each scrape, so a
 * backup written by `npm run backup` beside the server counts too; a later call replaces it.
 */
export function watchBackups(newest: () => number | undefined): void {
  newestBackup = newest;
}

/**
 * Reports a background queue's depth (jobs waiting or running) under `queue`, read at each
 * scrape; a later call with the same name replaces the earlier source (an app built again).
 */
export function watchQueue(queue: string, depth: () => number | Promise<number>): void {
  queueDepthSources.set(queue, depth);
}

/** The metrics in Prometheus' text format, with its content type. */
export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}
