// Memory: a rolling summary of older messages per chat and long-term facts about the user per character, written by background jobs.
import { CACHE_TTL_MS, type CacheGroup, ShortCache } from "../../db/short-cache";
import type { JobData, JobQueue } from "../../jobs/queue";
import type { LlmProvider } from "../../providers/llm/llm";
import type { RecallQuery } from "../conversation/reply-prompt";
import type { AfterReplyInput, RecallFound, RememberedFacts } from "../prompt/prompt";
import { type FactRow, groupByCharacter, holdsFacts, keywords, splitPromptFacts } from "./facts";
import type { MemoryRepo } from "./memory.repo";
import { askFacts, askSummary } from "./memory-model";
import type { RecallService } from "./recall.service";
import { EMBED_BATCH, type RecallVectors } from "./recall-vectors";

/** Exchanges beyond the summary before a refresh is queued. */
export const SUMMARY_TRIGGER = 30;
/** Newest exchanges always left out of the summary (they are in the prompt as they are). */
export const SUMMARY_KEEP_RECENT = 20;
/** Facts kept per user and character; the oldest go first. */
export const MAX_FACTS = 200;

export { FACTS_PER_NOTE, FACTS_SETTLED, keywords, mightHoldFacts } from "./facts";

/** Most fact lists kept by the per-process cache. */
const CACHED_FACT_LISTS_MAX = 10_000;

/**
 * Facts are extracted from a chat's messages in batches, one model call for this many
 * messages that may hold some (not one per message: the call cost about a millisecond of server
 * CPU and a model run each). Until then the messages are in the prompt as they are.
 */
export const FACTS_BATCH = 6;
/**
 * A smaller batch is extracted when its oldest message is this close (in exchanges) to leaving
 * the prompt (the token budget or the history limit drops it next), so nothing said is ever out
 * of both the prompt and the facts.
 */
export const FACTS_DROP_MARGIN = 3;
/** Entries read by one extraction; the rest wait for the next. */
const FACTS_READ_LIMIT = 40;

/**
 * How long this process holds back a second memory job for a chat after queuing one, ms (issue
 * 19): the replies sent while the job waits or runs would each queue one more (the queue drops a
 * repeat only while the first still waits), and it would find its work done. Cleared when the job
 * ends here; a job run by another process is trusted for this long.
 */
export const QUEUED_GUARD_MS = 15_000;
/** Most chats whose queued job is remembered (the oldest are forgotten first). */
const QUEUED_GUARD_MAX = 10_000;

/** Tries of a memory job (the model may be busy or briefly unreachable), and the first back-off. */
const MEMORY_JOB = { attempts: 3, backoffMs: 2000 };

