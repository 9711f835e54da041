// The language-model provider while no model is available: every generation fails with its message.
import type { Message } from "../../i18n/messages";
import {
  estimateTokens,
  type GenerateResult,
  type LlmProvider,
  LlmUnavailableError,
  type ProviderStatus,
  statusOf,
} from "./llm";

/** The provider used while no model is available: every generation fails with `message`. */
export class UnavailableProvider implements LlmProvider {
  readonly name = "none";
  constructor(private message: string | Message) {}

  /** Changes the reason given to users (e.g. "downloading 40%"). */
  setMessage(message: string | Message): void {
    this.message = message;
  }
  contextWindow(): number {
    return 4096;
  }
  status(): ProviderStatus {
    return statusOf(this.message);
  }
  countTokens(text: string): number {
    return estimateTokens(text);
  }
  async generate(): Promise<GenerateResult> {
    throw new LlmUnavailableError(this.message);
  }
  async close(): Promise<void> {}
}
