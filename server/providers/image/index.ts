// Choosing the image engine from configuration (IMAGE_PROVIDER none, openai, automatic1111 or comfyui) and its picture sizes.
import { type AppConfig, invalidConfiguration } from "../../env";
import { Automatic1111Provider } from "./automatic1111";
import { ComfyUiProvider } from "./comfyui";
import { type ImageProvider, NoImageProvider } from "./image";
import { OpenAiImageProvider } from "./openai";

/** Parses "768x1024" (validated in env.ts). */
export function parseSize(size: string): { width: number; height: number } {
  const [width, height] = size.split("x").map(Number);
  return { width: width!, height: height! };
}

/**
 * The one place that maps configuration to an image provider: IMAGE_PROVIDER
 * `none` | `openai` | `automatic1111` | `comfyui`, at IMAGE_BASE_URL; IMAGE_REFERENCE `photo` or
 * `seed` says whether pictures of a character are drawn from its photo where the engine can.
 * @throws Error when a provider is named without IMAGE_BASE_URL, or the ComfyUI workflow is unreadable.
 */
export function createImageProvider(config: AppConfig): ImageProvider {
  if (config.IMAGE_PROVIDER === "none") return new NoImageProvider();
  if (!config.IMAGE_BASE_URL) {
    throw invalidConfiguration([`IMAGE_BASE_URL: required with IMAGE_PROVIDER=${config.IMAGE_PROVIDER}`]);
  }
  const common = {
    baseUrl: config.IMAGE_BASE_URL,
    apiKey: config.IMAGE_API_KEY,
    model: config.IMAGE_MODEL,
    reference: config.IMAGE_REFERENCE,
  };
  switch (config.IMAGE_PROVIDER) {
    case "openai":
      return new OpenAiImageProvider(common);
    case "automatic1111":
      return new Automatic1111Provider({ ...common, steps: config.IMAGE_STEPS });
    case "comfyui":
      return new ComfyUiProvider({
        ...common,
        steps: config.IMAGE_STEPS,
        workflowPath: config.COMFYUI_WORKFLOW_PATH,
        pollMs: config.COMFYUI_POLL_MS,
      });
  }
}
