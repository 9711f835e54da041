// A model that looks at the user's photo so the character can answer about it, behind one interface, and none.
import type { ChatMessage } from "../llm/llm";

export interface VisionRequest {
  /** System prompt and history, oldest first (the character's usual prompt). */
  messages: ChatMessage[];
  /** The user's words sent with the photo (may be empty). */
  text: string;
  /** The photo, JPEG bytes. */
  jpeg: Buffer;
  maxTokens: number;
  temperature: number;
  signal?: AbortSignal;
}

/**
 * A model that can look at a photo (the character answers about the user's photo).
 * `openai`: any OpenAI-compatible Chat Completions endpoint that accepts `image_url` parts
 * (llama.cpp server with a vision projector, Ollama with llava, vLLM, OpenAI). `none`: the
 * character answers from the user's words alone.
 */
export interface VisionProvider {
  readonly name: string;
  readonly enabled: boolean;
  /** The character's reply text. @throws when the endpoint fails. */
  answer(request: VisionRequest): Promise<string>;
}

export class NoVision implements VisionProvider {
  readonly name = "none";
  readonly enabled = false;
  async answer(): Promise<string> {
    throw new Error("no vision model is configured");
  }
}
