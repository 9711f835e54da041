import os from "node:os";
import path from "node:path";
import { z } from "zod";

/**
 * Every environment variable the server reads, validated in one place (house style: outline's
 * server/env.ts). Bad configuration stops the process at boot with a clear message.
 * README.md's configuration table lists the same variables; keep the two in step.
 */
const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  DATA_DIR: z.string().default("data"),
  DATABASE_URL: z.string().default(""),
  CONTENT_DIR: z.string().default(""),
  WEB_DIST_DIR: z.string().default("dist/web"),
  DEMO_LOGIN_ID: z.string().min(1).default("demo"),
  DEMO_USER_TTL_HOURS: z.coerce.number().positive().default(24),
  LLM_PROVIDER: z.enum(["auto", "llama", "openai", "none"]).default("auto"),
  LLM_MODEL_PATH: z.string().default(""),
  LLM_DEFAULT_MODEL_URI: z
    .string()
    .default("hf:bartowski/Qwen2.5-1.5B-Instruct-GGUF/Qwen2.5-1.5B-Instruct-Q4_K_M.gguf"),
  LLM_AUTO_DOWNLOAD: z.enum(["0", "1"]).default("1"),
  LLM_CONTEXT_SIZE: z.coerce.number().int().min(128).default(4096),
  LLM_MAX_TOKENS: z.coerce.number().int().min(1).default(256),
  LLM_THREADS: z.coerce
    .number()
    .int()
    .min(1)
    .default(Math.max(1, os.availableParallelism() - 1)),
  LLM_PARALLEL: z.coerce.number().int().min(1).max(16).default(2),
  LLM_TEMPERATURE: z.coerce.number().min(0).max(2).default(0.8),
  LLM_BASE_URL: z.string().default(""),
  LLM_API_KEY: z.string().default(""),
  LLM_MODEL: z.string().default(""),
  LLM_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
  PUBLIC_URL: z.string().default(""),
  SMTP_URL: z.string().default(""),
  MAIL_FROM: z.string().default("Companion <no-reply@companion.local>"),
  ADMIN_EMAIL: z.string().default("admin@companion.local"),
  PASSWORD_RESET_TTL_MINUTES: z.coerce.number().positive().default(15),
  OAUTH_YOUTUBE_CLIENT_ID: z.string().default(""),
  OAUTH_YOUTUBE_CLIENT_SECRET: z.string().default(""),
  OAUTH_YOUTUBE_AUTHORIZE_URL: z.string().default("https://accounts.google.com/o/oauth2/v2/auth"),
  OAUTH_YOUTUBE_TOKEN_URL: z.string().default("https://oauth2.googleapis.com/token"),
  OAUTH_YOUTUBE_USERINFO_URL: z.string().default("https://openidconnect.googleapis.com/v1/userinfo"),
  OAUTH_YOUTUBE_SCOPE: z
    .string()
    .default("openid email profile https://www.googleapis.com/auth/youtube.readonly"),
  YOUTUBE_API_BASE_URL: z.string().default("https://www.googleapis.com/youtube/v3"),
  YOUTUBE_API_KEY: z.string().default(""),
  FREE_SUBSCRIBE_VIDEO_ID: z.string().default(""),
  FREE_SUBSCRIBE_TTL_HOURS: z.coerce.number().positive().default(24),
  FREE_SUBSCRIBE_POLL_SECONDS: z.coerce.number().positive().default(60),
  RATE_LIMIT_ENABLED: z.enum(["0", "1"]).default("1"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

export type AppConfig = z.infer<typeof schema> & {
  /** Absolute directory of uploaded and generated files served under /content/. */
  contentDir: string;
  /** Origin used in links sent by e-mail (e.g. https://companion.example). */
  publicUrl: string;
  /** Absolute data directory (SQLite file, downloaded models, content by default). */
  dataDir: string;
};

/**
 * Reads and validates the configuration.
 * @param source environment to read (defaults to process.env); tests pass their own.
 * @throws Error naming every invalid variable.
 */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const cfg = parsed.data;
  const dataDir = path.resolve(cfg.DATA_DIR);
  return {
    ...cfg,
    dataDir,
    publicUrl: (cfg.PUBLIC_URL || `http://localhost:${cfg.PORT}`).replace(/\/+$/, ""),
    contentDir: cfg.CONTENT_DIR ? path.resolve(cfg.CONTENT_DIR) : path.join(dataDir, "content"),
  };
}
