// Choosing the language model from configuration: an OpenAI-compatible endpoint, an in-process GGUF, the default model's download, per-route connections.
import fs from "node:fs";
import path from "node:path";
import type { AppConfig } from "../../env";
import { carry, english, msg } from "../../i18n/messages";
import { LlamaProvider } from "./llama";
import {
  downloadProgress,
  type FirstRunState,
  type GenerateRequest,
  type GenerateResult,
  type LlmProvider,
  type LlmRoute,
  type ModelDownloadProgress,
  NOT_CONFIGURED_STATUS,
  notConfiguredInstruction,
  type ProviderStatus,
  type RoutedLlm,
  reasonOf,
} from "./llm";
import { UnavailableProvider } from "./none";
import { OpenAiProvider, type PromptCacheField } from "./openai";

type Log = (line: string) => void;

/** What a model download is asked for: the model's URI, where to write it, and whom to tell. */
export interface ModelDownloadRequest {
  /** The model's URI as node-llama-cpp takes it (LLM_DEFAULT_MODEL_URI). */
  uri: string;
  /** The directory to write into (<dataDir>/models). */
  dir: string;
  fileName: string;
  /** Called as bytes arrive: bytes written so far and the file's size (null or 0 when unknown). */
  onProgress: (doneBytes: number, totalBytes: number | null) => void;
}

/**
 * How the default model is fetched: a seam so tests can simulate a download
 * (this machine may have no internet). `reachable` is a quick probe (the real downloader retries
 * for minutes when offline); `download` resolves with the written file's path and rejects when
 * the download fails.
 */
export interface ModelFetcher {
  reachable(): Promise<boolean>;
  download(request: ModelDownloadRequest): Promise<string>;
}

/** The real fetcher: a HEAD probe to huggingface.co (5 s), then node-llama-cpp's downloader. */
export const NODE_LLAMA_FETCHER: ModelFetcher = {
  async reachable() {
    try {
      await fetch("https://huggingface.co", { method: "HEAD", signal: AbortSignal.timeout(5000) });
      return true;
    } catch {
      return false;
    }
  },
  async download({ uri, dir, fileName, onProgress }) {
    const { createModelDownloader } = await import("node-llama-cpp");
    const downloader = await createModelDownloader({
      modelUri: uri,
      dirPath: dir,
      fileName,
      showCliProgress: true,
      onProgress: ({ downloadedSize, totalSize }) => onProgress(downloadedSize, totalSize),
    });
    return downloader.download();
  },
};

/** Optional seams of `createLlm` (tests). */
export interface CreateLlmOptions {
  /** How the default model is fetched; NODE_LLAMA_FETCHER by default. */
  fetcher?: ModelFetcher;
  /**
   * Where the site stands (read from the database at start), for the line that says how to
   * connect a model; by default an admin exists and none is connected.
   */
  firstRun?: FirstRunState;
}

/**
 * The provider while the default model is absent or being downloaded: every
 * generation fails with the message, and the status carries the download's progress while one
 * runs, so the chat screen's banner can show it.
 */
export class DownloadingProvider extends UnavailableProvider {
  private progress: ModelDownloadProgress | undefined;

  /** Sets (or with null, clears) the progress the status reports. */
  setProgress(progress: ModelDownloadProgress | null): void {
    this.progress = progress ?? undefined;
  }
  override status(): ProviderStatus {
    const status = super.status();
    return this.progress ? carry({ ...status, download: { ...this.progress } }, reasonOf(status)) : status;
  }
}

/** A connection's provider and the generation settings it imposes on the chat replies. */
export interface RoutedProvider {
  provider: LlmProvider;
  /** The connection's settings; absent for the configured (or injected) provider. */
  settings?: { maxTokens: number; temperature: number };
}

/**
 * Picks the provider that answers a route (server/modules/models: the admin console's
 * connections, product.md §9). `resolve` returns undefined where no connection is assigned and
 * the configured provider keeps answering.
 */
export interface LlmRouter {
  resolve(route: LlmRoute | undefined): RoutedProvider | undefined;
  close(): Promise<void>;
}

/**
 * The one place that maps configuration to a language-model provider. The returned
 * provider can change underneath (e.g. from "downloading" to the loaded default model), so
 * callers keep the one instance for the process's life. With a router (the model connections)
 * each request goes to the connection its route resolves to; the configured provider answers
 * where the router has none.
 */
