import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { bearer, fetchOk, joinUrl, type ModelEndpointOptions, postJson } from "../http";
import { type GeneratedImage, type ImageProvider, ImageProviderError, type ImageRequest } from "./image";

/**
 * `baseUrl` e.g. http://127.0.0.1:8188; `apiKey`: bearer token for a ComfyUI behind an
 * authenticating proxy, empty otherwise; `model`: the checkpoint file name for `{{model}}`
 * (empty: v1-5-pruned-emaonly.safetensors).
 */
export interface ComfyUiOptions extends ModelEndpointOptions {
  /** Sampling steps per image. */
  steps: number;
  /** A workflow in ComfyUI's API format ("Save (API)"); empty uses the built-in SD 1.5 workflow. */
  workflowPath: string;
  /** Time between two looks at /history, milliseconds. */
  pollMs?: number;
}

/** The built-in text-to-image workflow (API format) with placeholders. */
export const DEFAULT_WORKFLOW_PATH = path.join(import.meta.dirname, "comfyui-default-workflow.json");
const DEFAULT_CHECKPOINT = "v1-5-pruned-emaonly.safetensors";

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

/**
 * Fills a workflow's placeholders: a string that is exactly `{{seed}}`, `{{width}}`, `{{height}}`
 * or `{{steps}}` becomes that number; `{{prompt}}`, `{{negative_prompt}}` and `{{model}}` are
 * replaced inside strings. Workflows without placeholders get the prompt in the first
 * CLIPTextEncode, the negative in the second, and the seed in every KSampler.
 */
export function fillWorkflow(
  workflow: Record<string, { class_type?: string; inputs?: Record<string, Json> }>,
  values: {
    prompt: string;
    negativePrompt: string;
    seed: number;
    width: number;
    height: number;
    steps: number;
    model: string;
  },
): Record<string, unknown> {
  const numbers: Record<string, number> = {
    "{{seed}}": values.seed,
    "{{width}}": values.width,
    "{{height}}": values.height,
    "{{steps}}": values.steps,
  };
  let placeholders = 0;
  const fill = (value: Json): Json => {
    if (typeof value === "string") {
      if (value in numbers) {
        placeholders += 1;
        return numbers[value]!;
      }
      if (!value.includes("{{")) return value;
      placeholders += 1;
      return value
        .replaceAll("{{prompt}}", values.prompt)
        .replaceAll("{{negative_prompt}}", values.negativePrompt)
        .replaceAll("{{model}}", values.model);
    }
    if (Array.isArray(value)) return value.map(fill);
    if (value && typeof value === "object") {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v)]));
    }
    return value;
  };
  const filled = fill(workflow as Json) as Record<
    string,
    { class_type?: string; inputs?: Record<string, Json> }
  >;
  if (placeholders === 0) {
    const encoders = Object.values(filled).filter((node) => node.class_type === "CLIPTextEncode");
    if (encoders[0]?.inputs) encoders[0].inputs.text = values.prompt;
    if (encoders[1]?.inputs) encoders[1].inputs.text = values.negativePrompt;
    for (const node of Object.values(filled)) {
      if (node.class_type?.startsWith("KSampler") && node.inputs) {
        if ("seed" in node.inputs) node.inputs.seed = values.seed;
        if ("noise_seed" in node.inputs) node.inputs.noise_seed = values.seed;
      }
      if (node.class_type === "EmptyLatentImage" && node.inputs) {
        node.inputs.width = values.width;
        node.inputs.height = values.height;
      }
    }
  }
  return filled;
}

interface HistoryItem {
  status?: { status_str?: string; completed?: boolean; messages?: unknown[] };
  outputs?: Record<string, { images?: Array<{ filename: string; subfolder?: string; type?: string }> }>;
}

/**
 * ComfyUI: the workflow (COMFYUI_WORKFLOW_PATH, or the built-in SD 1.5 one) with prompt, seed and
 * size filled in is queued with POST `/prompt`; `/history/{prompt_id}` is polled until the
 * prompt has an output image (or an error status); the image is read with GET `/view`. When the
 * request's signal aborts (the job's timeout, a shutdown) after the prompt was queued, the prompt
 * is cancelled on the server (`cancel`).
 */
export class ComfyUiProvider implements ImageProvider {
  readonly name = "comfyui";
  private readonly workflow: Record<string, { class_type?: string; inputs?: Record<string, Json> }>;
  private readonly clientId = randomUUID();

