// The ComfyUI image engine: a workflow with its placeholders filled, queued and polled over HTTP, with an IP-Adapter reference workflow.
import { createHash, randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { bearer, fetchOk, joinUrl, type ModelEndpointOptions, ProviderHttpError, postJson } from "../http";
import {
  type GeneratedImage,
  type ImageProvider,
  ImageProviderError,
  type ImageReferenceMode,
  type ImageRequest,
  type ReferenceImage,
  referenceExtension,
  refusesReference,
} from "./image";

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
  /** IMAGE_REFERENCE: `photo` (default) draws from the character's photo with the reference workflow. */
  reference?: ImageReferenceMode;
}

/** The built-in text-to-image workflow (API format) with placeholders. */
export const DEFAULT_WORKFLOW_PATH = path.join(import.meta.dirname, "comfyui-default-workflow.json");
/**
 * The built-in reference workflow: the text-to-image workflow whose model goes through
 * IP-Adapter (the ComfyUI_IPAdapter_plus nodes `IPAdapterUnifiedLoader`, preset "PLUS FACE
 * (portraits)", and `IPAdapter`, weight 0.8) fed by `LoadImage` of `{{reference_image}}`.
 */
export const REFERENCE_WORKFLOW_PATH = path.join(import.meta.dirname, "comfyui-reference-workflow.json");
/** The placeholder a workflow names the uploaded reference image with (a LoadImage `image` input). */
export const REFERENCE_PLACEHOLDER = "{{reference_image}}";
const DEFAULT_CHECKPOINT = "v1-5-pruned-emaonly.safetensors";
/** How long the answer "the reference workflow's nodes are (not) installed" is kept, milliseconds. */
const NODE_CHECK_MS = 5 * 60_000;

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
    /** The uploaded reference image's name for `{{reference_image}}`. */
    referenceImage?: string;
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
        .replaceAll("{{model}}", values.model)
        .replaceAll(REFERENCE_PLACEHOLDER, values.referenceImage ?? "");
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

type Workflow = Record<string, { class_type?: string; inputs?: Record<string, Json> }>;

/** Reads a workflow in API format. @throws Error naming COMFYUI_WORKFLOW_PATH when it is not one. */
function readWorkflow(file: string): Workflow {
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    throw new Error(`COMFYUI_WORKFLOW_PATH: cannot read a JSON workflow from ${file}: ${String(error)}`);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new Error(`COMFYUI_WORKFLOW_PATH: ${file} is not a workflow in API format (an object of nodes).`);
  }
  return parsed as Workflow;
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
 *
 * The same face: with a reference photo (IMAGE_REFERENCE=photo) the photo is uploaded
 * with POST `/upload/image` (multipart: the `image` file, named by its content hash, `type: input`,
 * `overwrite: true`) and its answered name fills `{{reference_image}}` of the reference workflow:
 * the built-in IP-Adapter one ({@link REFERENCE_WORKFLOW_PATH}), or a COMFYUI_WORKFLOW_PATH
 * workflow that names `{{reference_image}}` itself. The built-in one is used only while ComfyUI
 * has its nodes (GET `/object_info/{class}` answers the class; looked at every 5 minutes at most);
 * without them, or when the upload or /prompt refuses it (`refusesReference`, e.g. 400 for a
 * missing IP-Adapter model in the preset list), today's text-to-image workflow is queued. A
 * custom workflow without `{{reference_image}}` gets no reference; one with it always needs one.
 */
export class ComfyUiProvider implements ImageProvider {
  readonly name = "comfyui";
  readonly takesReference: boolean;
  private readonly workflow: Workflow;
  /** The workflow a reference request is queued with; undefined when none can take one. */
  private readonly referenceWorkflow: Workflow | undefined;
  /** The operator's workflow names `{{reference_image}}`: it is the reference workflow, no fallback. */
  private readonly customReference: boolean;
  private nodeCheck: { at: number; installed: boolean } | undefined;
  private readonly clientId = randomUUID();

  /**
   * @throws Error when a workflow file cannot be read or is not a JSON object, or a custom
   *   workflow names `{{reference_image}}` while IMAGE_REFERENCE=seed (stops the boot).
   */
  constructor(private readonly options: ComfyUiOptions) {
    const mode = options.reference ?? "photo";
    this.workflow = readWorkflow(options.workflowPath || DEFAULT_WORKFLOW_PATH);
    if (options.workflowPath) {
      this.customReference = JSON.stringify(this.workflow).includes(REFERENCE_PLACEHOLDER);
      if (this.customReference && mode === "seed") {
        throw new Error(
          `COMFYUI_WORKFLOW_PATH: ${options.workflowPath} names ${REFERENCE_PLACEHOLDER}, which needs IMAGE_REFERENCE=photo`,
        );
      }
      this.referenceWorkflow = this.customReference ? this.workflow : undefined;
    } else {
      this.customReference = false;
      this.referenceWorkflow = mode === "photo" ? readWorkflow(REFERENCE_WORKFLOW_PATH) : undefined;
    }
    this.takesReference = mode === "photo" && this.referenceWorkflow !== undefined;
  }

