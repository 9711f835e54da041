// The tables of model connections (product.md §9): the connections, which one answers where, and their version.
import type { Generated } from "kysely";

/** A model connection of the admin console (product.md §9): an OpenAI-wire endpoint or a GGUF file. */
export interface ModelConnectionsTable {
  id: string;
  name: string;
  /** "openai" or "embedded". */
  kind: string;
  /** "ollama", "llamacpp", "lmstudio", "vllm", "openrouter", "openai" or "custom". */
  preset: string;
  /** The endpoint's base URL; "" for embedded. */
  base_url: Generated<string>;
  /** The model's id at the endpoint, or the GGUF file's absolute path (embedded). */
  model: string;
  /** The API key, AES-256-GCM encrypted (server/modules/models/models.keys.ts); "" when none. */
  api_key_encrypted: Generated<string>;
  max_tokens: number;
  temperature: number;
  context_size: number;
  created_at: number;
  updated_at: number;
}

/** Which connection answers where: scope "default" (target ""), "plan" or "character" (a preset's id). */
export interface ModelAssignmentsTable {
  scope: string;
  target_id: string;
  connection_id: string;
}

/** One row (id 1): `version` is bumped on every change of the connections or assignments. */
export interface ModelSettingsTable {
  id: number;
  version: number;
  /** 1 once the environment's model was stored as the first connection (or nothing was to store). */
  seeded: number;
}

/** The tables above, as the `Database` interface of server/db/schema.ts includes them. */
export interface ModelsTables {
  model_connections: ModelConnectionsTable;
  model_assignments: ModelAssignmentsTable;
  model_settings: ModelSettingsTable;
}
