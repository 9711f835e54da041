// The character's answer to a photo the user sent: through the vision model when one is configured, else from the words alone.
import type { Character, ChatSession, User } from "../../db/schema";
import type { LlmProvider } from "../../providers/llm/llm";
import type { VisionProvider } from "../../providers/vision/vision";
import { displayName, type ResolvedChat } from "../conversation/chats.service";
import type { Conversation } from "../conversation/conversation";
import { replyPrompt } from "../conversation/reply-prompt";
import { cleanReply } from "../prompt/prompt";

/** What answering a photo needs. */
export interface PhotoAnswerDeps {
  conversation: Conversation;
  llm: LlmProvider;
  vision: VisionProvider;
  options: { maxReplyTokens: number; temperature: number; timeoutMs: number };
}

/**
 * `character`'s reply to the user's photo (`jpeg`) and words, with the chat's usual prompt (the
 * last 20 exchanges). With a vision model the photo goes with the last user message; without,
 * the character is told it cannot see the photo and answers the words (or warmly).
 * @returns the cleaned reply ("…" when it is empty). @throws when the model fails or times out
 *   (`options.timeoutMs`).
 */
export async function answerPhoto(
  deps: PhotoAnswerDeps,
  user: User,
  chat: ResolvedChat,
  session: ChatSession,
  character: Character,
  words: string,
  jpeg: Buffer,
): Promise<string> {
  const userName = displayName(user);
  const seeing = deps.vision.enabled;
  const note = seeing
    ? words
    : `[${userName} sent you a photo. You cannot see photos: do not describe it or pretend to see it; answer ${
        words ? "their words" : "warmly"
      } and you may ask what it shows.]${words ? ` ${words}` : ""}`;
  const {
    messages: prompt,
    stop,
    others,
    cacheKey,
  } = await replyPrompt(deps.conversation, {
    user,
    chat,
    session,
    character,
    historyLimit: 20,
    model: deps.llm,
    replyTokens: deps.options.maxReplyTokens,
    lastUserMessage: note || "(photo)",
  });
  const signal = AbortSignal.timeout(deps.options.timeoutMs);
  let raw: string;
  if (seeing) {
    // The photo goes with the last user message; the history before it is the usual prompt.
    const last = prompt.at(-1);
    const before = last?.role === "user" ? prompt.slice(0, -1) : prompt;
    raw = await deps.vision.answer({
      messages: before,
      text: words,
      jpeg,
      maxTokens: deps.options.maxReplyTokens,
      temperature: deps.options.temperature,
      signal,
    });
  } else {
    const result = await deps.llm.generate({
      messages: prompt,
      maxTokens: deps.options.maxReplyTokens,
      temperature: deps.options.temperature,
      stop,
      signal,
      cacheKey,
    });
    raw = result.text;
  }
  return cleanReply(raw, character.name, userName, others) || "…";
}
