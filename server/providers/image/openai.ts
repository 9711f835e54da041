// Image generation through any OpenAI-compatible Images API (images/generations), with or without a reference photo.
import { bearer, fetchOk, joinUrl, type ModelEndpointOptions, postJson } from "../http";
import type { GeneratedImage, ImageProvider, ImageReferenceMode, ImageRequest } from "./image";
import { decodeBase64Image, ImageProviderError, referenceExtension, refusesReference } from "./image";

/**
 * `baseUrl` e.g. https://api.openai.com/v1 or http://localhost:8080/v1; `model` e.g. gpt-image-1,
 * dall-e-3, or the model a local server serves.
 */
export interface OpenAiImagesOptions extends ModelEndpointOptions {
  /** IMAGE_REFERENCE: `photo` (default) sends the character's photo to the edit endpoint. */
  reference?: ImageReferenceMode;
}

/** The GPT image models (gpt-image-1, gpt-image-1-mini, …): the ones whose edit endpoint takes a reference picture. */
const GPT_IMAGE = /^gpt-image/i;

interface ImagesResponse {
  data?: Array<{ b64_json?: string; url?: string }>;
}

/**
 * Any OpenAI-compatible Images API: POST `{base}/images/generations` with `model`, `prompt`,
 * `n: 1`, `size: "WxH"` and `response_format: "b64_json"`; the answer's `data[0].b64_json` is
 * decoded, or `data[0].url` downloaded. Compatible local servers (LocalAI, SD.Next, …) also get
 * `seed` and `negative_prompt`; api.openai.com does not (it refuses unknown fields and has no seed).
 *
 * The same face: with a reference photo (IMAGE_REFERENCE=photo) and a GPT image model
 * (IMAGE_MODEL gpt-image-*), the picture is asked of POST `{base}/images/edits` instead, as
 * multipart/form-data with the photo as the `image` file, `prompt`, `model`, `n: 1` and `size`
 * (on api.openai.com the supported size of the same orientation: 1024x1536, 1536x1024 or
 * 1024x1024). Other models get today's request: dall-e-2's edit only repaints transparent areas
 * and dall-e-3 has no edit. When the edit endpoint refuses (see `refusesReference`: a server
 * without it, a model that cannot edit) today's generations request is sent.
 */
export class OpenAiImageProvider implements ImageProvider {
  readonly name = "openai";
  readonly takesReference: boolean;
  private readonly official: boolean;

  constructor(private readonly options: OpenAiImagesOptions) {
    this.official = /(^|\.)openai\.com$/i.test(new URL(options.baseUrl).hostname);
    this.takesReference = (options.reference ?? "photo") === "photo" && GPT_IMAGE.test(options.model);
  }

  status() {
    return { ready: true, message: "ready" };
  }

  async generate(request: ImageRequest): Promise<GeneratedImage> {
    if (this.takesReference && request.reference) {
      try {
        return { bytes: await this.edit(request), referenced: true };
      } catch (error) {
        if (!refusesReference(error)) throw error;
      }
    }
    const body: Record<string, unknown> = {
      model: this.options.model || undefined,
      prompt: request.prompt,
      n: 1,
      size: `${request.width}x${request.height}`,
    };
    // gpt-image-* always answers base64 and refuses response_format.
    if (!/^gpt-image/i.test(this.options.model)) body.response_format = "b64_json";
    if (!this.official) {
      body.seed = request.seed;
      if (request.negativePrompt) body.negative_prompt = request.negativePrompt;
    }
    const response = await postJson(joinUrl(this.options.baseUrl, "images/generations"), body, {
      headers: bearer(this.options.apiKey),
      signal: request.signal,
    });
    return { bytes: await this.imageOf(response, "images/generations", request.signal) };
  }

  /** POST /images/edits (multipart) with the reference as `image`. @throws as `generate`. */
  private async edit(request: ImageRequest): Promise<Buffer> {
    const reference = request.reference!;
    const form = new FormData();
    form.append(
      "image",
      new Blob([new Uint8Array(reference.bytes)], { type: reference.mimeType }),
      `reference.${referenceExtension(reference.mimeType)}`,
    );
    form.append("prompt", request.prompt);
    if (this.options.model) form.append("model", this.options.model);
    form.append("n", "1");
    form.append("size", this.editSize(request.width, request.height));
    const response = await fetchOk(joinUrl(this.options.baseUrl, "images/edits"), {
      method: "POST",
      headers: bearer(this.options.apiKey),
      body: form,
      signal: request.signal,
    });
    return this.imageOf(response, "images/edits", request.signal);
  }

  /** api.openai.com takes three sizes for GPT image models; other servers get the asked size. */
  private editSize(width: number, height: number): string {
    if (!this.official) return `${width}x${height}`;
    if (width === height) return "1024x1024";
    return width > height ? "1536x1024" : "1024x1536";
  }

  /** The picture of an Images API answer: `data[0].b64_json` decoded or `data[0].url` downloaded. */
  private async imageOf(response: Response, route: string, signal?: AbortSignal): Promise<Buffer> {
    const answer = (await response.json()) as ImagesResponse;
    const first = answer.data?.[0];
    if (first?.b64_json) return decodeBase64Image(first.b64_json);
    if (first?.url) {
      const file = await fetchOk(first.url, { signal });
      return Buffer.from(await file.arrayBuffer());
    }
    throw new ImageProviderError(`${route} answered no b64_json and no url`);
  }
}
