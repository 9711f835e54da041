// Vision through an OpenAI-compatible Chat Completions endpoint: the user's photo sent as an image_url part.
import type OpenAI from "openai";
import { type ChatEndpointOptions, openAiClient } from "../openai-client";
import type { VisionProvider, VisionRequest } from "./vision";

export type OpenAiVisionOptions = ChatEndpointOptions;

/**
 * Vision through an OpenAI-compatible Chat Completions endpoint: the last user message carries
 * the text and the photo as a `data:image/jpeg;base64,…` `image_url` part.
 */
export class OpenAiVision implements VisionProvider {
  readonly name = "openai";
  readonly enabled = true;
  private readonly client: OpenAI;

  constructor(private readonly options: OpenAiVisionOptions) {
    this.client = openAiClient(options);
  }

  async answer(request: VisionRequest): Promise<string> {
    const completion = await this.client.chat.completions.create(
      {
        model: this.options.model,
        max_tokens: request.maxTokens,
        temperature: request.temperature,
        messages: [
          ...request.messages,
          {
            role: "user",
            content: [
              { type: "text", text: request.text || "(sent you this photo)" },
              {
                type: "image_url",
                image_url: { url: `data:image/jpeg;base64,${request.jpeg.toString("base64")}` },
              },
            ],
          },
        ],
      },
      { signal: request.signal },
    );
    return completion.choices[0]?.message?.content ?? "";
  }
}
