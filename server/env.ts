// The server's configuration: every environment variable read and checked with zod, and the rules between them checked at boot.
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { type BackupConfig, backupProblems, backupSettings, resolveBackups } from "./env-backups";

/**
 * Every environment variable the server reads, validated in one place (after outline's
 * server/env.ts). Bad configuration stops the process at boot with a clear message.
 * docs/configuration.md's tables list the same variables; keep the two in step.
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
    // Every core on a machine of one or two (a reply reads twice as fast on two; the web server's
    // share of a chat turn is a millisecond or two), one left free for the web server above that.
    .default(os.availableParallelism() <= 2 ? os.availableParallelism() : os.availableParallelism() - 1),
  LLM_PARALLEL: z.coerce.number().int().min(1).max(16).default(2),
  LLM_CACHED_CHATS: z.coerce.number().int().min(1).max(64).default(6),
  LLM_GPU: z.enum(["auto", "off", "cuda", "vulkan", "metal"]).default("auto"),
  LLM_PROMPT_CACHE: z
    .string()
    .default("auto")
    .refine(
      (v) =>
        ["auto", "off"].includes(v.trim()) ||
        v.split(",").every((f) => ["prompt_cache_key", "cache_prompt"].includes(f.trim())),
      "auto, off, or a comma-separated list of prompt_cache_key and cache_prompt",
    ),
  LLM_TEMPERATURE: z.coerce.number().min(0).max(2).default(0.8),
  LLM_BASE_URL: z.string().default(""),
  LLM_API_KEY: z.string().default(""),
  LLM_MODEL: z.string().default(""),
  LLM_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
  // Text embeddings for recall (ranking a chat's earlier messages by meaning); off when none is set.
  /** A GGUF embedding model run in process (node-llama-cpp); empty: none. */
  EMBEDDING_MODEL_PATH: z.string().default(""),
  /** An OpenAI-compatible endpoint up to /v1 that answers POST /embeddings; empty: none. */
  EMBEDDING_BASE_URL: z
    .string()
    .refine(
      (v) => v === "" || /^https?:\/\/[^/]/.test(v),
      "must be an http(s) URL, e.g. http://localhost:8080/v1",
    )
    .default(""),
  /** The embedding model's name at that endpoint (required with EMBEDDING_BASE_URL). */
  EMBEDDING_MODEL: z.string().default(""),
  EMBEDDING_API_KEY: z.string().default(""),
  /** Time limit of one request to the endpoint (at most 64 texts), milliseconds. */
  EMBEDDING_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  PUBLIC_URL: z.string().default(""),
  SMTP_URL: z.string().default(""),
  MAIL_FROM: z.string().default("Companion <no-reply@companion.local>"),
  ADMIN_EMAIL: z.string().default("admin@companion.local"),
  PASSWORD_RESET_TTL_MINUTES: z.coerce.number().positive().default(15),
  /** Who may create an account on the sign-up page: nobody ("closed"), invited people, or anyone. */
  REGISTRATION: z.enum(["closed", "invite", "open"]).default("closed"),
  /** The guest demo at first start ("1" on, "0" off); empty: on only with REGISTRATION=open. */
  DEMO_LOGIN: z.enum(["", "0", "1"]).default(""),
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
  /** Hours since a chat's last message before a character that may write first checks in. */
  CHECKIN_QUIET_HOURS: z.coerce.number().positive().default(8),
  IMAGE_PROVIDER: z.enum(["none", "openai", "automatic1111", "comfyui"]).default("none"),
  IMAGE_BASE_URL: z.string().default(""),
  IMAGE_API_KEY: z.string().default(""),
  IMAGE_MODEL: z.string().default(""),
  IMAGE_TIMEOUT_MS: z.coerce.number().int().positive().default(180_000),
  IMAGE_PORTRAIT_SIZE: z
    .string()
    .regex(/^\d{2,4}x\d{2,4}$/, "must be WIDTHxHEIGHT, e.g. 768x1024")
    .default("768x1024"),
  IMAGE_LANDSCAPE_SIZE: z
    .string()
    .regex(/^\d{2,4}x\d{2,4}$/, "must be WIDTHxHEIGHT, e.g. 1024x768")
    .default("1024x768"),
  IMAGE_STEPS: z.coerce.number().int().min(1).max(150).default(25),
  IMAGE_CONCURRENCY: z.coerce.number().int().min(1).max(8).default(1),
  /**
   * `photo` draws pictures of a character from its photo where the engine can (ComfyUI
   * IP-Adapter workflow, AUTOMATIC1111 img2img, OpenAI gpt-image edits); `seed`: words and seed only.
   */
  IMAGE_REFERENCE: z.enum(["photo", "seed"]).default("photo"),
  COMFYUI_WORKFLOW_PATH: z.string().default(""),
  COMFYUI_POLL_MS: z.coerce.number().int().min(10).default(1000),
  VISION_BASE_URL: z.string().default(""),
  VISION_API_KEY: z.string().default(""),
  VISION_MODEL: z.string().default(""),
  VISION_USE_LLM: z.enum(["0", "1"]).default("0"),
  VISION_TIMEOUT_MS: z.coerce.number().int().positive().default(120_000),
  CONTENT_SECRET: z.string().default(""),
  /** Encrypts the model connections' API keys at rest (server/modules/models/models.keys.ts). */
  MODEL_KEYS_SECRET: z.string().default(""),
  STRIPE_SECRET_KEY: z.string().default(""),
  STRIPE_WEBHOOK_SECRET: z.string().default(""),
  STRIPE_API_BASE: z
    .string()
    .url("must be a URL, e.g. https://api.stripe.com")
    .default("https://api.stripe.com"),
  STRIPE_ADDON_PRICE_ID: z.string().default(""),
  STRIPE_WEBHOOK_TOLERANCE_SECONDS: z.coerce.number().int().min(1).max(3600).default(300),
  RATE_LIMIT_ENABLED: z.enum(["0", "1"]).default("1"),
  /**
   * "1": every answer is checked against its route's response schema, a difference answers 500;
   * "log": the difference is logged and the answer sent (server/http/route-schemas.ts). The tests set it.
   */
  API_CHECK_RESPONSES: z.enum(["0", "1", "log"]).default("0"),
  // Voice: text to speech and speech to text.
  TTS_PROVIDER: z.enum(["auto", "espeak", "openai", "elevenlabs", "none"]).default("auto"),
  TTS_BASE_URL: z.string().default(""),
  TTS_API_KEY: z.string().default(""),
  TTS_MODEL: z.string().default("tts-1"),
  TTS_VOICE_FEMALE: z.string().default("nova"),
  TTS_VOICE_MALE: z.string().default("onyx"),
  TTS_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
  ELEVENLABS_API_KEY: z.string().default(""),
  ELEVENLABS_BASE_URL: z.string().default("https://api.elevenlabs.io"),
  ELEVENLABS_MODEL: z.string().default("eleven_multilingual_v2"),
  ELEVENLABS_VOICE_FEMALE: z.string().default("21m00Tcm4TlvDq8ikWAM"),
  ELEVENLABS_VOICE_MALE: z.string().default("pNInz6obpgDQGcFmaJgB"),
  STT_BASE_URL: z.string().default(""),
  STT_API_KEY: z.string().default(""),
  STT_MODEL: z.string().default("whisper-1"),
  STT_TIMEOUT_MS: z.coerce.number().int().positive().default(60_000),
  STT_MAX_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(5 * 1024 * 1024),
  // sessions, transport limits and the proxy in front.
  /** Absolute lifetime of a session: past it `extend` refuses and the user signs in again. */
  SESSION_MAX_AGE_DAYS: z.coerce.number().positive().max(365).default(30),
  /** Time to receive a whole request (headers and body), milliseconds; slower requests get 408. */
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(1000).default(60_000),
  /** Time to receive a request's headers, milliseconds. */
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1000).default(15_000),
  /**
   * Fastify `trustProxy`: empty (default) trusts no proxy; "true" trusts every hop; a number trusts
   * that many hops; otherwise a comma-separated list of proxy addresses or CIDR ranges.
   */
  TRUST_PROXY: z.string().default(""),
  // operations.
  /** "0" serves no /metrics; else loopback/private clients only, or only holders of METRICS_TOKEN. */
  METRICS_ENABLED: z.enum(["0", "1"]).default("1"),
  /** When set, /metrics asks every client for `Authorization: Bearer <token>`. */
  METRICS_TOKEN: z.string().default(""),
  /** Time running requests and reply streams get to finish after SIGTERM, milliseconds. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(20_000),
  // S3-compatible object storage for /content/ (AWS S3, MinIO, Cloudflare R2, Garage).
  /** The bucket; set, content lives there instead of CONTENT_DIR. */
  S3_BUCKET: z.string().default(""),
  /** The S3 API's address for a server other than AWS (e.g. http://minio:9000); empty: AWS. */
  S3_ENDPOINT: z
    .string()
    .refine((v) => v === "" || /^https?:\/\/[^/]/.test(v), "must be an http(s) URL, e.g. http://minio:9000")
    .default(""),
  S3_REGION: z.string().min(1).default("us-east-1"),
  S3_ACCESS_KEY_ID: z.string().default(""),
  S3_SECRET_ACCESS_KEY: z.string().default(""),
  /** Path-style URLs (host/bucket/key); empty: on when S3_ENDPOINT is set, off for AWS. */
  S3_FORCE_PATH_STYLE: z.enum(["", "0", "1"]).default(""),
  /** Folder inside the bucket for every key (e.g. "companion"); empty: the bucket's root. */
  S3_PREFIX: z
    .string()
    .refine((v) => !v.split("/").some((s) => s === "." || s === ".."), "must not contain . or .. segments")
    .default(""),
  /** Time limit of one storage call, milliseconds (a file's body may stream for longer). */
  S3_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  // shared engines for many instances.
  /**
   * A Redis-protocol server (Redis, Valkey, a managed one), e.g. redis://valkey:6379. Set, it holds
   * the rate limits, the job queue, Stop across instances and the resumable reply streams; empty:
   * all of them live in this process (one instance).
   */
  REDIS_URL: z
    .string()
    .refine((v) => v === "" || /^rediss?:\/\/./.test(v), "must be a redis:// or rediss:// URL")
    .default(""),
  /** Prefix of every Redis key, so several deployments (or tests) can share one server. */
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]*$/, "letters, digits and _ . : - only")
    .default("companion:"),
  /**
   * "1": this process runs the background jobs (memory, mail, scheduled clean-ups) beside the web
   * server; "0": it only queues them, for a separate `npm run worker` process (needs REDIS_URL).
   */
  JOB_WORKERS: z.enum(["0", "1"]).default("1"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  ...backupSettings,
});

