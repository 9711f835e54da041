import { FIRST_MESSAGE_MARKER } from "../../../common/constants";
import type { JobQueue } from "../../jobs/queue";
import type { LlmProvider } from "../../providers/llm/llm";
import type { MemoryRepo } from "./memory.repo";

/** Exchanges beyond the summary before a refresh is queued. */
export const SUMMARY_TRIGGER = 30;
/** Newest exchanges always left out of the summary (they are in the prompt as they are). */
export const SUMMARY_KEEP_RECENT = 20;
/** Facts kept per user and character; the oldest go first. */
export const MAX_FACTS = 200;
/** Facts put into one prompt. */
export const FACTS_PER_PROMPT = 6;

const STOPWORDS = new Set(
  "the and you your for are was were with that this have has had not but what when where who how why can will would about from they them their there then than into out our ours just like very really also too its it's i'm im me my mine we he she his her him".split(
    " ",
  ),
);

/** Lower-case content words of a text (3+ letters, no stopwords), for relevance. */
export function keywords(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}']{3,}/gu) ?? [];
  return new Set(words.filter((w) => !STOPWORDS.has(w)).map((w) => w.replace(/'s$/, "")));
}

/**
 * Whether a message may tell something lasting about the user: it speaks of them in the first
 * person ("I", "my", "me", …). Others are not sent to the fact extractor, which saves a model call.
 */
export function mightHoldFacts(message: string): boolean {
  return (
    /\b(i|i'm|im|i've|i'd|my|me|mine|we|our)\b/i.test(message) && message.trim().split(/\s+/).length >= 3
  );
}

/** Tries of a memory job (the model may be busy or briefly unreachable), and the first back-off. */
const MEMORY_JOB = { attempts: 3, backoffMs: 2000 };

/**
 * Memory (issue 5): a rolling summary of older messages per chat session and long-term facts
 * about the user per character. Both are written by background jobs (issue 15: "memory.facts",
 * "memory.summary", defined here on the job queue) and read when a prompt is built. A job carries
 * ids and the user's display name only; its handler loads the rest from the database.
 */
export class MemoryService {
  constructor(
    private readonly repo: MemoryRepo,
    private readonly llm: LlmProvider,
    /** Facts and summaries are written in the background, after the reply is sent. */
    private readonly jobs: JobQueue,
    private readonly now: () => number = Date.now,
  ) {
    jobs.define<{ userId: string; characterId: string; userName: string; entryId: string }>(
      "memory.facts",
      async ({ entryId, ...who }) => {
        // Gone (a demo user removed, a chat cleared): nothing to learn.
        const message = await this.repo.entryMessage(entryId, who.userId);
        if (message !== undefined) await this.extractFacts({ ...who, message });
      },
      MEMORY_JOB,
    );
    jobs.define<{ sessionId: string; userName: string }>(
      "memory.summary",
      (input) => this.refreshSummary(input),
      MEMORY_JOB,
    );
  }

  /**
   * Queues the background work after a reply (the chat's ReplyMemory port): facts from the
   * user's words when they may hold some, and the summary once more than SUMMARY_TRIGGER
   * exchanges lie beyond it (one waiting refresh per session). Returns at once; a job that
   * cannot be queued is logged by the queue.
   */
  afterReply(input: {
    userId: string;
    userName: string;
    characterId: string;
    entry: { id: string; message: string };
    sessionId: string;
    exchanges: number;
  }): void {
    const { entry, userId, userName } = input;
    if (entry.message !== FIRST_MESSAGE_MARKER && mightHoldFacts(entry.message)) {
      void this.jobs.enqueue(
        "memory.facts",
        { userId, characterId: input.characterId, userName, entryId: entry.id },
        { key: `facts:${entry.id}` },
      );
    }
    if (input.exchanges <= SUMMARY_TRIGGER) return;
    void this.jobs.enqueue(
      "memory.summary",
      { sessionId: input.sessionId, userName },
      { key: `summary:${input.sessionId}` },
    );
  }

  /**
   * The facts most relevant to `message`: ranked by shared keywords, then recency; facts about
   * the user's name always count as relevant. At most FACTS_PER_PROMPT.
   */
  async relevantFacts(userId: string, characterId: string, message: string): Promise<string[]> {
    const rows = await this.repo.listFacts(userId, characterId, MAX_FACTS);
    const query = keywords(message);
    return rows
      .map((row, index) => {
        const words = keywords(row.fact);
        let score = 0;
        for (const w of words) if (query.has(w)) score += 1;
        if (/\bname\b/i.test(row.fact)) score += 0.5;
        return { fact: row.fact, score, index };
      })
      .filter((r) => r.score > 0 || r.index < 2)
      .sort((a, b) => b.score - a.score || a.index - b.index)
      .slice(0, FACTS_PER_PROMPT)
      .map((r) => r.fact);
  }

  /** The facts a character remembers about the user, newest first (Settings: visible, deletable). */
  listFacts(userId: string, characterId: string) {
    return this.repo.listFacts(userId, characterId);
  }

  /** Deletes one of the user's facts. @returns false when it is not the user's. */
  deleteFact(userId: string, id: string): Promise<boolean> {
    return this.repo.deleteOwnedFact(userId, id);
  }

  /**
   * Asks the model for lasting facts about the user in their message and stores the new ones.
   * @returns the facts added.
   */
  async extractFacts(input: {
    userId: string;
    characterId: string;
    userName: string;
    message: string;
  }): Promise<string[]> {
    if (!this.llm.status().ready || keywords(input.message).size === 0) return [];
    const result = await this.llm.generate({
      messages: [
        {
          role: "system",
          content: `Extract lasting facts about ${input.userName} from their message: name, age, likes, dislikes, job, plans, events, people and pets in their life. Answer with a JSON array of short sentences about ${input.userName} in the third person, or [] when there are none. Nothing else.`,
        },
        { role: "user", content: input.message },
      ],
      maxTokens: 160,
      temperature: 0,
    });
    const json = /\[[\s\S]*\]/.exec(result.text)?.[0];
    if (!json) return [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch {
      return [];
    }
    if (!Array.isArray(parsed)) return [];
    const existing = await this.listFacts(input.userId, input.characterId);
    const known = new Set(existing.map((f) => f.fact.toLowerCase()));
    const added: string[] = [];
    for (const item of parsed.slice(0, 5)) {
      if (typeof item !== "string") continue;
      const fact = item.trim().slice(0, 200);
      if (fact.length < 3 || known.has(fact.toLowerCase())) continue;
      known.add(fact.toLowerCase());
      added.push(fact);
      await this.repo.insertFact(input.userId, input.characterId, fact, this.now());
    }
    if (existing.length + added.length > MAX_FACTS) {
      const overflow = existing.slice(MAX_FACTS - added.length).map((f) => f.id);
      await this.repo.deleteFacts(overflow);
    }
    return added;
  }

  /**
   * Refreshes a chat's rolling summary when more than SUMMARY_TRIGGER exchanges lie beyond it:
   * everything but the newest SUMMARY_KEEP_RECENT is folded into the summary. Each exchange is
   * told with its character's name as stored now.
   * @returns true when the summary was rewritten.
   */
  async refreshSummary(input: { sessionId: string; userName: string }): Promise<boolean> {
    const session = await this.repo.summaryOf(input.sessionId);
    if (!session || !this.llm.status().ready) return false;
    const pending = await this.repo.exchangesAfter(input.sessionId, session.summary_until_seq);
    if (pending.length <= SUMMARY_TRIGGER) return false;
    const fold = pending.slice(0, pending.length - SUMMARY_KEEP_RECENT);
    const transcript = fold
      .flatMap((h) => [
        h.message && !h.message.startsWith("##") ? `${input.userName}: ${h.message}` : "",
        h.reply_message ? `${h.character_name ?? "Character"}: ${h.reply_message}` : "",
      ])
      .filter(Boolean)
      .join("\n");
    const result = await this.llm.generate({
      messages: [
        {
          role: "system",
          content:
            "You keep the memory of a long chat. Rewrite the summary to include the new messages: at most 150 words, in the past tense, keeping names, facts, feelings and unfinished threads. Answer with the summary only.",
        },
        {
          role: "user",
          content: `Summary so far: ${session.summary || "(none)"}\n\nNew messages:\n${transcript}`,
        },
      ],
      maxTokens: 260,
      temperature: 0.2,
    });
    const summary = result.text.trim().slice(0, 2000);
    if (!summary) return false;
    await this.repo.saveSummary(input.sessionId, summary, session.summary_until_seq, fold.at(-1)!.seq);
    return true;
  }
}
