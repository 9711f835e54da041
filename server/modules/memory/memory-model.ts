// Memory's model calls: the facts a user's messages tell, and the rolling summary of a chat.
import type { LlmProvider } from "../../providers/llm/llm";

/**
 * Asks the model for lasting facts about the user in their message (or several, one a line).
 * @returns what the model listed (a JSON array's items, not checked yet); [] when its answer
 *   holds no JSON array. @throws when the model fails.
 */
export async function askFacts(llm: LlmProvider, userName: string, message: string): Promise<unknown[]> {
  const result = await llm.generate({
    messages: [
      {
        role: "system",
        content: `Extract lasting facts about ${userName} from their messages: name, age, likes, dislikes, job, plans, events, people and pets in their life. Answer with a JSON array of short sentences about ${userName} in the third person, or [] when there are none. Nothing else.`,
      },
      { role: "user", content: message },
    ],
    maxTokens: 160,
    temperature: 0,
    // The instructions are the same for every chat: one cache keeps them evaluated.
    cacheKey: "memory:facts",
    background: true,
  });
  const json = /\[[\s\S]*\]/.exec(result.text)?.[0];
  if (!json) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    return [];
  }
  return Array.isArray(parsed) ? parsed : [];
}

/**
 * Asks the model for a chat's rolling summary rewritten to include `fold` (the exchanges to fold
 * in, oldest first), each told with its character's name as stored now.
 * @returns the new summary (at most 2000 characters; "" when the model gave none).
 * @throws when the model fails.
 */
export async function askSummary(
  llm: LlmProvider,
  userName: string,
  summary: string,
  fold: ReadonlyArray<{ message: string; reply_message: string | null; character_name: string | null }>,
): Promise<string> {
  const transcript = fold
    .flatMap((h) => [
      h.message && !h.message.startsWith("##") ? `${userName}: ${h.message}` : "",
      h.reply_message ? `${h.character_name ?? "Character"}: ${h.reply_message}` : "",
    ])
    .filter(Boolean)
    .join("\n");
  const result = await llm.generate({
    messages: [
      {
        role: "system",
        content:
          "You keep the memory of a long chat. Rewrite the summary to include the new messages: at most 150 words, in the past tense, keeping names, facts, feelings and unfinished threads. Answer with the summary only.",
      },
      {
        role: "user",
        content: `Summary so far: ${summary || "(none)"}\n\nNew messages:\n${transcript}`,
      },
    ],
    maxTokens: 260,
    temperature: 0.2,
    cacheKey: "memory:summary",
    background: true,
  });
  return result.text.trim().slice(0, 2000);
}
