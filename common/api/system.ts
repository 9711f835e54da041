// The system routes' wire shapes (ours): the health answer, the readiness answer and its checks, and the version file /meta.json.
import { z } from "zod";
import { ModelDownloadProgress } from "./capabilities";
import { Envelope } from "./envelope";

/**
 * `data` of GET /api/health: the process is alive; its version, its database dialect and the
 * language model's status (the provider's name, whether it is ready and why not, and the default
 * model's download progress while it downloads).
 */
export const HealthStatus = z
  .object({
    version: z.string().describe("The app version (APP_VERSION)."),
    database: z.string().describe('The database dialect, e.g. "sqlite" or "postgres".'),
    llm: z
      .object({
        provider: z.string().describe('The language model provider in use, e.g. "llama", "openai", "none".'),
        ready: z.boolean(),
        message: z.string().describe("Why it is not ready (the sentence users read), or its state."),
        download: ModelDownloadProgress.optional().describe(
          "Only while the default model downloads: how far it has come.",
        ),
      })
      .describe("The language model's status."),
  })
  .meta({ id: "HealthStatus", description: "The health answer's data: version, database and model status." });
export type HealthStatus = z.infer<typeof HealthStatus>;

/** One readiness check of GET /api/ready: passed or not, its duration, and how it failed (the reason stays in the log). */
export const ReadyCheck = z
  .object({
    ok: z.boolean(),
    ms: z.number().describe("How long it took, milliseconds."),
    failure: z
      .enum(["timeout", "error"])
      .optional()
      .describe("Only when it failed: whether it timed out or answered an error."),
  })
  .meta({
    id: "ReadyCheck",
    description: "One readiness check: passed or not, its duration and how it failed.",
  });
export type ReadyCheck = z.infer<typeof ReadyCheck>;

/**
 * The whole answer of GET /api/ready, no failure envelope: `success` 1 "Ready." at 200 with every
 * check; at 503 `success` 0 without `code`, "Not ready: <names>." with every check, or
 * "Shutting down." with `data: { shuttingDown: true }` only.
 */
export const ReadyReply = Envelope.omit({ code: true, page: true })
  .extend({
    data: z.object({
      shuttingDown: z.boolean().describe("Whether the process is stopping (it then runs no checks)."),
      checks: z
        .record(z.string(), ReadyCheck)
        .optional()
        .describe('Each check by name ("database", "storage", "model", ...); absent while shutting down.'),
    }),
  })
  .meta({
    id: "ReadyReply",
    description: "The answer of /api/ready, at 200 when ready and at 503 when not.",
  });
export type ReadyReply = z.infer<typeof ReadyReply>;

/** product.md §7 GET /meta.json (cache busting): the deployed version, without the envelope. */
export const AppMeta = z
  .object({ version: z.string().describe("The deployed app version.") })
  .meta({ id: "AppMeta", description: "The version file /meta.json (no envelope)." });
export type AppMeta = z.infer<typeof AppMeta>;