export type AppConfig = z.infer<typeof schema> &
  BackupConfig & {
    /** Absolute directory of uploaded and generated files served under /content/. */
    contentDir: string;
    /** Origin used in links sent by e-mail (e.g. https://companion.example). */
    publicUrl: string;
    /** Whether the guest demo starts open: the site setting's first value (DEMO_LOGIN, else REGISTRATION=open). */
    demoLogin: boolean;
    /** Absolute data directory (SQLite file, downloaded models, content by default). */
    dataDir: string;
    /** TRUST_PROXY as Fastify takes it. */
    trustProxy: boolean | number | string[];
    /** The S3_* variables, grouped; undefined when S3_BUCKET is empty (content on local disk). */
    s3: S3Config | undefined;
  };

/** Where S3-compatible object storage is and how to reach it. */
export interface S3Config {
  bucket: string;
  /** e.g. "http://minio:9000" or "https://<account>.r2.cloudflarestorage.com"; empty: AWS S3. */
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** `host/bucket/key` instead of `bucket.host/key` (MinIO, Garage, s3rver need it). */
  forcePathStyle: boolean;
  /** Folder inside the bucket every key lives under, without slashes at either end; "" for the root. */
  prefix: string;
  /** Time limit of one call, milliseconds. */
  timeoutMs: number;
}

