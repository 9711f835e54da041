import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { ModelConnection, ModelPresetInfo, ModelTestResult } from "../../../../common/models-api";
import { createModelConnection, listModelIds, testModelConnection } from "../../../api/models";
import i18n, { loadNamespaces } from "../../../i18n";
import { ModelFormView } from "./ModelForm";
import { ModelTestOutcome } from "./ModelsSection";
import {
  failureText,
  initialModelForm,
  keyFieldShown,
  type ModelFormAction,
  type ModelFormState,
  modelFormReducer,
  modelListSource,
  toModelInput,
} from "./modelFormState";

/**
 * The Models section's form, driven the way its component drives it (the reducer, the calls of
 * web/api/models.ts against a scripted fetch) and rendered to markup: a preset fills its address,
 * the key field never shows a stored key, "Load models" fills the select, a test shows its time
 * to first token, and a refusal shows its sentence next to the form.
 */

const PRESETS: ModelPresetInfo[] = [
  { preset: "ollama", label: "Ollama", baseUrl: "http://localhost:11434/v1", needsApiKey: false },
  { preset: "openrouter", label: "OpenRouter", baseUrl: "https://openrouter.ai/api/v1", needsApiKey: true },
  { preset: "openai", label: "OpenAI", baseUrl: "https://api.openai.com/v1", needsApiKey: true },
  { preset: "custom", label: "Custom", baseUrl: "", needsApiKey: false },
];

const STORED: ModelConnection = {
  id: "conn-1",
  name: "Router",
  kind: "openai",
  preset: "openrouter",
  baseUrl: "https://openrouter.ai/api/v1",
  model: "meta-llama/llama-3.1-8b-instruct",
  hasApiKey: true,
  maxTokens: 400,
  temperature: 0.7,
  contextSize: 8192,
  updatedAt: "2026-11-27T10:00:00.000Z",
};

interface Call {
  url: string;
  method: string;
  contentType: string;
  body: unknown;
}

/** Replaces fetch (and local storage: no token) for one test; each call takes the next answer. */
function scriptFetch(answers: Array<Response | Error>): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal("localStorage", { getItem: () => null });
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      const body = init.body instanceof Blob ? JSON.parse(await init.body.text()) : undefined;
      const contentType = init.body instanceof Blob ? init.body.type : "";
      calls.push({ url, method: init.method ?? "GET", contentType, body });
      const answer = answers.shift() ?? new TypeError("connection refused");
      if (answer instanceof Error) throw answer;
      return answer;
    }),
  );
  return calls;
}

function envelope(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
}

function run(state: ModelFormState, ...actions: ModelFormAction[]): ModelFormState {
  return actions.reduce(modelFormReducer, state);
}

/** The form's markup for `state` (new, or editing `connection`). */
function render(state: ModelFormState, connection?: ModelConnection): string {
  return renderToStaticMarkup(
    createElement(ModelFormView, {
      state,
      dispatch: () => undefined,
      overview: { presets: PRESETS, embeddedFiles: ["/models/qwen2.5-1.5b.gguf"] },
      connection,
      keyShown: keyFieldShown(state.values, PRESETS, connection),
      saving: false,
      loadingModels: false,
      onSubmit: () => undefined,
      onLoadModels: () => undefined,
      onCancel: () => undefined,
    }),
  );
}

/** The `<input>` tag whose type is `type`, or null. */
function inputOfType(html: string, type: string): string | null {
  return new RegExp(`<input[^>]*type="${type}"[^>]*>`).exec(html)?.[0] ?? null;
}

