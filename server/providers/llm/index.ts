import fs from "node:fs";
import path from "node:path";
import type { AppConfig } from "../../env";
import { LlamaProvider } from "./llama";
import {
  type GenerateRequest,
  type GenerateResult,
  type LlmProvider,
  NOT_CONFIGURED_MESSAGE,
  type ProviderStatus,
} from "./llm";
import { UnavailableProvider } from "./none";
import { OpenAiProvider } from "./openai";

type Log = (line: string) => void;

/**
 * The one place that maps configuration to a language-model provider (issue 2). The returned
 * provider can change underneath (e.g. from "downloading" to the loaded default model), so
 * callers keep the one instance for the process's life.
 */
export class ManagedLlm implements LlmProvider {
  constructor(private current: LlmProvider) {}
  get name(): string {
    return this.current.name;
  }
  /** Replaces the provider in use (after a download finishes, or in tests). */
  use(provider: LlmProvider): void {
    this.current = provider;
  }
  contextWindow(): number {
    return this.current.contextWindow();
  }
  status(): ProviderStatus {
    return this.current.status();
  }
  countTokens(text: string): number {
    return this.current.countTokens(text);
  }
  generate(request: GenerateRequest): Promise<GenerateResult> {
    return this.current.generate(request);
  }
  close(): Promise<void> {
    return this.current.close();
  }
}

/**
 * Chooses the provider from configuration:
 * - `openai` (or `auto` with LLM_BASE_URL): an OpenAI-compatible endpoint;
 * - `llama` (or `auto` with LLM_MODEL_PATH): that GGUF in process;
 * - `auto` with neither: the default GGUF under data/models/, fetched on first start when
 *   LLM_AUTO_DOWNLOAD is 1 (in the background; chats answer "downloading" meanwhile);
 * - `none`: chats are stored and answered success 0 saying how to configure a model.
 * Never throws for an unreachable download: it logs one line and stays unavailable.
 * @throws Error for contradictory configuration (e.g. openai without LLM_MODEL).
 */
export function createLlm(config: AppConfig, log: Log): { llm: ManagedLlm; ready: Promise<void> } {
  const llamaOptions = (modelPath: string) => ({
    modelPath,
    contextSize: config.LLM_CONTEXT_SIZE,
    threads: config.LLM_THREADS,
    parallel: config.LLM_PARALLEL,
  });
  const wantOpenAi =
    config.LLM_PROVIDER === "openai" || (config.LLM_PROVIDER === "auto" && config.LLM_BASE_URL);
  if (wantOpenAi) {
    if (!config.LLM_BASE_URL || !config.LLM_MODEL) {
      throw new Error("LLM_PROVIDER=openai needs LLM_BASE_URL and LLM_MODEL (see README.md, Configuration).");
    }
    const provider = new OpenAiProvider({
      baseUrl: config.LLM_BASE_URL,
      apiKey: config.LLM_API_KEY,
      model: config.LLM_MODEL,
      contextSize: config.LLM_CONTEXT_SIZE,
      timeoutMs: config.LLM_TIMEOUT_MS,
    });
    return { llm: new ManagedLlm(provider), ready: Promise.resolve() };
  }
  const wantLlama =
    config.LLM_PROVIDER === "llama" || (config.LLM_PROVIDER === "auto" && config.LLM_MODEL_PATH);
  if (wantLlama) {
    if (!config.LLM_MODEL_PATH) throw new Error("LLM_PROVIDER=llama needs LLM_MODEL_PATH.");
    const provider = new LlamaProvider(llamaOptions(path.resolve(config.LLM_MODEL_PATH)));
    const ready = provider.load().then(
      () =>
        log(`Language model loaded: ${config.LLM_MODEL_PATH} (context ${provider.contextWindow()} tokens)`),
      (error: unknown) =>
        log(`Language model failed to load from ${config.LLM_MODEL_PATH}: ${String(error)}`),
    );
    return { llm: new ManagedLlm(provider), ready };
  }
  const unavailable = new UnavailableProvider(NOT_CONFIGURED_MESSAGE);
  const llm = new ManagedLlm(unavailable);
  if (config.LLM_PROVIDER === "none") {
    log(`No language model: ${NOT_CONFIGURED_MESSAGE}`);
    return { llm, ready: Promise.resolve() };
  }
  const ready = findOrDownloadDefaultModel(config, log, unavailable).then(async (modelPath) => {
    if (!modelPath) return;
    const provider = new LlamaProvider(llamaOptions(modelPath));
    try {
      await provider.load();
      llm.use(provider);
      log(`Language model loaded: ${modelPath}`);
    } catch (error) {
      log(`Language model failed to load from ${modelPath}: ${String(error)}`);
    }
  });
  return { llm, ready };
}

/**
 * Finds the default GGUF in <dataDir>/models, or downloads it with a console progress bar.
 * @returns the model's path, or undefined when it is not available (one line is logged).
 */
async function findOrDownloadDefaultModel(
  config: AppConfig,
  log: Log,
  unavailable: UnavailableProvider,
): Promise<string | undefined> {
  const dir = path.join(config.dataDir, "models");
  const fileName = config.LLM_DEFAULT_MODEL_URI.split("/").pop() ?? "model.gguf";
  const target = path.join(dir, fileName);
  if (fs.existsSync(target)) return target;
  if (config.LLM_AUTO_DOWNLOAD !== "1") {
    log(`No language model: ${NOT_CONFIGURED_MESSAGE}`);
    return undefined;
  }
  try {
    // The downloader retries for minutes when offline; a quick probe keeps start-up honest.
    await fetch("https://huggingface.co", { method: "HEAD", signal: AbortSignal.timeout(5000) });
  } catch {
    log(`No language model: the default model could not be downloaded (offline?). ${NOT_CONFIGURED_MESSAGE}`);
    return undefined;
  }
  unavailable.setMessage(
    "The default language model is being downloaded; please try again in a few minutes.",
  );
  try {
    const { createModelDownloader } = await import("node-llama-cpp");
    const downloader = await createModelDownloader({
      modelUri: config.LLM_DEFAULT_MODEL_URI,
      dirPath: dir,
      fileName,
      showCliProgress: true,
    });
    return await downloader.download();
  } catch (error) {
    unavailable.setMessage(NOT_CONFIGURED_MESSAGE);
    log(
      `No language model: downloading ${config.LLM_DEFAULT_MODEL_URI} failed (${String(error)}). ${NOT_CONFIGURED_MESSAGE}`,
    );
    return undefined;
  }
}

/** Wraps a ready provider (tests, benchmarks) in the managed holder the services use. */
export function wrap(provider: LlmProvider): ManagedLlm {
  return provider instanceof ManagedLlm ? provider : new ManagedLlm(provider);
}
