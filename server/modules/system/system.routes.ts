// System routes: /api/health, /api/ready, /metrics, /meta.json (product.md §4 cache busting) and the chat screen's capabilities.
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import type { AppMeta, Capability, HealthStatus, ReadyReply } from "../../../common/api";
import { APP_VERSION } from "../../../common/constants";
import type { Db } from "../../db/index";
import type { User } from "../../db/schema";
import { currentUser, signedIn } from "../../http/auth";
import { fail, ok } from "../../http/envelope";
import { carry, english, msg } from "../../i18n/messages";
import { renderMetrics } from "../../observability/metrics";
import {
  type LlmProvider,
  NOT_CONFIGURED_ADMIN_STATUS,
  NOT_CONFIGURED_MESSAGE,
} from "../../providers/llm/llm";
import type { FileStorage } from "../../providers/storage/storage";
import type { TtsProvider } from "../../providers/tts/tts";
import { presentCapabilities } from "./capabilities.presenter";
import { Lifecycle } from "./lifecycle";
import { DEFAULT_METRICS_OPTIONS, type MetricsOptions, mayReadMetrics } from "./metrics-access";
import { type ReadinessCheck, runChecks, standardChecks } from "./readiness";
import { CapabilitiesDoc, HealthDoc, MetaDoc, MetricsDoc, ReadyDoc } from "./system.schemas";

/** What the system routes read: the engines' status and the user's picture capabilities (ports). */
export interface SystemDeps {
  llm: LlmProvider;
  tts: TtsProvider;
  dialect: string;
  /** whether recordings can be transcribed on this server (STT_BASE_URL). */
  transcribes?: boolean;
  /** pictures on request and photo upload for this user (filled by the images service). */
  images?: (user: User) => { imageRequests: Capability; photoUpload: Capability };
  /** the database readiness checks with `select 1` (none when absent). */
  db?: Db;
  /** the content storage readiness checks with a cheap `exists` (none when absent). */
  storage?: FileStorage;
  /** more readiness checks after the standard ones (Redis, the job queue...). */
  checks?: ReadinessCheck[];
  /** who may read /metrics (METRICS_ENABLED, METRICS_TOKEN); default: loopback and private addresses. */
  metrics?: MetricsOptions;
  /** the bound of each readiness check, milliseconds (default READY_CHECK_TIMEOUT_MS). */
  readyTimeoutMs?: number;
}

/**
 * Health, the version file of product.md §4 (cache busting) and the capabilities the chat screen uses
 * to show or hide its controls with a reason (no fake behaviour). (many
 * instances behind a load balancer): /api/health says the process is alive, /api/ready whether it
 * should get traffic, /metrics serves Prometheus metrics; the Fastify instance is decorated with
 * the `lifecycle` that server/main.ts marks on shutdown.
 */
export async function systemRoutes(
  app: FastifyInstance,
  deps: SystemDeps,
  auth: onRequestAsyncHookHandler,
): Promise<void> {
  app.get("/api/health", { schema: HealthDoc }, async () => {
    const status = deps.llm.status();
    const data: HealthStatus = {
      version: APP_VERSION,
      database: deps.dialect,
      llm: { provider: deps.llm.name, ...status },
    };
    return ok("ok", { data });
  });

  const lifecycle = new Lifecycle();
  app.decorate("lifecycle", lifecycle);
  const checks = [...standardChecks(deps), ...(deps.checks ?? [])];
  app.get("/api/ready", { schema: ReadyDoc }, async (request, reply) => {
    reply.header("Cache-Control", "no-store");
    if (lifecycle.shuttingDown) {
      const shuttingDown = msg("system.shuttingDown");
      const stopping: ReadyReply = carry(
        { success: 0, message: english(shuttingDown), data: { shuttingDown: true } },
        shuttingDown,
      );
      return reply.status(503).send(stopping);
    }
    const result = await runChecks(checks, deps.readyTimeoutMs);
    const failed = Object.entries(result.checks).filter(([, check]) => !check.ok);
    for (const [name, check] of failed) request.log.warn({ check: name, reason: check.reason }, "not ready");
    // The reasons stay in the log: they may name hosts or accounts, and this answer is public.
    const data: ReadyReply["data"] = {
      shuttingDown: false,
      checks: Object.fromEntries(
        Object.entries(result.checks).map(([name, { ok, ms, failure }]) => [name, { ok, ms, failure }]),
      ),
    };
    if (result.ready) return ok(msg("system.ready"), { data });
    const names = failed.map(([name, check]) => (check.failure === "timeout" ? `${name} (timed out)` : name));
    const why = msg("system.notReady", { join: names.join(", ") });
    const notReady: ReadyReply = carry({ success: 0, message: english(why), data }, why);
    return reply.status(503).send(notReady);
  });

  const metrics = deps.metrics ?? DEFAULT_METRICS_OPTIONS;
  if (metrics.enabled) {
    app.get("/metrics", { schema: MetricsDoc }, async (request, reply) => {
      reply.header("Cache-Control", "no-store");
      if (!mayReadMetrics(request, metrics)) {
        return reply.status(403).send(fail(msg("system.metricsNotAvailableClient"), "forbidden"));
      }
      const { contentType, body } = await renderMetrics();
      return reply.type(contentType).send(body);
    });
  }

  app.get("/meta.json", { schema: MetaDoc }, async (_request, reply) => {
    reply.header("Cache-Control", "no-store");
    const meta: AppMeta = { version: APP_VERSION };
    return meta;
  });

  await signedIn(app, auth, (scope) => capabilityRoutes(scope, deps));
}

/**
 * The chat screen's capabilities for the signed-in user; registered behind the session hook.
 * While the chat is off because the model is being downloaded, `modelDownload` says how far it
 * has come (the banner shows it); absent otherwise.
 */
function capabilityRoutes(app: FastifyInstance, deps: SystemDeps): void {
  app.get("/api/chat/capabilities", { schema: CapabilitiesDoc }, async (request) => {
    const user = currentUser(request);
    const status = deps.llm.status();
    // An admin is the one who connects a model: told where, not to ask the administrator.
    const llm =
      user.role === "admin" && status.message === NOT_CONFIGURED_MESSAGE
        ? { ...status, message: NOT_CONFIGURED_ADMIN_STATUS.message }
        : status;
    return ok(msg("system.capabilities"), {
      data: presentCapabilities({
        llm,
        speaks: deps.tts.name !== "none",
        transcribes: deps.transcribes === true,
        images: deps.images?.(user),
      }),
    });
  });
}
