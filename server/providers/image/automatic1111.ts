import { joinUrl, type ModelEndpointOptions, postJson } from "../http";
import {
  decodeBase64Image,
  type GeneratedImage,
  type ImageProvider,
  ImageProviderError,
  type ImageRequest,
} from "./image";

/**
 * `baseUrl`: the web UI started with --api, e.g. http://127.0.0.1:7860; `apiKey`: basic auth
 * "user:password" when the UI is started with --api-auth, empty otherwise; `model`: the
 * checkpoint to use (override_settings.sd_model_checkpoint), empty keeps the loaded one.
 */
export interface Automatic1111Options extends ModelEndpointOptions {
  /** Sampling steps per image. */
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
    const response = await postJson(joinUrl(this.options.baseUrl, "sdapi/v1/txt2img"), body, {
      headers: this.options.apiKey
        ? { authorization: `Basic ${Buffer.from(this.options.apiKey).toString("base64")}` }
        : {},
      signal: request.signal,
    });
    const answer = (await response.json()) as { images?: string[] };
    const first = answer.images?.[0];
    if (!first) throw new ImageProviderError("txt2img answered no images");
    return { bytes: decodeBase64Image(first) };
  }
}