describe("the Models form", () => {
  beforeAll(async () => {
    await i18n.changeLanguage("en");
    await loadNamespaces(["models"]);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("a preset fills its base URL; the key field shows when the preset needs a key, and always for custom and openai", () => {
    const start = initialModelForm(undefined, PRESETS);
    let html = render(start);
    expect(html).toContain('value="http://localhost:11434/v1"');
    expect(inputOfType(html, "password")).toBeNull();

    const router = run(start, { type: "preset", preset: "openrouter", presets: PRESETS });
    html = render(router);
    expect(html).toContain('value="https://openrouter.ai/api/v1"');
    expect(html).not.toContain("localhost:11434");
    expect(inputOfType(html, "password")).not.toBeNull();
    expect(html).toMatch(/<label for="[^"]+">API key<\/label>/);

    // custom has no usual address: another preset's is cleared (not left for a server it is not),
    // one typed by hand stays; the key field shows.
    const custom = run(router, { type: "preset", preset: "custom", presets: PRESETS });
    expect(custom.values.baseUrl).toBe("");
    expect(inputOfType(render(custom), "password")).not.toBeNull();
    expect(run(start, { type: "preset", preset: "custom", presets: PRESETS }).values.baseUrl).toBe("");
    const typed = run(start, { type: "set", field: "baseUrl", value: "http://gpu-box:8000/v1" });
    expect(run(typed, { type: "preset", preset: "custom", presets: PRESETS }).values.baseUrl).toBe(
      "http://gpu-box:8000/v1",
    );
    const openai = run(start, { type: "preset", preset: "openai", presets: PRESETS });
    expect(inputOfType(render(openai), "password")).not.toBeNull();
  });

  it("never shows a stored key: the field starts empty; empty keeps it, a typed key replaces it, 'remove' sends \"\"", () => {
    const state = initialModelForm(STORED, PRESETS);
    const html = render(state, STORED);
    const field = inputOfType(html, "password");
    expect(field).toContain('value=""');
    expect(field).toContain('placeholder="Leave empty to keep the stored key"');
    expect(html).toContain("Remove the stored key");

    expect(toModelInput(state.values, STORED, true)).not.toHaveProperty("apiKey");
    const typed = run(state, { type: "set", field: "apiKey", value: " sk-new " });
    expect(toModelInput(typed.values, STORED, true).apiKey).toBe("sk-new");
    const removed = run(typed, { type: "removeKey", value: true });
    expect(removed.values.apiKey).toBe("");
    expect(toModelInput(removed.values, STORED, true).apiKey).toBe("");
    expect(inputOfType(render(removed, STORED), "password")).toContain("disabled");
  });

  it("'Load models' asks the endpoint and offers its ids in a select; the model stays free text", async () => {
    const calls = scriptFetch([
      envelope(200, { success: 1, message: "", data: { models: ["llama3.2:3b", "qwen2.5:7b"] } }),
      envelope(200, { success: 1, message: "", data: { models: ["gpt-4o-mini"] } }),
    ]);
    const fresh = initialModelForm(undefined, PRESETS);
    const models = await listModelIds(modelListSource(fresh.values));
    expect(calls[0]).toEqual({
      url: "/api/admin/models/list",
      method: "POST",
      contentType: "application/json",
      body: { kind: "openai", baseUrl: "http://localhost:11434/v1" },
    });
    const loaded = run(fresh, { type: "loaded", models });
    const html = render(loaded);
    expect(html).toContain("Models offered by the server (2)");
    expect(html).toContain('<option value="llama3.2:3b">llama3.2:3b</option>');
    expect(html).toContain('<option value="qwen2.5:7b">qwen2.5:7b</option>');
    const picked = run(loaded, { type: "set", field: "model", value: "qwen2.5:7b" });
    expect(render(picked)).toContain('<option value="qwen2.5:7b" selected="">');
    const typed = run(picked, { type: "set", field: "model", value: "my-own-model" });
    expect(render(typed)).toContain('value="my-own-model"');

    // a stored connection, still pointing where it did, is asked by id (its stored key is used).
    await listModelIds(modelListSource(initialModelForm(STORED, PRESETS).values, STORED));
    expect(calls[1]?.body).toEqual({ id: "conn-1" });
    // another address forgets the loaded ids.
    expect(
      run(loaded, { type: "set", field: "baseUrl", value: "http://gpu:8000/v1" }).loadedModels,
    ).toBeNull();
  });

  it("'Test' shows the time to the first token and the reply, or the failure's sentence", async () => {
    const ok: ModelTestResult = { ok: true, timeToFirstTokenMs: 312.4, totalMs: 1450, text: "Hello there!" };
    const failed: ModelTestResult = {
      ok: false,
      timeToFirstTokenMs: null,
      totalMs: 30_000,
      text: "",
      error: "The server did not answer within 30 seconds.",
    };
    const calls = scriptFetch([
      envelope(200, { success: 1, message: "", data: ok }),
      envelope(200, { success: 1, message: "", data: failed }),
    ]);
    const outcome = (result: ModelTestResult) =>
      renderToStaticMarkup(createElement(ModelTestOutcome, { pending: false, result, failure: "" }));
    const html = outcome(await testModelConnection("conn-1"));
    expect(calls[0]).toMatchObject({ url: "/api/admin/models/test", body: { id: "conn-1" } });
    expect(html).toContain('role="status"');
    expect(html).toContain("First token after 312 ms, whole reply in 1450 ms.");
    expect(html).toContain("Hello there!");
    expect(outcome(await testModelConnection("conn-1"))).toContain(
      "The server did not answer within 30 seconds.",
    );
  });

  it("a refusal shows the server's sentence next to the form; no answer shows that the server was unreachable", async () => {
    const sentence = "The base URL must start with http:// or https://.";
    const calls = scriptFetch([
      envelope(400, { success: 0, message: sentence, code: "validation" }),
      new TypeError("connection refused"),
    ]);
    const state = run(
      initialModelForm(undefined, PRESETS),
      { type: "set", field: "name", value: "Local" },
      { type: "set", field: "baseUrl", value: "localhost:11434" },
      { type: "set", field: "model", value: "llama3.2:3b" },
    );
    const input = toModelInput(state.values, undefined, false);
    const refusal = await createModelConnection(input).catch((error: unknown) => error);
    expect(calls[0]).toMatchObject({ url: "/api/admin/models/create", body: input });
    const unreachable = "The server could not be reached. Please try again.";
    const refused = run(state, { type: "problem", message: failureText(refusal, unreachable) });
    expect(render(refused)).toContain(
      `<p class="field__error admin-models__problem" role="alert">${sentence}</p>`,
    );

    const lost = await createModelConnection(input).catch((error: unknown) => error);
    const offline = run(state, { type: "problem", message: failureText(lost, unreachable) });
    expect(render(offline)).toContain(unreachable);
    expect(render(state)).not.toContain('role="alert"');
  });
});
