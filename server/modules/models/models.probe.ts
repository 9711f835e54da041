// What the admin console asks of a connection before using it: presets, GGUF files, model lists and a timed test.
import fs from "node:fs";
import path from "node:path";
import type { ModelPresetInfo, ModelTestResult } from "../../../common/models-api";
import { badRequest } from "../../errors";
import { english, msg } from "../../i18n/messages";
import type { LlmProvider } from "../../providers/llm/llm";

/** The servers the form knows, with their usual address and whether they want a key. */
export const MODEL_PRESETS: ModelPresetInfo[] = [
  { preset: "ollama", label: "Ollama", baseUrl: "http://127.0.0.1:11434/v1", needsApiKey: false },
  { preset: "llamacpp", label: "llama.cpp server", baseUrl: "http://127.0.0.1:8080/v1", needsApiKey: false },
  { preset: "lmstudio", label: "LM Studio", baseUrl: "http://127.0.0.1:1234/v1", needsApiKey: false },
  { preset: "vllm", label: "vLLM", baseUrl: "http://127.0.0.1:8000/v1", needsApiKey: false },
  { preset: "openrouter", label: "OpenRouter", baseUrl: "https://openrouter.ai/api/v1", needsApiKey: true },
  { preset: "openai", label: "OpenAI", baseUrl: "https://api.openai.com/v1", needsApiKey: true },
  { preset: "custom", label: "Custom", baseUrl: "", needsApiKey: false },
];

/** How long a model list may take, milliseconds. */
export const LIST_TIMEOUT_MS = 10_000;
/** The largest model list read, bytes (OpenRouter's is a few hundred kB). */
export const LIST_MAX_BYTES = 4 * 1024 * 1024;
/** How long a test generation may take, milliseconds. */
export const TEST_TIMEOUT_MS = 60_000;
/** The test reply's text is cut to about this many characters. */
const TEST_TEXT_CHARS = 300;
/** Streamed text past this many characters ends a test (a reply is cut to TEST_TEXT_CHARS anyway). */
const TEST_MAX_CHARS = 16_384;

export const LIST_FAILED = msg("models.serverDidNotAnswerList");
export const LIST_UNREACHABLE = msg("models.serverCouldNotReachedWithin");
export const TEST_TIMED_OUT = english(msg("models.modelDidNotAnswerWithin"));
export const TEST_FAILED = english(msg("models.modelCouldNotReachedRefused"));
export const TEST_EMPTY = english(msg("models.modelAnsweredNoText"));

/**
 * The GGUF files this server may load (absolute paths, sorted): `<dataDir>/models/*.gguf` and
 * LLM_MODEL_PATH when it names a file. An embedded connection may name only one of these.
 */
export function ggufFiles(dataDir: string, envModelPath: string): string[] {
  const dir = path.join(dataDir, "models");
  const files = new Set<string>();
  try {
    for (const name of fs.readdirSync(dir)) {
      const full = path.join(dir, name);
      if (name.toLowerCase().endsWith(".gguf") && fs.statSync(full).isFile()) files.add(full);
    }
  } catch {
    // No models directory yet.
  }
  if (envModelPath) {
    const full = path.resolve(envModelPath);
    if (fs.existsSync(full)) files.add(full);
  }
  return [...files].sort();
}

/** The body of `response`, at most `max` bytes. @throws Error past `max`. */
async function boundedText(response: Response, max: number): Promise<string> {
  const reader = response.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw new Error("answer too large");
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * The model ids an OpenAI-wire endpoint offers: GET `{baseUrl}/models` with the key, bounded in
 * time (LIST_TIMEOUT_MS) and size (LIST_MAX_BYTES). The admin is trusted with the address; the
 * bounds keep a wrong one from holding the server.
 * @returns the ids, sorted. @throws AppError 400 (LIST_UNREACHABLE, LIST_FAILED).
 */
export async function listRemoteModels(baseUrl: string, apiKey: string): Promise<string[]> {
  const url = `${baseUrl.replace(/\/+$/, "")}/models`;
  const signal = AbortSignal.timeout(LIST_TIMEOUT_MS);
  let text: string;
  try {
    const response = await fetch(url, {
      headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
      signal,
      redirect: "error",
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      throw badRequest(LIST_FAILED);
    }
    text = await boundedText(response, LIST_MAX_BYTES);
  } catch {
    if (signal.aborted) throw badRequest(LIST_UNREACHABLE);
    throw badRequest(LIST_FAILED);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw badRequest(LIST_FAILED);
  }
  const data = (parsed as { data?: unknown } | null)?.data ?? (parsed as { models?: unknown } | null)?.models;
  if (!Array.isArray(data)) throw badRequest(LIST_FAILED);
  const ids = data
    .map(
      (item: unknown) =>
        (item as { id?: unknown; name?: unknown } | null)?.id ?? (item as { name?: unknown })?.name,
    )
    .filter((id): id is string => typeof id === "string" && id.length > 0 && id.length <= 200);
  return [...new Set(ids)].sort();
}

/**
 * One short streamed reply from `provider`, timed: the time to the first text and the whole
 * reply, bounded by TEST_TIMEOUT_MS; the text cut to about 300 characters. Never throws: a
 * failure is `ok: false` with a sentence (the cause goes to `logError`, never a key).
 */
export async function testGeneration(
  provider: LlmProvider,
  settings: { maxTokens: number; temperature: number },
  logError: (error: unknown) => void,
): Promise<ModelTestResult> {
  const timeout = AbortSignal.timeout(TEST_TIMEOUT_MS);
  // An endpoint that streams past max_tokens is cut once the text is far longer than shown.
  const enough = new AbortController();
  const signal = AbortSignal.any([timeout, enough.signal]);
  const started = performance.now();
  let first: number | null = null;
  let streamed = "";
  const answer = (ok: boolean, text: string, failure?: { error: string }): ModelTestResult => {
    const trimmed = text.trim();
    const cut = trimmed.length > TEST_TEXT_CHARS ? `${trimmed.slice(0, TEST_TEXT_CHARS)}…` : trimmed;
    const timeToFirstTokenMs = first === null ? null : Math.round(first);
    const totalMs = Math.round(performance.now() - started);
    return { ok, timeToFirstTokenMs, totalMs, text: cut, ...failure };
  };
  try {
    const result = await provider.generate({
      messages: [
        { role: "system", content: "You are a friendly assistant. Answer in one short sentence." },
        { role: "user", content: "Say hello and tell me your name." },
      ],
      maxTokens: Math.min(settings.maxTokens, 64),
      temperature: settings.temperature,
      signal,
      onTextChunk: (chunk) => {
        if (first === null && chunk) first = performance.now() - started;
        streamed += chunk;
        if (streamed.length > TEST_MAX_CHARS) enough.abort();
      },
    });
    const text = result.text || streamed;
    if (timeout.aborted) return answer(false, text, { error: TEST_TIMED_OUT });
    if (!text.trim()) return answer(false, "", { error: TEST_EMPTY });
    return answer(true, text);
  } catch (error) {
    if (enough.signal.aborted && !timeout.aborted) return answer(true, streamed);
    if (!timeout.aborted) logError(error);
    return answer(false, streamed, { error: timeout.aborted ? TEST_TIMED_OUT : TEST_FAILED });
  }
}