  /** @throws Error when the workflow file cannot be read or is not a JSON object (stops the boot). */
  constructor(private readonly options: ComfyUiOptions) {
    const file = options.workflowPath || DEFAULT_WORKFLOW_PATH;
    let parsed: unknown;
    try {
      parsed = JSON.parse(fs.readFileSync(file, "utf8"));
    } catch (error) {
      throw new Error(`COMFYUI_WORKFLOW_PATH: cannot read a JSON workflow from ${file}: ${String(error)}`);
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
      throw new Error(`COMFYUI_WORKFLOW_PATH: ${file} is not a workflow in API format (an object of nodes).`);
    }
    this.workflow = parsed as typeof this.workflow;
  }

  status() {
    return { ready: true, message: "ready" };
  }

  async generate(request: ImageRequest): Promise<GeneratedImage> {
    const prompt = fillWorkflow(this.workflow, {
      prompt: request.prompt,
      negativePrompt: request.negativePrompt,
      seed: request.seed,
      width: request.width,
      height: request.height,
      steps: this.options.steps,
      model: this.options.model || DEFAULT_CHECKPOINT,
    });
    const headers = bearer(this.options.apiKey);
    const queued = await postJson(
      joinUrl(this.options.baseUrl, "prompt"),
      { prompt, client_id: this.clientId },
      { headers, signal: request.signal },
    );
    const { prompt_id: promptId, node_errors: nodeErrors } = (await queued.json()) as {
      prompt_id?: string;
      node_errors?: Record<string, unknown>;
    };
    if (!promptId) {
      throw new ImageProviderError(`/prompt answered no prompt_id ${JSON.stringify(nodeErrors ?? {})}`);
    }
    try {
      return await this.waitForImage(promptId, request.signal);
    } catch (error) {
      // A job's timeout or shutdown: take the prompt off the server too (issue 16), so the GPU
      // is not kept busy drawing a picture nobody will see.
      if (request.signal?.aborted) await this.cancel(promptId).catch(() => {});
      throw error;
    }
  }

  /**
   * Takes `promptId` off the ComfyUI server: POST /queue `{delete: [id]}` removes it while it
   * waits; when GET /queue lists it as running, POST /interrupt `{prompt_id}` stops it (the id
   * is checked first because a ComfyUI older than the `prompt_id` field interrupts whatever runs,
   * which could be another user's picture). Each call is bounded by 5 s.
   * @throws ProviderHttpError when the server cannot be reached or refuses.
   */
  async cancel(promptId: string): Promise<void> {
    const headers = bearer(this.options.apiKey);
    const timeoutMs = 5000;
    await postJson(joinUrl(this.options.baseUrl, "queue"), { delete: [promptId] }, { headers, timeoutMs });
    const queue = (await (
      await fetchOk(joinUrl(this.options.baseUrl, "queue"), { headers, timeoutMs })
    ).json()) as { queue_running?: unknown[] };
    const running = (queue.queue_running ?? []).some((item) => Array.isArray(item) && item[1] === promptId);
    if (running) {
      await postJson(
        joinUrl(this.options.baseUrl, "interrupt"),
        { prompt_id: promptId },
        { headers, timeoutMs },
      );
    }
  }

  /** Polls /history until the prompt has an image, then reads it with /view. */
  private async waitForImage(promptId: string, signal: AbortSignal | undefined): Promise<GeneratedImage> {
    const headers = bearer(this.options.apiKey);
    const pollMs = this.options.pollMs ?? 1000;
    for (;;) {
      const history = await fetchOk(
        joinUrl(this.options.baseUrl, `history/${encodeURIComponent(promptId)}`),
        { headers, signal },
      );
      const item = ((await history.json()) as Record<string, HistoryItem>)[promptId];
      if (item) {
        if (item.status?.status_str === "error") {
          throw new ImageProviderError(
            `ComfyUI failed the prompt: ${JSON.stringify(item.status.messages ?? [])}`.slice(0, 500),
          );
        }
        const image = Object.values(item.outputs ?? {}).flatMap((output) => output.images ?? [])[0];
        if (image) {
          const query = new URLSearchParams({
            filename: image.filename,
            subfolder: image.subfolder ?? "",
            type: image.type ?? "output",
          });
          const file = await fetchOk(joinUrl(this.options.baseUrl, `view?${query.toString()}`), {
            headers,
            signal,
          });
          return { bytes: Buffer.from(await file.arrayBuffer()) };
        }
        if (item.status?.completed)
          throw new ImageProviderError("ComfyUI finished the prompt without an image");
      }
      await sleep(pollMs, signal);
    }
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
