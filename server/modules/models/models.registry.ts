// The live model connections of this process: providers built per connection, routes resolved, changes followed.
import path from "node:path";
import type { AppConfig } from "../../env";
import { type LlmRouter, promptCacheFields, type RoutedProvider } from "../../providers/llm/index";
import { LlamaProvider } from "../../providers/llm/llama";
import { type LlmProvider, type LlmRoute, NOT_CONFIGURED_STATUS, reasonOf } from "../../providers/llm/llm";
import { UnavailableProvider } from "../../providers/llm/none";
import { OpenAiProvider } from "../../providers/llm/openai";
import type { KeyBox } from "./models.keys";
import type { ConnectionRow, ModelsRepo } from "./models.repo";

/** How often another instance's change is looked for (one indexed one-row read), milliseconds. */
export const MODELS_POLL_MS = 1_000;

/** A built provider and whether this registry closes it (not the configured one it reuses). */
interface Built {
  provider: LlmProvider;
  owned: boolean;
}

/** What the registry is built with. */
export interface RegistryOptions {
  config: AppConfig;
  /** The configured (or injected) provider now: reused for its own GGUF file. */
  base: () => LlmProvider;
  /**
   * Whether the configured provider answers where no connection is assigned: true for an
   * injected provider (tests, benchmarks) and when the environment named no model (the default
   * GGUF may be downloading); false once the environment's model was a connection, so
   * unassigning the default says no model is connected.
   */
  fallback: boolean;
  keys: KeyBox;
  log: (line: string) => void;
  logError: (error: unknown) => void;
}

/**
 * The model connections as this process uses them (product.md §9): the stored connections and
 * assignments, loaded from the database at start, again at once after a change here, and within
 * MODELS_POLL_MS of a change on another instance (the version counter). Providers are built per
 * connection that is assigned and kept while its settings stay the same (a change rebuilds only
 * that one; the replaced one is closed). An embedded connection on the configured GGUF reuses
 * the loaded model.
 */
export class ModelRegistry implements LlmRouter {
  private connections = new Map<string, ConnectionRow>();
  private defaultId: string | null = null;
  private plans = new Map<string, string>();
  private characters = new Map<string, string>();
  /** Providers by build signature (the settings a provider is made from). */
  private built = new Map<string, Built>();
  private version = -1;
  private reloading: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;
  private readonly notConfigured = new UnavailableProvider(reasonOf(NOT_CONFIGURED_STATUS));

  constructor(
    private readonly repo: ModelsRepo,
    private readonly options: RegistryOptions,
  ) {}

  /** The connection id a route resolves to: the character's, else the plan's, else the default. */
  connectionFor(route: LlmRoute | undefined): string | null {
    const character = route?.characterId ? this.characters.get(route.characterId) : undefined;
    const plan = route?.planId ? this.plans.get(route.planId) : undefined;
    return character ?? plan ?? this.defaultId;
  }

  resolve(route: LlmRoute | undefined): RoutedProvider | undefined {
    const id = this.connectionFor(route);
    const row = id ? this.connections.get(id) : undefined;
    if (!row) return this.options.fallback ? undefined : { provider: this.notConfigured };
    return {
      provider: this.providerOf(row),
      settings: { maxTokens: row.max_tokens, temperature: Number(row.temperature) },
    };
  }

  /** The provider of a stored connection, built when needed (the admin's test of an unassigned one). */
  providerOf(row: ConnectionRow): LlmProvider {
    const signature = this.signature(row);
    let built = this.built.get(signature);
    if (!built) {
      built = this.build(row);
      this.built.set(signature, built);
    }
    return built.provider;
  }

  /** The settings a provider is made from: equal signatures share one provider. */
  private signature(row: ConnectionRow): string {
    return row.kind === "embedded"
      ? JSON.stringify(["embedded", row.model, row.context_size])
      : JSON.stringify(["openai", row.base_url, row.model, row.api_key_encrypted, row.context_size]);
  }

