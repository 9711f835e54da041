// The admin console's model connections (product.md §9): CRUD, assignments, model lists, tests and the environment's seed.
import { randomUUID } from "node:crypto";
import path from "node:path";
import type {
  ModelAssignments,
  ModelConnection,
  ModelPreset,
  ModelsOverview,
  ModelTestResult,
} from "../../../common/models-api";
import type { User } from "../../db/schema";
import { auditEntry } from "../../db/user-queries";
import type { AppConfig } from "../../env";
import { badRequest, notFound } from "../../errors";
import { msg } from "../../i18n/messages";
import type { KeyBox } from "./models.keys";
import { ggufFiles, listRemoteModels, MODEL_PRESETS, testGeneration } from "./models.probe";
import type { ModelRegistry } from "./models.registry";
import type { ConnectionRow, ModelsRepo } from "./models.repo";
import { BASE_URL, type ConnectionInput } from "./models.schemas";

export const CONNECTION_NOT_FOUND = msg("models.connectionDoesNotExist");
const PLAN_NOT_FOUND = msg("models.planDoesNotExist");
const PRESET_NOT_FOUND = msg("characters.presetCharacterDoesNotExist");
const NOT_A_FILE = msg("models.modelFileMustOneServer");
const TARGET_NEEDED = msg("models.targetIdRequiredPlanCharacter");

/** A stored connection as the API shows it: never its key, only whether it has one. */
export function presentConnection(row: ConnectionRow): ModelConnection {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind === "embedded" ? "embedded" : "openai",
    preset: row.preset as ModelPreset,
    baseUrl: row.base_url,
    model: row.model,
    hasApiKey: row.api_key_encrypted !== "",
    maxTokens: row.max_tokens,
    temperature: Number(row.temperature),
    contextSize: row.context_size,
    updatedAt: new Date(Number(row.updated_at)).toISOString(),
  };
}

/**
 * The connection the environment configures (LLM_BASE_URL/LLM_MODEL/LLM_API_KEY, or
 * LLM_MODEL_PATH as embedded), as `createLlm` chooses it; null when it names no model.
 */
export function envConnection(config: AppConfig): (ConnectionInput & { apiKey: string }) | null {
  const auto = config.LLM_PROVIDER === "auto";
  const settings = {
    maxTokens: Math.min(config.LLM_MAX_TOKENS, 8192),
    temperature: config.LLM_TEMPERATURE,
    contextSize: Math.min(Math.max(config.LLM_CONTEXT_SIZE, 512), 262_144),
  };
  if ((config.LLM_PROVIDER === "openai" || (auto && config.LLM_BASE_URL)) && config.LLM_BASE_URL) {
    const base = config.LLM_BASE_URL.replace(/\/+$/, "");
    const preset = MODEL_PRESETS.find((p) => p.baseUrl && p.baseUrl === base)?.preset ?? "custom";
    const model = config.LLM_MODEL.slice(0, 200) || "default";
    return {
      ...settings,
      name: model.slice(0, 60),
      kind: "openai",
      preset,
      baseUrl: base,
      model,
      apiKey: config.LLM_API_KEY,
    };
  }
  if ((config.LLM_PROVIDER === "llama" || auto) && config.LLM_MODEL_PATH) {
    const model = path.resolve(config.LLM_MODEL_PATH);
    return {
      ...settings,
      name: path.basename(model).slice(0, 60),
      kind: "embedded",
      preset: "custom",
      baseUrl: "",
      model,
      apiKey: "",
    };
  }
  return null;
}

/** What the audit log keeps of an input: every field but the key, and whether the key was set, kept or removed. */
function auditable(input: ConnectionInput): object {
  const { apiKey, ...rest } = input;
  return { ...rest, apiKey: apiKey === undefined ? "kept" : apiKey ? "set" : "removed" };
}

/**
 * The model connections of the admin console: every change is stored, bumps the version and
 * reloads this instance's registry at once (other instances follow within a second or two).
 * Inputs come validated by the routes' schemas; this checks what needs the server (an
 * embedded file among the server's GGUF files, plan and character ids).
 */
