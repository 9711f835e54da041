import { ProviderError } from "../http";

/**
 * Image generation behind one interface (issue 8). Implementations: `openai` (any
 * OpenAI-compatible Images API), `automatic1111` (AUTOMATIC1111 / Forge web UI API), `comfyui`
 * (a ComfyUI workflow queued and polled through its HTTP API), `none` (not configured). The one
 * place that picks one from configuration is `createImageProvider` in ./index.ts.
 */
export interface ImageRequest {
  /** What to draw (positive prompt). */
  prompt: string;
  /** What to avoid (providers without a negative prompt ignore it). */
  negativePrompt: string;
  /** Pixels. */
  width: number;
  height: number;
  /** Fixed per character so the same face comes back (0 .. 2^31-1). */
  seed: number;
  /** Ends the request (the job's timeout). */
  signal?: AbortSignal;
}

export interface GeneratedImage {
  /** The image file's bytes as the provider sent them (PNG, JPEG or WebP). */
  bytes: Buffer;
}

export interface ImageProvider {
  readonly name: string;
  /** False with a sentence for the user when pictures cannot be made on this server. */
  status(): { ready: boolean; message: string };
  /**
   * Makes one image.
   * @throws ImageProviderError when the provider answers something unusable; ProviderHttpError
   *   when it cannot be reached or answers non-2xx; the signal's reason when aborted.
   */
  generate(request: ImageRequest): Promise<GeneratedImage>;
}

/**
 * An image provider answered something unusable, or is not configured. The message is for logs,
 * not users. (An endpoint that cannot be reached or answers non-2xx throws ProviderHttpError.)
 */
export class ImageProviderError extends ProviderError {
  constructor(message: string) {
    super(message);
    this.name = "ImageProviderError";
  }
}

export const IMAGE_NOT_CONFIGURED =
  "Pictures are not available on this server: no image generator is configured.";

/** The `none` provider: capability off, every request refused with the reason. */
export class NoImageProvider implements ImageProvider {
  readonly name = "none";
  status() {
    return { ready: false, message: IMAGE_NOT_CONFIGURED };
  }
  async generate(): Promise<GeneratedImage> {
    throw new ImageProviderError(IMAGE_NOT_CONFIGURED);
  }
}

/** Decodes base64 image data (with or without a data: URL prefix). */
export function decodeBase64Image(data: string): Buffer {
  const bytes = Buffer.from(data.replace(/^data:[^,]*,/, ""), "base64");
  if (bytes.length === 0) throw new ImageProviderError("empty image data");
  return bytes;
}