export class ManagedLlm implements LlmProvider {
  private router?: LlmRouter;
  constructor(private current: LlmProvider) {}
  get name(): string {
    return this.pick(undefined).provider.name;
  }
  /** Replaces the provider in use (after a download finishes, or in tests). */
  use(provider: LlmProvider): void {
    this.current = provider;
  }
  /** The configured (or injected) provider, whatever the router says (the registry reuses its loaded GGUF). */
  base(): LlmProvider {
    return this.current;
  }
  /** Routes every later request through `router` (the model connections' registry). */
  setRouter(router: LlmRouter): void {
    this.router = router;
  }
  private pick(route: LlmRoute | undefined): RoutedProvider {
    return this.router?.resolve(route) ?? { provider: this.current };
  }
  contextWindow(): number {
    return this.pick(undefined).provider.contextWindow();
  }
  status(): ProviderStatus {
    return this.pick(undefined).provider.status();
  }
  countTokens(text: string): number {
    return this.pick(undefined).provider.countTokens(text);
  }
  /**
   * Generates with the route's provider; a routed request takes its connection's reply length and
   * temperature, except those the character sets itself (`characterSettings`).
   */
  generate(request: GenerateRequest): Promise<GenerateResult> {
    const { route, characterSettings: own, ...rest } = request;
    const { provider, settings } = this.pick(route);
    if (!settings || !route) return provider.generate(rest);
    return provider.generate({
      ...rest,
      maxTokens: own?.maxTokens ?? settings.maxTokens,
      temperature: own?.temperature ?? settings.temperature,
    });
  }
  /** This provider as one chat's route sees it (routedModel in llm.ts). */
  routed(route: LlmRoute): RoutedLlm {
    const pick = () => this.pick(route).provider;
    return {
      name: pick().name,
      replyTokens: this.pick(route).settings?.maxTokens,
      contextWindow: () => pick().contextWindow(),
      status: () => pick().status(),
      countTokens: (text) => pick().countTokens(text),
      generate: (request) => this.generate({ ...request, route }),
      close: async () => {},
    };
  }
  async close(): Promise<void> {
    await this.router?.close();
    await this.current.close();
  }
}

/**
 * Chooses the provider from configuration:
 * - `openai` (or `auto` with LLM_BASE_URL): an OpenAI-compatible endpoint;
 * - `llama` (or `auto` with LLM_MODEL_PATH): that GGUF in process;
 * - `auto` with neither: the default GGUF under data/models/, fetched on first start when
 *   LLM_AUTO_DOWNLOAD is 1 (in the background; chats answer "downloading" meanwhile and the
 *   status carries the download's progress);
 * - `none`: chats are stored and answered success 0 saying an administrator has to connect a
 *   model; the log says how (once, at start).
 * Never throws for an unreachable download: it logs one line and stays unavailable.
 * @throws Error for contradictory configuration (e.g. openai without LLM_MODEL).
 */