/** Groups the S3_* variables; undefined without S3_BUCKET. */
function s3Config(cfg: Settings): S3Config | undefined {
  if (!cfg.S3_BUCKET) return undefined;
  return {
    bucket: cfg.S3_BUCKET,
    endpoint: cfg.S3_ENDPOINT,
    region: cfg.S3_REGION,
    accessKeyId: cfg.S3_ACCESS_KEY_ID,
    secretAccessKey: cfg.S3_SECRET_ACCESS_KEY,
    forcePathStyle: cfg.S3_FORCE_PATH_STYLE ? cfg.S3_FORCE_PATH_STYLE === "1" : Boolean(cfg.S3_ENDPOINT),
    prefix: cfg.S3_PREFIX.replace(/^\/+|\/+$/g, ""),
    timeoutMs: cfg.S3_TIMEOUT_MS,
  };
}

/** Reads TRUST_PROXY (see the schema) into Fastify's `trustProxy` option. */
function parseTrustProxy(value: string): boolean | number | string[] {
  const v = value.trim();
  if (!v || v === "false" || v === "0") return false;
  if (v === "true") return true;
  if (/^\d+$/.test(v)) return Number(v);
  return v
    .split(",")
    .map((part) => part.trim())
    .filter(Boolean);
}

type Settings = z.infer<typeof schema>;

