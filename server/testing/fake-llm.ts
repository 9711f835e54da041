import type { GenerateRequest, GenerateResult, LlmProvider, ProviderStatus } from "../providers/llm/llm";

/**
 * A deterministic language model for API tests and benchmarks (house style: tests switch the
 * one provider module to a test model). Records every request; answers with `reply(request)`.
 */
export class ScriptedLlm implements LlmProvider {
  readonly name = "scripted";
  readonly requests: GenerateRequest[] = [];

  constructor(
    private readonly reply: (request: GenerateRequest) => string | Promise<string> = () => "Hi there!",
    private readonly window = 4096,
  ) {}

  contextWindow(): number {
    return this.window;
  }
  status(): ProviderStatus {
    return { ready: true, message: "ready" };
  }
  countTokens(text: string): number {
    return Math.ceil(text.length / 4);
  }
  async generate(request: GenerateRequest): Promise<GenerateResult> {
    const started = performance.now();
    this.requests.push(request);
    const text = await this.reply(request);
    return { text, modelMs: performance.now() - started };
  }
  async close(): Promise<void> {}
}