export class ModelsService {
  constructor(
    private readonly repo: ModelsRepo,
    private readonly registry: ModelRegistry,
    private readonly keys: KeyBox,
    private readonly options: { dataDir: string; envModelPath: string },
    private readonly logError: (error: unknown) => void,
  ) {}

  /** One line of the audit log (what was sent, never an API key: only whether one was set or removed). */
  private async audit(admin: User, action: string, target: string, details: object): Promise<void> {
    await this.repo.audit(auditEntry(admin, action, target, details));
  }

  /** The GGUF files an embedded connection may name. */
  embeddedFiles(): string[] {
    return ggufFiles(this.options.dataDir, this.options.envModelPath);
  }

  /** Everything the Models section shows. */
  async overview(): Promise<ModelsOverview> {
    const rows = await this.repo.connections();
    return {
      connections: rows.map(presentConnection),
      presets: MODEL_PRESETS.map((p) => ({ ...p })),
      assignments: await this.assignments(),
      embeddedFiles: this.embeddedFiles(),
    };
  }

  /** Which connection answers where; every plan and preset character listed. */
  async assignments(): Promise<ModelAssignments> {
    const [rows, plans, presets] = await Promise.all([
      this.repo.assignments(),
      this.repo.plans(),
      this.repo.presetCharacters(),
    ]);
    const of = (scope: string, target: string) =>
      rows.find((r) => r.scope === scope && r.target_id === target)?.connection_id ?? null;
    return {
      defaultId: of("default", ""),
      plans: plans.map((p) => ({ planId: p.id, planName: p.name, connectionId: of("plan", p.id) })),
      characters: presets.map((c) => ({
        characterId: c.id,
        name: c.name,
        connectionId: of("character", c.id),
      })),
    };
  }