/**
 * Memory: a rolling summary of older messages per chat session and long-term facts
 * about the user per character. Both are written by background jobs ("memory.facts",
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
    /** Logs a failed background extraction that no job retries (beforeClear). */
    private readonly logError: (error: unknown) => void = () => {},
    /** Told when a chat session's row was written here (summary, facts' progress, recall): its cached copy is dropped. */
    private readonly sessionChanged: (sessionId: string) => void = () => {},
    /**
     * Where the per-process cache of each character's facts about the user joins (one
     * read less per reply; the rule of server/db/short-cache.ts: a few seconds at most, dropped
     * at once when this process adds or deletes facts); without it nothing is cached.
     */
    caches?: CacheGroup,
    /** Recall: the earlier messages of a chat for a reply's prompt; without it nothing is recalled. */
    private readonly recaller?: RecallService,
    /** Recall by meaning: the messages' embeddings, kept by "memory.embed" jobs; absent: none (the default). */
    private readonly vectors?: Pick<RecallVectors, "embedPending">,
  ) {
    if (caches) this.factsCache = new ShortCache({ ttlMs: CACHE_TTL_MS, max: CACHED_FACT_LISTS_MAX }, caches);
    jobs.define<{ userId: string; userName: string; sessionId: string; need: number }>(
      "memory.facts",
      (input) => this.extractPending(input).finally(() => this.queued.delete(`facts:${input.sessionId}`)),
      MEMORY_JOB,
    );
    jobs.define<{ sessionId: string; userName: string }>(
      "memory.summary",
      (input) => this.refreshSummary(input).finally(() => this.queued.delete(`summary:${input.sessionId}`)),
      MEMORY_JOB,
    );
    if (vectors)
      jobs.define<{ sessionId: string }>("memory.embed", (input) => this.embedBatch(input), MEMORY_JOB);
  }

  /**
   * The "memory.embed" job: embeds one batch (EMBED_BATCH, recall-vectors.ts) of the chat's sides
   * without a vector, oldest first, and queues itself again after storing any (more may wait: a
   * long or imported chat, or replies sent while it ran), so a chat is embedded a batch per job,
   * other jobs running between them; a job that stores none ends it. Cost: one read of the sides
   * without a vector, up to EMBED_BATCH texts embedded (calls of a few texts: the in-process model
   * runs one call at a time, a reply's query waits behind at most one) and an insert per side;
   * after a reply, usually its two sides, then a job that finds none.
   * @throws the embedder's error (the job is retried, then given up; the next reply queues it again).
   */
  private async embedBatch(input: { sessionId: string }): Promise<void> {
    const key = `embed:${input.sessionId}`;
    let more = false;
    try {
      const done = await this.vectors!.embedPending(input.sessionId, EMBED_BATCH);
      more = done.embedded > 0;
    } finally {
      this.queued.delete(key);
    }
    if (more) this.queueOnce("memory.embed", { sessionId: input.sessionId }, key);
  }

  /** Job key → when this process queued it (QUEUED_GUARD_MS). */
  private readonly queued = new Map<string, number>();

  /** Queues `name` under `key` unless this process queued it less than QUEUED_GUARD_MS ago and it has not ended. */
  private queueOnce(name: string, data: JobData, key: string): void {
    const now = this.now();
    const at = this.queued.get(key);
    if (at !== undefined && now - at < QUEUED_GUARD_MS) return;
    this.queued.delete(key);
    if (this.queued.size >= QUEUED_GUARD_MAX) this.queued.delete(this.queued.keys().next().value!);
    this.queued.set(key, now);
    void this.jobs.enqueue(name, data, { key });
  }

  /**
   * Queues the background work after a reply (the chat's ReplyMemory port). Facts: the user's
   * messages since the last extraction (`factsUntilSeq`) that may hold some are counted in the
   * exchanges the prompt read (`window`, oldest first; `kept` of the newest were in the prompt);
   * one "memory.facts" job per chat is queued when FACTS_BATCH of them wait, or fewer when the
   * prompt is `full` and the oldest is within FACTS_DROP_MARGIN of leaving it. The summary: once more
   * than SUMMARY_TRIGGER exchanges lie beyond it (one waiting refresh per session). Neither is
   * queued again while this process's last one for the chat waits or runs (QUEUED_GUARD_MS).
   * With recall by meaning, a "memory.embed" job for the chat too (embedBatch), guarded alike.
   * Returns at once; a job that cannot be queued is logged by the queue.
   */
  afterReply(input: AfterReplyInput): void {
    const { userId, userName, sessionId, window } = input;
    if (this.vectors) this.queueOnce("memory.embed", { sessionId }, `embed:${sessionId}`);
    let pending = 0;
    let oldest = -1;
    for (let i = window.length - 1; i >= 0; i--) {
      const entry = window[i]!;
      if (entry.seq <= input.factsUntilSeq) break;
      if (holdsFacts(entry.message)) {
        pending += 1;
        oldest = i;
      }
    }
    if (pending > 0) {
      // Exchanges newer than the oldest waiting message: it leaves the prompt when this reaches `kept`.
      const newer = window.length - 1 - oldest;
      const dropping = input.full && newer >= input.kept - FACTS_DROP_MARGIN;
      if (pending >= FACTS_BATCH || dropping) {
        this.queueOnce(
          "memory.facts",
          { userId, userName, sessionId, need: dropping ? 1 : FACTS_BATCH },
          `facts:${sessionId}`,
        );
      }
    }
    if (input.exchanges <= SUMMARY_TRIGGER) return;
    this.queueOnce("memory.summary", { sessionId, userName }, `summary:${sessionId}`);
  }

  /**
   * The "memory.facts" job: extracts the facts of the user's messages of a chat since the last
   * extraction (at most FACTS_READ_LIMIT, oldest first), one model call per character spoken to,
   * then records how far it came. Does nothing when fewer than `need` messages may hold facts
   * (another job took them meanwhile), or when the chat is gone or not the user's.
   * @returns the facts added. @throws when the model fails (the job is retried; facts already
   *   stored are not stored twice).
   */
  async extractPending(input: {
    userId: string;
    userName: string;
    sessionId: string;
    need: number;
  }): Promise<string[]> {
    // A job queued by an older version (one entry's id, no session) has nothing to go on.
    if (!input.sessionId) return [];
    const fromSeq = await this.repo.factsUntilSeq(input.sessionId, input.userId);
    if (fromSeq === undefined) return [];
    const rows = await this.repo.userMessagesAfter(input.sessionId, fromSeq, FACTS_READ_LIMIT);
    const bearing = rows.filter((row) => holdsFacts(row.message));
    if (bearing.length === 0 || bearing.length < input.need) return [];
    const added: string[] = [];
    for (const [characterId, messages] of groupByCharacter(bearing)) {
      added.push(
        ...(await this.extractFacts({
          userId: input.userId,
          characterId,
          userName: input.userName,
          message: messages.map((m) => m.message).join("\n"),
          // Drawn from this chat, up to its newest message here.
          source: { sessionId: input.sessionId, seq: messages.at(-1)!.seq },
        })),
      );
    }
    await this.repo.advanceFacts(input.sessionId, fromSeq, rows.at(-1)!.seq);
    this.sessionChanged(input.sessionId);
    return added;
  }

  /**
   * Before a chat's history is deleted (New Chat): the facts of its messages not yet extracted
   * are extracted in the background, from the messages read now (the job could not read them
   * any more). Never throws; a failure is logged.
   */
  async beforeClear(input: { userId: string; userName: string; sessionId: string }): Promise<void> {
    const onError = this.logError;
    try {
      const fromSeq = await this.repo.factsUntilSeq(input.sessionId, input.userId);
      if (fromSeq === undefined) return;
      const rows = await this.repo.userMessagesAfter(input.sessionId, fromSeq, FACTS_READ_LIMIT);
      const groups = groupByCharacter(rows.filter((row) => holdsFacts(row.message)));
      void (async () => {
        for (const [characterId, messages] of groups) {
          // The chat's history is being deleted: the facts outlive it, tied to no message.
          await this.extractFacts({
            ...input,
            characterId,
            message: messages.map((m) => m.message).join("\n"),
          });
        }
      })().catch(onError);
    } catch (error) {
      onError(error);
    }
  }

  /**
   * The facts of a reply's prompt, split for the prompt's layout (splitPromptFacts: `settled` for
   * the stable system prompt, `recent` for the turn's note).
   * @param session the chat: its id, summary point (order key, µs) and creation time (epoch ms).
   */
  async promptFacts(
    userId: string,
    characterId: string,
    message: string,
    session: { id: string; summary_until_seq: number; created_at: number },
  ): Promise<RememberedFacts> {
    return splitPromptFacts(await this.factsOf(userId, characterId), message, session);
  }

  /**
   * Recall for a reply's prompt (recall.service.ts): the chat's earlier messages that match the
   * user's newest words, best first. Nothing (and `enabled` false when the chat switched it off)
   * without a recall service.
   */
  recall(query: RecallQuery): Promise<RecallFound> {
    if (!this.recaller) return Promise.resolve({ enabled: false, query: [], matches: [], ms: 0 });
    return this.recaller.find(query);
  }

  /** Whether recall is on for the chat session (on without a recall service's say: its default). */
  recallEnabled(sessionId: string): Promise<boolean> {
    return this.recaller ? this.recaller.enabled(sessionId) : Promise.resolve(true);
  }

  /** Switches recall on or off for the chat session (the caller resolved it for its owner); drops its cached row. */
  async setRecall(sessionId: string, enabled: boolean): Promise<void> {
    await this.recaller?.setEnabled(sessionId, enabled);
    this.sessionChanged(sessionId);
  }

  /** The facts of the prompt (at most MAX_FACTS, newest first): from the cache, else read (and cached). */
  private async factsOf(userId: string, characterId: string): Promise<FactRow[]> {
    const read = async () =>
      (await this.repo.listFacts(userId, characterId, MAX_FACTS)).map((row) => ({
        fact: row.fact,
        created_at: Number(row.created_at),
        session_id: row.session_id,
        source_seq: Number(row.source_seq),
      }));
    const cache = this.factsCache;
    if (!cache) return read();
    const key = `${userId} ${characterId}`;
    const now = this.now();
    const cached = cache.get(key, now);
    if (cached) return cached;
    const epoch = cache.epoch();
    const rows = await read();
    cache.set(key, userId, rows, now, epoch);
    return rows;
  }

  /** The per-process cache of the prompt's facts by `${userId} ${characterId}`, when caching. */
  private readonly factsCache?: ShortCache<FactRow[]>;

  /** The facts a character remembers about the user, newest first (Settings: visible, deletable). */
  listFacts(userId: string, characterId: string) {
    return this.repo.listFacts(userId, characterId);
  }

  /** Deletes one of the user's facts. @returns false when it is not the user's. */
  async deleteFact(userId: string, id: string): Promise<boolean> {
    const deleted = await this.repo.deleteOwnedFact(userId, id);
    this.factsCache?.forgetUser(userId);
    return deleted;
  }

  /**
   * Asks the model for lasting facts about the user in their message (or several, one a line)
   * and stores the new ones. @returns the facts added.
   */
  async extractFacts(input: {
    userId: string;
    characterId: string;
    userName: string;
    message: string;
    /** The chat and the order key of the newest message the facts are drawn from. */
    source?: { sessionId: string; seq: number };
  }): Promise<string[]> {
    if (!this.llm.status().ready || keywords(input.message).size === 0) return [];
    const parsed = await askFacts(this.llm, input.userName, input.message);
    const existing = await this.listFacts(input.userId, input.characterId);
    const known = new Set(existing.map((f) => f.fact.toLowerCase()));
    const added: string[] = [];
    for (const item of parsed.slice(0, 5)) {
      if (typeof item !== "string") continue;
      const fact = item.trim().slice(0, 200);
      if (fact.length < 3 || known.has(fact.toLowerCase())) continue;
      known.add(fact.toLowerCase());
      added.push(fact);
      await this.repo.insertFact(input.userId, input.characterId, fact, this.now(), input.source);
    }
    if (existing.length + added.length > MAX_FACTS) {
      const overflow = existing.slice(MAX_FACTS - added.length).map((f) => f.id);
      await this.repo.deleteFacts(overflow);
    }
    if (added.length > 0) this.factsCache?.delete(`${input.userId} ${input.characterId}`);
    return added;
  }

  /**
   * Edit, delete and rewind (the chat's EditMemory port): a chat's entries from order
   * key `fromSeq` on were changed or removed. With `facts` (a user's message changed or removed),
   * the facts drawn from them are deleted and the extraction goes back to just before them, so
   * what is left is drawn again (at once, a "memory.facts" job, when facts were deleted; else with
   * the next batch); a summary that covers any of them is
   * cleared and its refresh queued ("memory.summary", which rewrites it when enough lies beyond).
   * The chat's cached session and this user's cached facts are dropped. Never throws: a failure
   * is logged.
   */
  async forgetFrom(input: {
    userId: string;
    userName: string;
    sessionId: string;
    fromSeq: number;
    facts: boolean;
  }): Promise<void> {
    try {
      const { userId, userName, sessionId } = input;
      const done = await this.repo.forgetFrom(input);
      if (!done.found) return;
      this.sessionChanged(sessionId);
      if (done.factsDeleted > 0) this.factsCache?.forgetUser(userId);
      if (done.factsDeleted > 0) {
        void this.jobs.enqueue(
          "memory.facts",
          { userId, userName, sessionId, need: 1 },
          { key: `facts:${sessionId}` },
        );
      }
      if (done.summaryCleared) {
        void this.jobs.enqueue("memory.summary", { sessionId, userName }, { key: `summary:${sessionId}` });
      }
    } catch (error) {
      this.logError(error);
    }
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
    const summary = await askSummary(this.llm, input.userName, session.summary, fold);
    if (!summary) return false;
    await this.repo.saveSummary(input.sessionId, summary, session.summary_until_seq, fold.at(-1)!.seq);
    this.sessionChanged(input.sessionId);
    return true;
  }
}