  status() {
    return { ready: true, message: "ready" };
  }

  async generate(request: ImageRequest): Promise<GeneratedImage> {
    const reference = this.takesReference ? request.reference : undefined;
    if (this.customReference) {
      if (!reference) {
        throw new ImageProviderError(
          `the workflow of COMFYUI_WORKFLOW_PATH names ${REFERENCE_PLACEHOLDER} and the character has no photo`,
        );
      }
      const name = await this.upload(reference, request.signal);
      return { ...(await this.run(this.workflow, request, name)), referenced: true };
    }
    if (reference && this.referenceWorkflow && (await this.referenceNodesInstalled(request.signal))) {
      try {
        const name = await this.upload(reference, request.signal);
        return { ...(await this.run(this.referenceWorkflow, request, name)), referenced: true };
      } catch (error) {
        if (!refusesReference(error)) throw error;
      }
    }
    return this.run(this.workflow, request);
  }

  /**
   * Uploads the reference into ComfyUI's input folder (POST /upload/image) under a name made of
   * its content hash, so the same photo is one file however often it is sent.
   * @returns the name LoadImage takes ("subfolder/name" when ComfyUI answers a subfolder).
   * @throws ProviderHttpError when refused; ImageProviderError when the answer has no name.
   */
  private async upload(reference: ReferenceImage, signal: AbortSignal | undefined): Promise<string> {
    const hash = createHash("sha256").update(reference.bytes).digest("hex").slice(0, 32);
    const form = new FormData();
    form.append(
      "image",
      new Blob([new Uint8Array(reference.bytes)], { type: reference.mimeType }),
      `companion-reference-${hash}.${referenceExtension(reference.mimeType)}`,
    );
    form.append("type", "input");
    form.append("overwrite", "true");
    const response = await fetchOk(joinUrl(this.options.baseUrl, "upload/image"), {
      method: "POST",
      headers: bearer(this.options.apiKey),
      body: form,
      signal,
    });
    const answer = (await response.json()) as { name?: string; subfolder?: string };
    if (!answer.name) throw new ImageProviderError("/upload/image answered no name");
    return answer.subfolder ? `${answer.subfolder}/${answer.name}` : answer.name;
  }

  /**
   * Whether ComfyUI has every node class of the reference workflow (GET /object_info/{class}
   * answers `{}` for a class it does not have); the answer is kept for 5 minutes.
   * @throws ProviderHttpError when ComfyUI cannot be reached.
   */
  private async referenceNodesInstalled(signal: AbortSignal | undefined): Promise<boolean> {
    if (this.nodeCheck && Date.now() - this.nodeCheck.at < NODE_CHECK_MS) return this.nodeCheck.installed;
    const known = new Set(Object.values(this.workflow).map((node) => node.class_type));
    const needed = [
      ...new Set(Object.values(this.referenceWorkflow ?? {}).map((node) => node.class_type ?? "")),
    ].filter((name) => name && !known.has(name));
    const headers = bearer(this.options.apiKey);
    let installed = true;
    for (const name of needed) {
      try {
        const response = await fetchOk(
          joinUrl(this.options.baseUrl, `object_info/${encodeURIComponent(name)}`),
          { headers, signal },
        );
        const info = (await response.json()) as Record<string, unknown>;
        if (!info || typeof info !== "object" || !(name in info)) installed = false;
      } catch (error) {
        if (!(error instanceof ProviderHttpError) || error.status === undefined) throw error;
        installed = false;
      }
      if (!installed) break;
    }
    this.nodeCheck = { at: Date.now(), installed };
    return installed;
  }

  /** Queues `workflow` filled for the request (POST /prompt) and waits for its picture. */
  private async run(
    workflow: Workflow,
    request: ImageRequest,
    referenceImage?: string,
  ): Promise<GeneratedImage> {
    const prompt = fillWorkflow(workflow, {
      prompt: request.prompt,
      negativePrompt: request.negativePrompt,
      seed: request.seed,
      width: request.width,
      height: request.height,
      steps: this.options.steps,
      model: this.options.model || DEFAULT_CHECKPOINT,
      referenceImage,
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
      // A job's timeout or shutdown: take the prompt off the server too, so the GPU
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