/**
 * Rules between variables, checked at boot so that a contradictory setting stops the process with
 * a clear line instead of failing on the first request. The provider factories choose
 * the same way: LLM_PROVIDER=auto with LLM_BASE_URL means openai, with LLM_MODEL_PATH llama.
 * @returns one "VARIABLE: what is wrong" line per broken rule; empty when all hold.
 */
export function crossFieldProblems(cfg: Settings): string[] {
  const problems: string[] = [];
  const auto = cfg.LLM_PROVIDER === "auto";
  if (cfg.LLM_PROVIDER === "openai" || (auto && cfg.LLM_BASE_URL)) {
    if (!cfg.LLM_BASE_URL) problems.push("LLM_BASE_URL: required with LLM_PROVIDER=openai");
    if (!cfg.LLM_MODEL) problems.push("LLM_MODEL: required with LLM_PROVIDER=openai (or with LLM_BASE_URL)");
  }
  if (cfg.LLM_PROVIDER === "llama" && !cfg.LLM_MODEL_PATH) {
    problems.push("LLM_MODEL_PATH: required with LLM_PROVIDER=llama");
  }
  if (cfg.EMBEDDING_BASE_URL && !cfg.EMBEDDING_MODEL) {
    problems.push("EMBEDDING_MODEL: required with EMBEDDING_BASE_URL");
  }
  for (const name of ["EMBEDDING_MODEL", "EMBEDDING_API_KEY"] as const) {
    if (cfg[name] && !cfg.EMBEDDING_BASE_URL) problems.push(`EMBEDDING_BASE_URL: required with ${name}`);
  }
  if (cfg.EMBEDDING_MODEL_PATH && cfg.EMBEDDING_BASE_URL) {
    problems.push(
      "EMBEDDING_MODEL_PATH: set it or EMBEDDING_BASE_URL, not both (one embedding model at a time)",
    );
  }
  if (cfg.STRIPE_SECRET_KEY && !cfg.STRIPE_WEBHOOK_SECRET) {
    problems.push("STRIPE_WEBHOOK_SECRET: required with STRIPE_SECRET_KEY (webhooks could not be verified)");
  }
  if (cfg.IMAGE_PROVIDER !== "none" && !cfg.IMAGE_BASE_URL) {
    problems.push(`IMAGE_BASE_URL: required with IMAGE_PROVIDER=${cfg.IMAGE_PROVIDER}`);
  }
  if (cfg.VISION_BASE_URL && !cfg.VISION_MODEL) problems.push("VISION_MODEL: required with VISION_BASE_URL");
  if (!cfg.VISION_BASE_URL && cfg.VISION_USE_LLM === "1" && !cfg.LLM_BASE_URL) {
    problems.push("VISION_USE_LLM: needs LLM_BASE_URL (an OpenAI-compatible endpoint)");
  }
  if (cfg.TTS_PROVIDER === "openai" && !cfg.TTS_BASE_URL)
    problems.push("TTS_BASE_URL: required with TTS_PROVIDER=openai");
  if (cfg.TTS_PROVIDER === "elevenlabs" && !cfg.ELEVENLABS_API_KEY) {
    problems.push("ELEVENLABS_API_KEY: required with TTS_PROVIDER=elevenlabs");
  }
  if (cfg.HTTP_HEADERS_TIMEOUT_MS > cfg.HTTP_REQUEST_TIMEOUT_MS) {
    problems.push(
      `HTTP_HEADERS_TIMEOUT_MS: must be at most HTTP_REQUEST_TIMEOUT_MS (${cfg.HTTP_HEADERS_TIMEOUT_MS} > ${cfg.HTTP_REQUEST_TIMEOUT_MS})`,
    );
  }
  if (cfg.S3_BUCKET) {
    for (const name of ["S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY"] as const) {
      if (!cfg[name]) problems.push(`${name}: required with S3_BUCKET (object storage credentials)`);
    }
    // Shared content means several instances: a picture cookie signed by one must pass on all.
    if (!cfg.CONTENT_SECRET)
      problems.push(
        "CONTENT_SECRET: required with S3_BUCKET (every instance must sign the picture cookie alike)",
      );
  } else {
    // Half an S3 setting would silently keep content on the local disk of one instance.
    for (const name of ["S3_ENDPOINT", "S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY", "S3_PREFIX"] as const) {
      if (cfg[name]) problems.push(`S3_BUCKET: required with ${name} (content would stay on local disk)`);
    }
  }
  // Several instances (a shared database or storage) must decrypt the stored API keys alike; the
  // environment's key is stored encrypted as the first model connection.
  const shared = /^postgres(ql)?:\/\//.test(cfg.DATABASE_URL) || Boolean(cfg.S3_BUCKET);
  if (shared && cfg.LLM_API_KEY && !cfg.MODEL_KEYS_SECRET) {
    problems.push(
      "MODEL_KEYS_SECRET: required with PostgreSQL or S3_BUCKET when LLM_API_KEY is set (every instance must decrypt the stored API keys alike)",
    );
  }
  if (cfg.JOB_WORKERS === "0" && !cfg.REDIS_URL) {
    problems.push("JOB_WORKERS: 0 needs REDIS_URL (without it no other process could run the jobs)");
  }
  return problems;
}

