import {
  decodeBase64Image,
  fetchOk,
  type GeneratedImage,
  type ImageProvider,
  ImageProviderError,
  type ImageRequest,
  joinUrl,
} from "./image";

export interface Automatic1111Options {
  /** The web UI started with --api, e.g. http://127.0.0.1:7860 */
  baseUrl: string;
  /** Basic auth "user:password" when the UI is started with --api-auth; empty otherwise. */
  apiKey: string;
  /** Checkpoint to use (override_settings.sd_model_checkpoint); empty keeps the loaded one. */
  model: string;
  steps: number;
}

/**
 * AUTOMATIC1111 / Forge: POST `{base}/sdapi/v1/txt2img` with prompt, negative_prompt, width,
 * height, seed and steps; the answer's `images[0]` is base64 PNG.
 */
export class Automatic1111Provider implements ImageProvider {
  readonly name = "automatic1111";
  constructor(private readonly options: Automatic1111Options) {}

  status() {
    return { ready: true, message: "ready" };
  }

  async generate(request: ImageRequest): Promise<GeneratedImage> {
    const body: Record<string, unknown> = {
      prompt: request.prompt,
      negative_prompt: request.negativePrompt,
      width: request.width,
      height: request.height,
      seed: request.seed,
      steps: this.options.steps,
      cfg_scale: 7,
      batch_size: 1,
      n_iter: 1,
      send_images: true,
      save_images: false,
    };
    if (this.options.model) body.override_settings = { sd_model_checkpoint: this.options.model };
    const response = await fetchOk(joinUrl(this.options.baseUrl, "sdapi/v1/txt2img"), {
      method: "POST",
      headers: {
        "content-type": "application/json",
        ...(this.options.apiKey
          ? { authorization: `Basic ${Buffer.from(this.options.apiKey).toString("base64")}` }
          : {}),
      },
      body: JSON.stringify(body),
      signal: request.signal,
    });
    const answer = (await response.json()) as { images?: string[] };
    const first = answer.images?.[0];
    if (!first) throw new ImageProviderError("txt2img answered no images");
    return { bytes: decodeBase64Image(first) };
  }
}
