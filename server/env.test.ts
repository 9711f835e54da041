import os from "node:os";
import { describe, expect, it } from "vitest";
import { loadConfig } from "./env";

const base = { DATA_DIR: os.tmpdir() };
const refused = (env: Record<string, string>) => () => loadConfig({ ...base, ...env });

describe("loadConfig: rules between variables, checked at boot", () => {
  it("accepts the defaults and complete settings", () => {
    expect(loadConfig(base).LLM_PROVIDER).toBe("auto");
    const full = loadConfig({
      ...base,
      LLM_PROVIDER: "openai",
      LLM_BASE_URL: "http://127.0.0.1:9/v1",
      LLM_MODEL: "m",
      STRIPE_SECRET_KEY: "sk_test_x",
      STRIPE_WEBHOOK_SECRET: "whsec_x",
      IMAGE_PROVIDER: "automatic1111",
      IMAGE_BASE_URL: "http://127.0.0.1:9",
      VISION_BASE_URL: "http://127.0.0.1:9/v1",
      VISION_MODEL: "llava",
      HTTP_REQUEST_TIMEOUT_MS: "2000",
      HTTP_HEADERS_TIMEOUT_MS: "2000",
    });
    expect(full.LLM_MODEL).toBe("m");
  });

  it("refuses an OpenAI-compatible model without its endpoint or its name", () => {
    expect(refused({ LLM_PROVIDER: "openai" })).toThrow(/LLM_BASE_URL: required with LLM_PROVIDER=openai/);
    expect(refused({ LLM_PROVIDER: "openai", LLM_BASE_URL: "http://x/v1" })).toThrow(/LLM_MODEL: required/);
    // auto with an endpoint means openai, as the factory chooses.
    expect(refused({ LLM_BASE_URL: "http://x/v1" })).toThrow(/LLM_MODEL: required/);
    expect(refused({ LLM_PROVIDER: "llama" })).toThrow(/LLM_MODEL_PATH: required with LLM_PROVIDER=llama/);
  });

  it("leaves embeddings off by default and refuses half an embedding setting", () => {
    const cfg = loadConfig(base);
    expect([cfg.EMBEDDING_MODEL_PATH, cfg.EMBEDDING_BASE_URL, cfg.EMBEDDING_MODEL]).toEqual(["", "", ""]);
    expect(cfg.EMBEDDING_TIMEOUT_MS).toBe(15_000);
    expect(
      loadConfig({ ...base, EMBEDDING_BASE_URL: "http://x/v1", EMBEDDING_MODEL: "e" }).EMBEDDING_MODEL,
    ).toBe("e");
    expect(refused({ EMBEDDING_BASE_URL: "http://x/v1" })).toThrow(
      /EMBEDDING_MODEL: required with EMBEDDING_BASE_URL/,
    );
    expect(refused({ EMBEDDING_MODEL: "e" })).toThrow(/EMBEDDING_BASE_URL: required with EMBEDDING_MODEL/);
    expect(refused({ EMBEDDING_API_KEY: "k" })).toThrow(
      /EMBEDDING_BASE_URL: required with EMBEDDING_API_KEY/,
    );
    expect(refused({ EMBEDDING_BASE_URL: "localhost:8080/v1", EMBEDDING_MODEL: "e" })).toThrow(
      /EMBEDDING_BASE_URL: must be an http\(s\) URL/,
    );
    expect(
      refused({ EMBEDDING_MODEL_PATH: "/m/e.gguf", EMBEDDING_BASE_URL: "http://x/v1", EMBEDDING_MODEL: "e" }),
    ).toThrow(/EMBEDDING_MODEL_PATH: set it or EMBEDDING_BASE_URL, not both/);
  });

  it("refuses a Stripe key without the webhook secret", () => {
    expect(refused({ STRIPE_SECRET_KEY: "sk_test_x" })).toThrow(/STRIPE_WEBHOOK_SECRET: required/);
  });

  it("refuses an image engine without its address, and a vision endpoint without its model", () => {
    expect(refused({ IMAGE_PROVIDER: "comfyui" })).toThrow(
      /IMAGE_BASE_URL: required with IMAGE_PROVIDER=comfyui/,
    );
    expect(refused({ VISION_BASE_URL: "http://x/v1" })).toThrow(
      /VISION_MODEL: required with VISION_BASE_URL/,
    );
    expect(refused({ VISION_USE_LLM: "1" })).toThrow(/VISION_USE_LLM: needs LLM_BASE_URL/);
  });

  it("refuses a remote voice without its address or key", () => {
    expect(refused({ TTS_PROVIDER: "openai" })).toThrow(/TTS_BASE_URL: required/);
    expect(refused({ TTS_PROVIDER: "elevenlabs" })).toThrow(/ELEVENLABS_API_KEY: required/);
  });

  it("refuses a headers timeout longer than the whole request's", () => {
    expect(refused({ HTTP_REQUEST_TIMEOUT_MS: "5000" })).toThrow(
      /HTTP_HEADERS_TIMEOUT_MS: must be at most HTTP_REQUEST_TIMEOUT_MS \(15000 > 5000\)/,
    );
  });

  it("groups S3 object storage settings; no S3_BUCKET means content on local disk", () => {
    expect(loadConfig(base).s3).toBeUndefined();
    const minio = loadConfig({
      ...base,
      S3_BUCKET: "content",
      S3_ENDPOINT: "http://127.0.0.1:9000",
      S3_ACCESS_KEY_ID: "id",
      S3_SECRET_ACCESS_KEY: "secret",
      S3_PREFIX: "/companion/",
      CONTENT_SECRET: "shared",
    });
    expect(minio.s3).toEqual({
      bucket: "content",
      endpoint: "http://127.0.0.1:9000",
      region: "us-east-1",
      accessKeyId: "id",
      secretAccessKey: "secret",
      forcePathStyle: true,
      prefix: "companion",
      timeoutMs: 30_000,
    });
    const aws = loadConfig({
      ...base,
      S3_BUCKET: "content",
      S3_REGION: "eu-west-3",
      S3_ACCESS_KEY_ID: "id",
      S3_SECRET_ACCESS_KEY: "secret",
      CONTENT_SECRET: "shared",
    });
    expect(aws.s3).toMatchObject({ endpoint: "", region: "eu-west-3", forcePathStyle: false, prefix: "" });
    const r2 = loadConfig({
      ...base,
      S3_BUCKET: "content",
      S3_ENDPOINT: "https://account.r2.cloudflarestorage.com",
      S3_FORCE_PATH_STYLE: "0",
      S3_ACCESS_KEY_ID: "id",
      S3_SECRET_ACCESS_KEY: "secret",
      CONTENT_SECRET: "shared",
    });
    expect(r2.s3?.forcePathStyle).toBe(false);
  });

  it("refuses a bucket without credentials, and S3 settings without a bucket", () => {
    expect(refused({ S3_BUCKET: "content", S3_ACCESS_KEY_ID: "id" })).toThrow(
      /S3_SECRET_ACCESS_KEY: required with S3_BUCKET/,
    );
    expect(refused({ S3_BUCKET: "content", S3_SECRET_ACCESS_KEY: "secret" })).toThrow(
      /S3_ACCESS_KEY_ID: required with S3_BUCKET/,
    );
    expect(refused({ S3_BUCKET: "content", S3_ACCESS_KEY_ID: "id", S3_SECRET_ACCESS_KEY: "s" })).toThrow(
      /CONTENT_SECRET: required with S3_BUCKET/,
    );
    expect(refused({ S3_ENDPOINT: "http://127.0.0.1:9000" })).toThrow(
      /S3_BUCKET: required with S3_ENDPOINT \(content would stay on local disk\)/,
    );
    expect(
      refused({
        S3_BUCKET: "b",
        S3_ACCESS_KEY_ID: "i",
        S3_SECRET_ACCESS_KEY: "s",
        S3_ENDPOINT: "minio:9000",
      }),
    ).toThrow(/S3_ENDPOINT: must be an http\(s\) URL/);
    expect(
      refused({ S3_BUCKET: "b", S3_ACCESS_KEY_ID: "i", S3_SECRET_ACCESS_KEY: "s", S3_PREFIX: "a/../b" }),
    ).toThrow(/S3_PREFIX: must not contain/);
  });

  it("names every broken rule at once, one per line", () => {
    let message = "";
    try {
      loadConfig({ ...base, STRIPE_SECRET_KEY: "sk", IMAGE_PROVIDER: "openai" });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message.split("\n")).toEqual([
      "Invalid configuration:",
      "  STRIPE_WEBHOOK_SECRET: required with STRIPE_SECRET_KEY (webhooks could not be verified)",
      "  IMAGE_BASE_URL: required with IMAGE_PROVIDER=openai",
    ]);
  });
});