/**
 * The error of a bad configuration, as the server stops with at boot: "Invalid configuration:",
 * then each problem on its own indented line ("NAME: what is wrong"). Also thrown by the provider
 * factories for rules that concern only their provider (server/providers/<kind>/index.ts).
 */
export function invalidConfiguration(problems: string[]): Error {
  return new Error(`Invalid configuration:\n${problems.map((l) => `  ${l}`).join("\n")}`);
}

/**
 * Reads and validates the configuration: each variable, then the rules between them.
 * @param source environment to read (defaults to process.env); tests pass their own.
 * @throws Error "Invalid configuration:" naming every invalid variable, one per line.
 */
export function loadConfig(source: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    throw invalidConfiguration(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  }
  const cfg = parsed.data;
  const dataDir = path.resolve(cfg.DATA_DIR);
  const contentDir = cfg.CONTENT_DIR ? path.resolve(cfg.CONTENT_DIR) : path.join(dataDir, "content");
  const backups = resolveBackups(cfg, dataDir);
  const problems = [...crossFieldProblems(cfg), ...backupProblems(cfg, backups, contentDir)];
  if (problems.length > 0) throw invalidConfiguration(problems);
  return {
    ...cfg,
    ...backups,
    dataDir,
    publicUrl: (cfg.PUBLIC_URL || `http://localhost:${cfg.PORT}`).replace(/\/+$/, ""),
    demoLogin: cfg.DEMO_LOGIN ? cfg.DEMO_LOGIN === "1" : cfg.REGISTRATION === "open",
    contentDir,
    trustProxy: parseTrustProxy(cfg.TRUST_PROXY),
    s3: s3Config(cfg),
  };
}
