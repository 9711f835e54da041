// The language model behind one interface: prompt messages, generation requests and results, routes, status and the unavailable error.
import type { ModelDownloadProgress } from "../../../common/api";
import { AppError } from "../../errors";
import { carried, carry, english, type Message, msg } from "../../i18n/messages";

export type { ModelDownloadProgress };

/** One message of a prompt, in the common chat-completions form. */
export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

export interface GenerateRequest {
  /**
   * The prompt. When it ends with an assistant message, the model continues that message
   * (chat/continue-message) and `text` is only the continuation.
   */
  messages: ChatMessage[];
  /** Upper bound of reply length, in tokens. */
  maxTokens: number;
  temperature?: number;
  /** Strings that end the reply (e.g. the user's name followed by a colon). */
  stop?: string[];
  signal?: AbortSignal;
  /** Called with each piece of text as it is generated (streaming). */
  onTextChunk?: (chunk: string) => void;
  /**
   * The prompt cache this request belongs to, stable across a chat's turns (e.g. one chat and
   * character): the embedded model sends it back to the context sequence that holds its prefix;
   * OpenAI-wire endpoints may get it as `prompt_cache_key`. Without it the request shares a
   * sequence with other keyless requests of the same kind.
   */
  cacheKey?: string;
  /**
   * Work no one waits on (memory jobs, check-ins): the embedded model runs it in a slot of its
   * own, so a reply never queues behind it, and only while no reply generates: it waits for a
   * pause between replies and is cut short (then run again) when one starts (llama.ts,
   * reply-first.ts). Endpoints ignore it: their machine is not ours.
   */
  background?: boolean;
  /**
   * The chat this request answers (the reply path): the model connections' router picks the
   * connection assigned to the character, else to the user's plan, else the default, and applies
   * its generation settings (product.md §9). Absent: the default connection, the request's own settings.
   */
  route?: LlmRoute;
  /**
   * The character's own reply length and temperature (product.md §2 "Character form",
   * Generation): each one set wins over the routed connection's setting.
   */
  characterSettings?: { maxTokens?: number; temperature?: number };
}

/** Which chat a request is for: a preset character's id and the user's plan id. */
export interface LlmRoute {
  characterId?: string;
  planId?: string;
}

/** A provider bound to one chat's route, with the longest reply its connection allows. */
export type RoutedLlm = LlmProvider & {
  /** The connection's longest reply, in tokens; absent when no connection is assigned. */
  replyTokens?: number;
};

/**
 * `llm` as one chat's route sees it: the context window and token counts of the connection that
 * answers that chat (product.md §9), when `llm` routes (ManagedLlm); otherwise `llm` itself.
 */
export function routedModel(llm: LlmProvider, route: LlmRoute): RoutedLlm {
  const routable = llm as LlmProvider & { routed?: (route: LlmRoute) => RoutedLlm };
  return typeof routable.routed === "function" ? routable.routed(route) : llm;
}

/** How much of a prompt was read anew and how much came from the prefix cache, in tokens. */
export interface PromptTokens {
  /** Tokens of the whole prompt. */
  total: number;
  /** Tokens evaluated for this request (the rest were reused from the cache). */
  evaluated: number;
}

export interface GenerateResult {
  text: string;
  /** Wall time spent in the model (queueing for a context included), milliseconds. */
  modelMs: number;
  /** Where the provider can tell (the embedded model, endpoints that report cached tokens). */
  promptTokens?: PromptTokens;
}

/** Whether the provider can answer now, and if not, a sentence for the user saying why. */
export interface ProviderStatus {
  ready: boolean;
  /** Why it is not ready, or "ready"; ours carry their message value (server/i18n/messages.ts `carry`). */
  message: string;
  /** while the model is being downloaded, how far it has come (absent otherwise). */
  download?: ModelDownloadProgress;
}

/**
 * the progress of a download from its byte counts. `totalBytes` 0, negative or not
 * finite means unknown (percent null); the percent is rounded down and kept within 0 to 100.
 */