export function createLlm(
  config: AppConfig,
  log: Log,
  options: CreateLlmOptions = {},
): { llm: ManagedLlm; ready: Promise<void> } {
  const llamaOptions = (modelPath: string) => ({
    modelPath,
    contextSize: config.LLM_CONTEXT_SIZE,
    threads: config.LLM_THREADS,
    parallel: config.LLM_PARALLEL,
    cachedSequences: config.LLM_CACHED_CHATS,
    gpu: config.LLM_GPU,
  });
  const where = (provider: LlamaProvider) => {
    const gpu = provider.gpu();
    return gpu ? `on the GPU (${gpu})` : "on the CPU";
  };
  const wantOpenAi =
    config.LLM_PROVIDER === "openai" || (config.LLM_PROVIDER === "auto" && config.LLM_BASE_URL);
  if (wantOpenAi) {
    if (!config.LLM_BASE_URL || !config.LLM_MODEL) {
      throw new Error("LLM_PROVIDER=openai needs LLM_BASE_URL and LLM_MODEL (see docs/configuration.md).");
    }
    const provider = new OpenAiProvider({
      baseUrl: config.LLM_BASE_URL,
      apiKey: config.LLM_API_KEY,
      model: config.LLM_MODEL,
      contextSize: config.LLM_CONTEXT_SIZE,
      timeoutMs: config.LLM_TIMEOUT_MS,
      cacheFields: promptCacheFields(config.LLM_PROMPT_CACHE, config.LLM_BASE_URL),
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
        log(
          `Language model loaded: ${config.LLM_MODEL_PATH} (context ${provider.contextWindow()} tokens, ${where(provider)})`,
        ),
      (error: unknown) =>
        log(`Language model failed to load from ${config.LLM_MODEL_PATH}: ${String(error)}`),
    );
    return { llm: new ManagedLlm(provider), ready };
  }
  const unavailable = new DownloadingProvider(reasonOf(NOT_CONFIGURED_STATUS));
  const llm = new ManagedLlm(unavailable);
  const firstRun = options.firstRun ?? { adminExists: true, modelConnected: false };
  // One line saying how to connect a model; none when an admin has connected one already.
  const noModel: NoModelLog = (why = "") => {
    if (!firstRun.modelConnected)
      log(`No language model: ${why}${notConfiguredInstruction(config.publicUrl, firstRun)}`);
  };
  if (config.LLM_PROVIDER === "none") {
    noModel();
    return { llm, ready: Promise.resolve() };
  }
  const fetcher = options.fetcher ?? NODE_LLAMA_FETCHER;
  const ready = findOrDownloadDefaultModel(config, noModel, unavailable, fetcher).then(async (modelPath) => {
    if (!modelPath) return;
    const provider = new LlamaProvider(llamaOptions(modelPath));
    try {
      await provider.load();
      llm.use(provider);
      log(`Language model loaded: ${modelPath} (${where(provider)})`);
    } catch (error) {
      unavailable.setMessage(reasonOf(provider.status()));
      log(`Language model failed to load from ${modelPath}: ${String(error)}`);
    }
  });
  return { llm, ready };
}

/** Logs the line that no model is there (`why` first, e.g. "the download failed. ") and how to connect one. */
type NoModelLog = (why?: string) => void;

/**
 * Finds the default GGUF in <dataDir>/models, or downloads it with `fetcher` (the real one draws
 * a console progress bar); while it runs `unavailable` reports the progress.
 * @returns the model's path, or undefined when it is not available (one line is logged).
 */
async function findOrDownloadDefaultModel(
  config: AppConfig,
  noModel: NoModelLog,
  unavailable: DownloadingProvider,
  fetcher: ModelFetcher,
): Promise<string | undefined> {
  const dir = path.join(config.dataDir, "models");
  const fileName = config.LLM_DEFAULT_MODEL_URI.split("/").pop() ?? "model.gguf";
  const target = path.join(dir, fileName);
  if (fs.existsSync(target)) return target;
  if (config.LLM_AUTO_DOWNLOAD !== "1") {
    noModel();
    return undefined;
  }
  // The downloader retries for minutes when offline; a quick probe keeps start-up honest.
  if (!(await fetcher.reachable())) {
    noModel("the default model could not be downloaded (offline?). ");
    return undefined;
  }
  unavailable.setMessage(DOWNLOADING);
  unavailable.setProgress(downloadProgress(0, null));
  try {
    const modelPath = await fetcher.download({
      uri: config.LLM_DEFAULT_MODEL_URI,
      dir,
      fileName,
      onProgress: (done, total) => unavailable.setProgress(downloadProgress(done, total)),
    });
    unavailable.setProgress(null);
    unavailable.setMessage(LOADING_MESSAGE);
    return modelPath;
  } catch (error) {
    unavailable.setProgress(null);
    unavailable.setMessage(reasonOf(NOT_CONFIGURED_STATUS));
    noModel(`downloading ${config.LLM_DEFAULT_MODEL_URI} failed (${String(error)}). `);
    return undefined;
  }
}

/** What the chat says while the default model downloads (the banner adds the progress). */
const DOWNLOADING = msg("llm.defaultModelDownloading");
/** DOWNLOADING in English, as the API sends it. */
export const DOWNLOADING_MESSAGE = english(DOWNLOADING);
/** What the chat says between the download's end and the model's load. */
const LOADING_MESSAGE = msg("llm.languageModelStillLoadingTry");

/**
 * The prompt-cache fields sent to an OpenAI-wire endpoint (LLM_PROMPT_CACHE), each only where it
 * is documented: `prompt_cache_key` (OpenAI's Chat Completions: requests with one key are routed
 * to the same cache) and `cache_prompt` (llama.cpp server: reuse the slot's evaluated prefix).
 * `auto`: `prompt_cache_key` for api.openai.com, `cache_prompt` for a server on this machine or a
 * private address (llama.cpp's usual place; others there ignore unknown fields), none elsewhere
 * (some hosted APIs refuse unknown fields). `off`: none; otherwise the listed fields.
 */
export function promptCacheFields(setting: string, baseUrl: string): PromptCacheField[] {
  const value = setting.trim();
  if (value === "off") return [];
  if (value !== "auto")
    return value
      .split(",")
      .map((f) => f.trim())
      .filter((f): f is PromptCacheField => f === "prompt_cache_key" || f === "cache_prompt");
  let host = "";
  try {
    host = new URL(baseUrl).hostname;
  } catch {
    return [];
  }
  if (host === "api.openai.com") return ["prompt_cache_key"];
  const local =
    host === "localhost" ||
    host === "[::1]" ||
    /^127\./.test(host) ||
    /^10\./.test(host) ||
    /^192\.168\./.test(host) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(host) ||
    host.endsWith(".local") ||
    !host.includes(".");
  return local ? ["cache_prompt"] : [];
}

/** Wraps a ready provider (tests, benchmarks) in the managed holder the services use. */
export function wrap(provider: LlmProvider): ManagedLlm {
  return provider instanceof ManagedLlm ? provider : new ManagedLlm(provider);
}
