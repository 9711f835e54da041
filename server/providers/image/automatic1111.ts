// The AUTOMATIC1111 / Forge image engine: txt2img, or img2img from the character's photo to keep the same face.
import { joinUrl, type ModelEndpointOptions, postJson } from "../http";
import type { GeneratedImage, ImageProvider, ImageReferenceMode, ImageRequest } from "./image";
import { decodeBase64Image, ImageProviderError, refusesReference } from "./image";

/**
 * `baseUrl`: the web UI started with --api, e.g. http://127.0.0.1:7860; `apiKey`: basic auth
 * "user:password" when the UI is started with --api-auth, empty otherwise; `model`: the
 * checkpoint to use (override_settings.sd_model_checkpoint), empty keeps the loaded one.
 */
export interface Automatic1111Options extends ModelEndpointOptions {
  /** Sampling steps per image. */
  steps: number;
  /** IMAGE_REFERENCE: `photo` (default) draws from the character's photo with img2img. */
  reference?: ImageReferenceMode;
}

/**
 * How far img2img may move away from the character's photo (0 keeps it, 1 ignores it): enough
 * for a new pose, clothes and place, little enough to keep the face. A1111's own default is 0.75.
 */
export const REFERENCE_DENOISING_STRENGTH = 0.7;
/** A1111 `resize_mode` 1, "Crop and resize": the photo fills the asked size, centred, unstretched. */
const RESIZE_CROP = 1;

/**
 * AUTOMATIC1111 / Forge: POST `{base}/sdapi/v1/txt2img` with prompt, negative_prompt, width,
 * height, seed and steps; the answer's `images[0]` is base64 PNG.
 *
 * The same face: with a reference photo (IMAGE_REFERENCE=photo) the request goes to
 * POST `{base}/sdapi/v1/img2img` instead, with the same fields plus `init_images: [<base64 photo>]`,
 * `denoising_strength` {@link REFERENCE_DENOISING_STRENGTH} and `resize_mode` 1 (crop and
 * resize). img2img is part of the web UI's own API (`StableDiffusionImg2ImgProcessingAPI`), so it
 * needs no extension, unlike a ControlNet "reference" unit. When img2img refuses the request
 * (see `refusesReference`: e.g. a proxy without that route) the txt2img request of today is sent.
 */
export class Automatic1111Provider implements ImageProvider {
  readonly name = "automatic1111";
  readonly takesReference: boolean;

  constructor(private readonly options: Automatic1111Options) {
    this.takesReference = (options.reference ?? "photo") === "photo";
  }

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
    if (this.takesReference && request.reference) {
      try {
        const bytes = await this.draw("img2img", request, {
          ...body,
          init_images: [request.reference.bytes.toString("base64")],
          denoising_strength: REFERENCE_DENOISING_STRENGTH,
          resize_mode: RESIZE_CROP,
        });
        return { bytes, referenced: true };
      } catch (error) {
        if (!refusesReference(error)) throw error;
      }
    }
    return { bytes: await this.draw("txt2img", request, body) };
  }

  /** POSTs to /sdapi/v1/{route} and decodes the first image of the answer. */
  private async draw(
    route: "txt2img" | "img2img",
    request: ImageRequest,
    body: Record<string, unknown>,
  ): Promise<Buffer> {
    const response = await postJson(joinUrl(this.options.baseUrl, `sdapi/v1/${route}`), body, {
      headers: this.options.apiKey
        ? { authorization: `Basic ${Buffer.from(this.options.apiKey).toString("base64")}` }
        : {},
      signal: request.signal,
    });
    const answer = (await response.json()) as { images?: string[] };
    const first = answer.images?.[0];
    if (!first) throw new ImageProviderError(`${route} answered no images`);
    return decodeBase64Image(first);
  }
}
