// Image generation behind one interface: the request and reference photo, the result, the `none` provider and provider errors.
import { carry, english, msg } from "../../i18n/messages";
import { ProviderError, ProviderHttpError } from "../http";

/**
 * Image generation behind one interface. Implementations: `openai` (any
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
  /**
   * The character's photo to draw the same face from, when the provider takes one
   * (`takesReference`) and the character has a photo. Absent: the request is drawn from the
   * words and the seed alone, exactly as before.
   */
  reference?: ReferenceImage;
  /** Ends the request (the job's timeout). */
  signal?: AbortSignal;
}

/** A picture an engine draws the same face from ("the same face"). */
export interface ReferenceImage {
  /** The file's bytes (the stored character photo: a JPEG of at most 1024 px a side). */
  bytes: Buffer;
  /** Its MIME type, e.g. "image/jpeg". */
  mimeType: string;
}

/**
 * IMAGE_REFERENCE: `photo` conditions pictures of a character on the character's photo
 * where the engine can; `seed` draws them from the words and the character's fixed seed only.
 */
export type ImageReferenceMode = "photo" | "seed";

/** Largest reference image sent to an engine, bytes (stored photos are far smaller). */
export const MAX_REFERENCE_BYTES = 8 * 1024 * 1024;

export interface GeneratedImage {
  /** The image file's bytes as the provider sent them (PNG, JPEG or WebP). */
  bytes: Buffer;
  /**
   * True when the engine drew it from `request.reference`; false or absent when it was drawn from
   * the words and the seed (no reference given, or the engine refused it and the provider fell
   * back to the text-only request).
   */
  referenced?: boolean;
}

export interface ImageProvider {
  readonly name: string;
  /**
   * True when `generate` uses `request.reference` (IMAGE_REFERENCE=photo on an engine that can
   * take one): only then does the caller read the character's photo. Absent means false.
   */
  readonly takesReference?: boolean;
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

export const IMAGE_NOT_CONFIGURED = msg("image.picturesNotAvailableServerNo");

/** The `none` provider: capability off, every request refused with the reason. */
export class NoImageProvider implements ImageProvider {
  readonly name = "none";
  status() {
    return carry({ ready: false, message: english(IMAGE_NOT_CONFIGURED) }, IMAGE_NOT_CONFIGURED);
  }
  async generate(): Promise<GeneratedImage> {
    throw new ImageProviderError(english(IMAGE_NOT_CONFIGURED));
  }
}

/**
 * Whether an engine's error says it cannot take the reference here, so the provider
 * falls back to today's text-only request: 400, 404, 405, 415, 422 or 501 (an endpoint, a node
 * type, a model or a parameter it does not have). Network errors, timeouts, 401/403/429 and 5xx
 * are real failures and are not retried without the reference.
 */
export function refusesReference(error: unknown): boolean {
  return (
    error instanceof ProviderHttpError &&
    error.status !== undefined &&
    [400, 404, 405, 415, 422, 501].includes(error.status)
  );
}

/** The file name extension of a reference image's MIME type ("jpg" for image/jpeg). */
export function referenceExtension(mimeType: string): string {
  if (mimeType === "image/png") return "png";
  if (mimeType === "image/webp") return "webp";
  return "jpg";
}

/** Decodes base64 image data (with or without a data: URL prefix). */
export function decodeBase64Image(data: string): Buffer {
  const bytes = Buffer.from(data.replace(/^data:[^,]*,/, ""), "base64");
  if (bytes.length === 0) throw new ImageProviderError("empty image data");
  return bytes;
}