  private build(row: ConnectionRow): Built {
    const { config, base, keys, log, logError } = this.options;
    if (row.kind === "embedded") {
      const envFile = config.LLM_MODEL_PATH ? path.resolve(config.LLM_MODEL_PATH) : "";
      const loaded = base();
      if (loaded instanceof LlamaProvider && envFile === row.model) return { provider: loaded, owned: false };
      const provider = new LlamaProvider({
        modelPath: row.model,
        contextSize: row.context_size,
        threads: config.LLM_THREADS,
        parallel: config.LLM_PARALLEL,
        cachedSequences: config.LLM_CACHED_CHATS,
        gpu: config.LLM_GPU,
      });
      provider.load().then(
        () => log(`Language model loaded: ${row.model} (connection "${row.name}")`),
        (error: unknown) => log(`Language model failed to load from ${row.model}: ${String(error)}`),
      );
      return { provider, owned: true };
    }
    let apiKey = "";
    try {
      apiKey = keys.decrypt(row.api_key_encrypted);
    } catch (error) {
      logError(error);
      return { provider: new UnavailableProvider(reasonOf(NOT_CONFIGURED_STATUS)), owned: true };
    }
    const provider = new OpenAiProvider({
      baseUrl: row.base_url,
      apiKey,
      model: row.model,
      contextSize: row.context_size,
      timeoutMs: config.LLM_TIMEOUT_MS,
      cacheFields: promptCacheFields(config.LLM_PROMPT_CACHE, row.base_url),
    });
    return { provider, owned: true };
  }

  /** Loads the connections and assignments again now (after a change here); one reload at a time. */
  reload(): Promise<void> {
    this.reloading = this.reloading.then(
      () => this.load(),
      () => this.load(),
    );
    return this.reloading;
  }

  private async load(): Promise<void> {
    const version = await this.repo.version();
    const [rows, assignments] = await Promise.all([this.repo.connections(), this.repo.assignments()]);
    const connections = new Map(rows.map((row) => [row.id, row]));
    const plans = new Map<string, string>();
    const characters = new Map<string, string>();
    let defaultId: string | null = null;
    for (const a of assignments) {
      if (!connections.has(a.connection_id)) continue;
      if (a.scope === "default") defaultId = a.connection_id;
      else if (a.scope === "plan") plans.set(a.target_id, a.connection_id);
      else if (a.scope === "character") characters.set(a.target_id, a.connection_id);
    }
    this.connections = connections;
    this.defaultId = defaultId;
    this.plans = plans;
    this.characters = characters;
    this.version = version;
    // Build the assigned connections' providers now (an embedded one starts loading); close the rest.
    const assigned = new Set([defaultId, ...plans.values(), ...characters.values()]);
    const keep = new Set<string>();
    for (const id of assigned) {
      const row = id ? connections.get(id) : undefined;
      if (!row) continue;
      this.providerOf(row);
      keep.add(this.signature(row));
    }
    for (const [signature, built] of [...this.built]) {
      if (keep.has(signature)) continue;
      this.built.delete(signature);
      if (built.owned) await built.provider.close().catch(this.options.logError);
    }
  }

  /**
   * Loads the connections, then looks for another instance's change every MODELS_POLL_MS
   * (idempotent). @throws the database's error when the first load fails.
   */
  async start(): Promise<void> {
    await this.reload();
    if (this.timer) return;
    this.timer = setInterval(() => {
      this.repo
        .version()
        .then((version) => (version !== this.version ? this.reload() : undefined))
        .catch(this.options.logError);
    }, MODELS_POLL_MS);
    this.timer.unref();
  }

  /** Stops following changes. */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Stops following changes and closes the providers it built. */
  async close(): Promise<void> {
    this.stop();
    await this.reloading.catch(() => {});
    for (const built of this.built.values()) if (built.owned) await built.provider.close().catch(() => {});
    this.built.clear();
  }
}
