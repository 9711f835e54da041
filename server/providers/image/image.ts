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
   * @throws ImageProviderError when the provider fails or answers something unusable;
   *   the signal's reason when aborted.
   */
  generate(request: ImageRequest): Promise<GeneratedImage>;
}

/** A provider answered with an error or an unusable body. The message is for logs, not users. */
export class ImageProviderError extends Error {
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

/** Joins a base URL and a path without doubling or dropping the slash. */
export function joinUrl(base: string, path: string): string {
  return `${base.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
}

/**
 * fetch with the provider's error handling: a non-2xx answer becomes ImageProviderError with the
 * status and the start of the body.
 */
export async function fetchOk(url: string, init: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    if (init.signal?.aborted) throw init.signal.reason;
    throw new ImageProviderError(`${url}: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!response.ok) {
    const body = (await response.text().catch(() => "")).slice(0, 300);
    throw new ImageProviderError(`${url}: HTTP ${response.status} ${body}`);
  }
  return response;
}

/** Decodes base64 image data (with or without a data: URL prefix). */
export function decodeBase64Image(data: string): Buffer {
  const bytes = Buffer.from(data.replace(/^data:[^,]*,/, ""), "base64");
  if (bytes.length === 0) throw new ImageProviderError("empty image data");
  return bytes;
}