  /**
   * The stored columns of a validated input: an openai connection needs an http(s) base URL; an
   * embedded one names one of the server's GGUF files (never another path) and has no address
   * or key. `apiKey`: undefined keeps `keptKey`, "" removes it, anything else is encrypted.
   * @throws AppError 400 for a bad address, a file the server does not offer, a key that cannot be stored.
   */
  private columns(input: ConnectionInput, keptKey: string) {
    const common = {
      name: input.name,
      kind: input.kind,
      preset: input.preset,
      model: input.model,
      max_tokens: input.maxTokens,
      temperature: input.temperature,
      context_size: input.contextSize,
    };
    if (input.kind === "embedded") {
      const file = this.embeddedFiles().find((f) => f === input.model);
      if (!file) throw badRequest(NOT_A_FILE);
      return { ...common, model: file, base_url: "", api_key_encrypted: "" };
    }
    let url: URL;
    try {
      url = new URL(input.baseUrl);
    } catch {
      throw badRequest(BASE_URL);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw badRequest(BASE_URL);
    const key = input.apiKey === undefined ? keptKey : this.keys.encrypt(input.apiKey);
    return { ...common, base_url: input.baseUrl.replace(/\/+$/, ""), api_key_encrypted: key };
  }

  /**
   * Stores a new connection. When no connection is the default (a fresh install), it becomes the
   * default, with the model it names, so the first connection an owner saves answers at once
   * (audit "model.assign" too); an existing default stays as it is.
   * @throws AppError 400 as `columns`.
   */
  async create(admin: User, input: ConnectionInput): Promise<ModelConnection> {
    const now = Date.now();
    const row = { id: randomUUID(), ...this.columns(input, ""), created_at: now, updated_at: now };
    await this.repo.insert(row);
    await this.audit(admin, "model.create", row.id, auditable(input));
    if (!(await this.repo.assignments()).some((a) => a.scope === "default")) {
      await this.repo.assign("default", "", row.id);
      await this.audit(admin, "model.assign", row.id, { scope: "default", targetId: "", first: true });
    }
    await this.registry.reload();
    return presentConnection((await this.repo.find(row.id))!);
  }

  /** Replaces a connection's fields. @throws AppError 404 for an unknown id; 400 as `columns`. */
  async update(admin: User, id: string, input: ConnectionInput): Promise<ModelConnection> {
    const existing = await this.repo.find(id);
    if (!existing) throw notFound(CONNECTION_NOT_FOUND);
    const fields = this.columns(input, existing.api_key_encrypted);
    if (!(await this.repo.update(id, { ...fields, updated_at: Date.now() })))
      throw notFound(CONNECTION_NOT_FOUND);
    await this.audit(admin, "model.update", id, auditable(input));
    await this.registry.reload();
    return presentConnection((await this.repo.find(id))!);
  }

  /** Deletes a connection; its assignments are cleared. @throws AppError 404 for an unknown id. */
  async remove(admin: User, id: string): Promise<void> {
    if (!(await this.repo.remove(id))) throw notFound(CONNECTION_NOT_FOUND);
    await this.audit(admin, "model.delete", id, {});
    await this.registry.reload();
  }

  /**
   * The model ids of a stored connection (with its stored key) or of an unsaved address; for
   * embedded, the server's GGUF files.
   * @throws AppError 404 for an unknown id; 400 for a bad address or an endpoint that fails.
   */
  async listModels(body: { id?: string; kind: "openai" | "embedded"; baseUrl: string; apiKey?: string }) {
    let target = { kind: body.kind, baseUrl: body.baseUrl, apiKey: body.apiKey ?? "" };
    if (body.id) {
      const row = await this.repo.find(body.id);
      if (!row) throw notFound(CONNECTION_NOT_FOUND);
      const kind = row.kind === "embedded" ? "embedded" : "openai";
      target = { kind, baseUrl: row.base_url, apiKey: this.keys.decrypt(row.api_key_encrypted) };
    }
    if (target.kind === "embedded") return { models: this.embeddedFiles() };
    let url: URL;
    try {
      url = new URL(target.baseUrl);
    } catch {
      throw badRequest(BASE_URL);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw badRequest(BASE_URL);
    return { models: await listRemoteModels(target.baseUrl, target.apiKey) };
  }

  /** One short timed reply from a stored connection. @throws AppError 404 for an unknown id. */
  async test(id: string): Promise<ModelTestResult> {
    const row = await this.repo.find(id);
    if (!row) throw notFound(CONNECTION_NOT_FOUND);
    const provider = this.registry.providerOf(row);
    const settings = { maxTokens: row.max_tokens, temperature: Number(row.temperature) };
    return testGeneration(provider, settings, this.logError);
  }

  /**
   * Sets which connection answers by default, for a plan or for a preset character (null clears).
   * @throws AppError 404 for an unknown connection; 400 for a missing or unknown plan or preset character.
   */
  async assign(
    admin: User,
    scope: "default" | "plan" | "character",
    targetId: string,
    connectionId: string | null,
  ) {
    if (connectionId && !(await this.repo.find(connectionId))) throw notFound(CONNECTION_NOT_FOUND);
    const target = scope === "default" ? "" : targetId;
    if (scope !== "default" && !target) throw badRequest(TARGET_NEEDED);
    if (scope === "plan" && !(await this.repo.planExists(target))) throw badRequest(PLAN_NOT_FOUND);
    if (scope === "character" && !(await this.repo.presetExists(target))) throw badRequest(PRESET_NOT_FOUND);
    await this.repo.assign(scope, target, connectionId);
    await this.audit(admin, "model.assign", connectionId ?? "", { scope, targetId: target });
    await this.registry.reload();
    return this.assignments();
  }

  /**
   * On the first start with a model in the environment and no connection, that model becomes
   * the first connection and the default (once: an owner who deletes it is not overridden at
   * the next start). Several instances starting together seed once.
   */
  async seed(env: (ConnectionInput & { apiKey: string }) | null): Promise<void> {
    if (!env) return;
    const existing = await this.repo.connections();
    if (!(await this.repo.claimSeeding()) || existing.length > 0) return;
    const now = Date.now();
    const id = randomUUID();
    await this.repo.insert({
      id,
      name: env.name,
      kind: env.kind,
      preset: env.preset,
      base_url: env.baseUrl,
      model: env.model,
      api_key_encrypted: this.keys.encrypt(env.apiKey),
      max_tokens: env.maxTokens,
      temperature: env.temperature,
      context_size: env.contextSize,
      created_at: now,
      updated_at: now,
    });
    await this.repo.assign("default", "", id);
  }
}
