import { bearer, fetchOk, joinUrl, type ModelEndpointOptions, postJson } from "../http";
import {
  decodeBase64Image,
  type GeneratedImage,
  type ImageProvider,
  ImageProviderError,
  type ImageRequest,
} from "./image";

/**
 * `baseUrl` e.g. https://api.openai.com/v1 or http://localhost:8080/v1; `model` e.g. gpt-image-1,
 * dall-e-3, or the model a local server serves.
 */
export type OpenAiImagesOptions = ModelEndpointOptions;

interface ImagesResponse {
  data?: Array<{ b64_json?: string; url?: string }>;
}

/**
 * Any OpenAI-compatible Images API: POST `{base}/images/generations` with `model`, `prompt`,
 * `n: 1`, `size: "WxH"` and `response_format: "b64_json"`; the answer's `data[0].b64_json` is
 * decoded, or `data[0].url` downloaded. Compatible local servers (LocalAI, SD.Next, …) also get
 * `seed` and `negative_prompt`; api.openai.com does not (it refuses unknown fields and has no seed).
 */
export class OpenAiImageProvider implements ImageProvider {
  readonly name = "openai";
  private readonly official: boolean;

  constructor(private readonly options: OpenAiImagesOptions) {
    this.official = /(^|\.)openai\.com$/i.test(new URL(options.baseUrl).hostname);
  }

  status() {
    return { ready: true, message: "ready" };
  }

  async generate(request: ImageRequest): Promise<GeneratedImage> {
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
    const answer = (await response.json()) as ImagesResponse;
    const first = answer.data?.[0];
    if (first?.b64_json) return { bytes: decodeBase64Image(first.b64_json) };
    if (first?.url) {
      const file = await fetchOk(first.url, { signal: request.signal });
      return { bytes: Buffer.from(await file.arrayBuffer()) };
    }
    throw new ImageProviderError("images/generations answered no b64_json and no url");
  }
}