export function downloadProgress(doneBytes: number, totalBytes: number | null): ModelDownloadProgress {
  const done = Number.isFinite(doneBytes) && doneBytes > 0 ? Math.floor(doneBytes) : 0;
  const total =
    totalBytes !== null && Number.isFinite(totalBytes) && totalBytes > 0 ? Math.floor(totalBytes) : null;
  const percent = total === null ? null : Math.min(100, Math.floor((done / total) * 100));
  return { doneBytes: done, totalBytes: total, percent };
}

/**
 * A language model behind one interface (house style: one module maps configuration to a
 * provider). Implementations: `llama` (node-llama-cpp in process), `openai` (any
 * OpenAI-compatible Chat Completions endpoint), `none` (not configured).
 */
export interface LlmProvider {
  readonly name: string;
  /** Context window in tokens (prompt + reply). */
  contextWindow(): number;
  status(): ProviderStatus;
  /** Number of tokens of `text` with the model's tokenizer, or an estimate where none is at hand. */
  countTokens(text: string): number;
  /**
   * Generates the assistant's next message.
   * @throws LlmUnavailableError when no model is ready; other errors when the model fails.
   */
  generate(request: GenerateRequest): Promise<GenerateResult>;
  close(): Promise<void>;
}

/** The model is not configured, still loading or downloading: the chat answers success 0. */
export class LlmUnavailableError extends AppError {
  constructor(message: string | Message) {
    super("llm_unavailable", message);
  }
}

/** A "not ready" status saying `message`: its English text, the message value carried along. */
export function statusOf(message: string | Message): ProviderStatus {
  return carry({ ready: false, message: english(message) }, message);
}

/** The message of a status or error: the carried message value, else its text. */
export function reasonOf(status: { message: string }): string | Message {
  return carried(status) ?? status.message;
}

/** Rough token estimate for providers without a local tokenizer: ~4 characters a token. */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * The status while no model is configured. Its message is what users read: someone else (the
 * site's administrator) has to connect one; a message value, translated like every server
 * message. The operator's instruction is
 * `notConfiguredInstruction`, logged at start.
 */
export const NOT_CONFIGURED_STATUS: ProviderStatus = statusOf(msg("llm.noLanguageModelConnectedYet"));

/** What users read while no model is configured (`NOT_CONFIGURED_STATUS`'s message). */
export const NOT_CONFIGURED_MESSAGE: string = NOT_CONFIGURED_STATUS.message;

/**
 * What an admin reads instead of NOT_CONFIGURED_MESSAGE on the chat's banner: they are the one
 * who connects a model, in Admin → Models (`/admin#models`, which the banner links to).
 */
export const NOT_CONFIGURED_ADMIN_STATUS: ProviderStatus = statusOf(msg("llm.noLanguageModelConnectedAdmin"));

/** Where the site stands at start, for the operator's instruction while no model is configured. */
export interface FirstRunState {
  /** Whether an admin account exists (else the owner's set-up link comes first). */
  adminExists: boolean;
  /** Whether an admin has made a connection the default (then no instruction is needed). */
  modelConnected: boolean;
}

/**
 * The operator's instruction while no model is configured, for the server log (English): connect
 * one in the admin console at `<origin>/admin#models` (no restart), after the owner's set-up link
 * while no admin exists; or name one in the environment before the start.
 * @param origin PUBLIC_URL, else http://localhost:PORT.
 */
export function notConfiguredInstruction(origin: string, state: Pick<FirstRunState, "adminExists">): string {
  const connect = `connect one in the admin console at ${origin}/admin#models (no restart needed)`;
  const first = state.adminExists
    ? `An admin can ${connect}.`
    : `Open the owner set-up link (printed once the server listens) first, then ${connect}.`;
  return `${first} Or set LLM_MODEL_PATH to a GGUF file, or LLM_BASE_URL (and LLM_MODEL) to an OpenAI-compatible endpoint, before the start.`;
}
