// Deterministic language models for API tests and benchmarks: one scripted, one streaming word by word under the test's control.
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

/**
 * A model that streams its reply word by word, for tests of streamed replies. `replyFor` makes
 * the reply from the request (default `reply`); after each piece the stream waits for
 * `gate(sentSoFar, request)`, so a test can hold it until it has seen what it waits for; an
 * aborted request (Stop, timeout) throws, as a real model client does.
 */
export class StreamingLlm implements LlmProvider {
  readonly name = "streaming-test";
  readonly requests: GenerateRequest[] = [];
  reply = "Hi there!";
  replyFor?: (request: GenerateRequest) => string;
  gate: (sent: string, request: GenerateRequest) => Promise<void> = async () => {};

  contextWindow(): number {
    return 4096;
  }
  status(): ProviderStatus {
    return { ready: true, message: "ready" };
  }
  countTokens(text: string): number {
    return Math.ceil(text.length / 4);
  }
  async generate(request: GenerateRequest): Promise<GenerateResult> {
    this.requests.push(request);
    let sent = "";
    const reply = this.replyFor?.(request) ?? this.reply;
    for (const piece of reply.match(/\S+\s*/g) ?? []) {
      if (request.signal?.aborted) throw new Error("aborted");
      sent += piece;
      request.onTextChunk?.(piece);
      await this.gate(sent, request);
    }
    if (request.signal?.aborted) throw new Error("aborted");
    return { text: reply, modelMs: 1 };
  }
  async close(): Promise<void> {}
}
