// Recall: for each reply, the earlier messages of the chat that share the new message's words, ranked, with their neighbours.
import type { RecallFound, RecallMatch, RecallMessage } from "../prompt/recall-port";
import { NEIGHBOURS_OF_BEST, packRecall } from "../prompt/recall-prompt";
import { reciprocalRankFusion } from "./fusion";
import { entrySides, type RankedSide, type RecallRepo } from "./recall.repo";
import { favourNamedOwnWords } from "./recall-address";
import { categoryWords } from "./recall-lexicon";
import { matchedTerms, namedPeriod, recallQuery } from "./recall-terms";

/**
 * Ranking by meaning: the sides of a session's entries nearest to a text, best first (embeddings of
 * the messages, stored as they are written; off unless an embedding model is configured).
 */
export interface MeaningRanker {
  /** @throws when the embedding model fails; recall then ranks by words alone. */
  rank(sessionId: string, text: string, limit: number): Promise<RankedSide[]>;
}

/** A chat's speakers: the user's name, and each character's id and name. */
export interface Speakers {
  user: string;
  characters: ReadonlyArray<{ id: string; name: string }>;
}

/**
 * How much more a message sent in the period the new message names weighs ("what did Nate win in
 * November 2022?": the messages of that month first, then the rest).
 */
const PERIOD_WEIGHT = 3;

/** The ranking with the sides found in the named period weighted up (PERIOD_WEIGHT), best first. */
function favourPeriod(ranked: readonly RankedSide[], inPeriod: readonly RankedSide[]): RankedSide[] {
  const key = (r: RankedSide) => `${r.entryId}:${r.side}`;
  const merged = new Map(ranked.map((r) => [key(r), r]));
  for (const r of inPeriod) merged.set(key(r), { ...r, score: r.score * PERIOD_WEIGHT });
  return [...merged.values()].sort((a, b) => b.score - a.score).slice(0, RECALL_CANDIDATES);
}

/**
 * Reciprocal rank fusion's constant for the category ranking (fusion.ts): 10 rather than the
 * paper's 60, so the two rankings' best alternate at the top of the budget. Measured with
 * bench/memory-recall.bench.ts (LoCoMo, SQLite): 60 recalled less; 5 to 30, or the category's
 * ranking weighted 0.7 to 1.3, about the same as 10 with equal weights.
 */
const CATEGORY_FUSION_K = 10;
/** The query's own best sides: a category item among them keeps its neighbours (it matched the question's words too). */
const OWN_BEST = 5;

/**
 * The query's ranking fused with the category ranking (categoryWords), best first, at most
 * RECALL_CANDIDATES; the sides found by the category words alone (not among the query's own
 * OWN_BEST) go into `itemsOnly` (`${entryId}:${side}`): such a side is an item of the list asked
 * for ("I'm doing kickboxing"), told in its own words, so it goes in without its neighbours and
 * leaves their budget to more items.
 */
function fuseCategory(
  own: readonly RankedSide[],
  inCategory: readonly RankedSide[],
  itemsOnly: Set<string>,
): RankedSide[] {
  const key = (r: RankedSide) => `${r.entryId}:${r.side}`;
  const best = new Set(own.slice(0, OWN_BEST).map(key));
  for (const r of inCategory) if (!best.has(key(r))) itemsOnly.add(key(r));
  const sides = new Map([...own, ...inCategory].map((r) => [key(r), r]));
  const fused = reciprocalRankFusion([own.map(key), inCategory.map(key)], CATEGORY_FUSION_K);
  return fused.slice(0, RECALL_CANDIDATES).map((f) => sides.get(f.id)!);
}

/** Sides ranked by the search per reply: enough for the budget after the prompt's own history is left out. */
export const RECALL_CANDIDATES = 80;

/**
 * Recall (docs/features.md "Memory"): searches a chat's earlier messages for the reply being
 * written, so that what was said weeks ago can reach the prompt beyond the newest messages and
 * the rolling summary. Word search only here (the database's stemmed full-text index, kept in step
 * with every edit and deletion by the database itself): nothing is cached, so a deleted or
 * edited-away word is never found again.
 */
export class RecallService {
  constructor(
    private readonly repo: RecallRepo,
    private readonly now: () => number = () => performance.now(),
    /** Ranking by meaning (embeddings), fused with the word search; absent: words only (the default). */
    private readonly meaning?: MeaningRanker,
  ) {}

  /**
   * The earlier messages of the session that match the reply's query, best first, each with the
   * messages before and after it.
   * @param input.session the chat's session as resolved for its owner (`recall` 0: switched off).
   * @param input.newMessage the user's newest words (the message answered).
   * @param input.recent the recent exchanges' texts, newest first (they fill a short message's query).
   * @returns the matches (none when off or when the query has no words) and the time taken, ms.
   */
  async find(input: {
    session: { id: string; recall?: number | null };
    newMessage: string;
    recent: readonly string[];
    /** The chat's speakers: the user's name and the characters' (by id). */
    speakers?: Speakers;
  }): Promise<RecallFound> {
    const started = this.now();
    const enabled = Number(input.session.recall ?? 1) !== 0;
    const speakers = input.speakers ?? { user: "", characters: [] };
    const names = [speakers.user, ...speakers.characters.map((c) => c.name)];
    const period = enabled ? namedPeriod(input.newMessage) : undefined;
    const query = enabled ? recallQuery(input.newMessage, input.recent, names, period?.words) : [];
    if (query.length === 0 && !(enabled && this.meaning && input.newMessage.trim())) {
      return { enabled, query, matches: [], ms: this.now() - started };
    }
    // A question asking for a category's members ("what sports…") also searches the members'
    // words (recall-lexicon.ts), which its own words do not hold.
    const members = categoryWords(input.newMessage).filter((word) => !query.includes(word));
    // The whole chat's ranking, the named period's and the category's run side by side (separate
    // connections on PostgreSQL).
    const [all, inPeriod, inCategory] = await Promise.all([
      this.repo.rank(input.session.id, query, RECALL_CANDIDATES),
      period ? this.repo.rank(input.session.id, query, RECALL_CANDIDATES, period) : undefined,
      members.length > 0 ? this.repo.rank(input.session.id, members, RECALL_CANDIDATES) : undefined,
    ]);
    let ranked = inPeriod ? favourPeriod(all, inPeriod) : all;
    const itemsOnly = new Set<string>();
    if (inCategory) ranked = fuseCategory(ranked, inCategory, itemsOnly);
    const byMeaning = new Set<string>();
    if (this.meaning) ranked = await this.fuseMeaning(input.session.id, input.newMessage, ranked, byMeaning);
    const found = await this.withNeighbours(
      input.session.id,
      ranked,
      [...query, ...members],
      byMeaning,
      itemsOnly,
    );
    // A question about someone it names: their own words first (recall-address.ts).
    const matches = favourNamedOwnWords(found, input.newMessage);
    return { enabled, query, matches, ms: this.now() - started };
  }

  /**
   * The word ranking fused with the ranking by meaning (reciprocal rank fusion, fusion.ts); the
   * sides the meaning ranking found go into `byMeaning` (`${entryId}:${side}`). When the meaning
   * ranker fails (its model is down or slow), the words' ranking is kept as it was.
   */
  private async fuseMeaning(
    sessionId: string,
    text: string,
    words: RankedSide[],
    byMeaning: Set<string>,
  ): Promise<RankedSide[]> {
    const key = (r: { entryId: string; side: string }) => `${r.entryId}:${r.side}`;
    let meant: RankedSide[];
    try {
      meant = await this.meaning!.rank(sessionId, text, RECALL_CANDIDATES);
    } catch {
      return words;
    }
    const sides = new Map([...words, ...meant].map((r) => [key(r), r]));
    for (const r of meant) byMeaning.add(key(r));
    const fused = reciprocalRankFusion([words.map(key), meant.map(key)]);
    return fused.slice(0, RECALL_CANDIDATES).map((f) => sides.get(f.id)!);
  }

  /**
   * The ranked sides as messages with their neighbours (a side whose entry is gone meanwhile is
   * left out); a side of `alone` (`${entryId}:${side}`) without them.
   */
  private async withNeighbours(
    sessionId: string,
    ranked: RankedSide[],
    query: string[],
    byMeaning: ReadonlySet<string> = new Set(),
    alone: ReadonlySet<string> = new Set(),
  ): Promise<RecallMatch[]> {
    const ids = [...new Set(ranked.map((r) => r.entryId))];
    // Only the best matches' neighbours can reach the prompt (packRecall), so only theirs are read.
    const entries = await this.repo.entriesAround(
      sessionId,
      ids,
      new Set(ids.slice(0, NEIGHBOURS_OF_BEST + 4)),
    );
    const sides = (id: string | null | undefined) => {
      const row = id ? entries.get(id) : undefined;
      return row ? entrySides(row) : {};
    };
    const matches: RecallMatch[] = [];
    for (const { entryId, side } of ranked) {
      const row = entries.get(entryId);
      if (!row) continue;
      const own = entrySides(row);
      const message: RecallMessage | undefined = own[side];
      if (!message) continue;
      const single = alone.has(`${entryId}:${side}`);
      const before = single ? undefined : side === "reply" ? own.user : sides(row.prev_id).reply;
      const after = single ? undefined : side === "user" ? own.reply : sides(row.next_id).user;
      const terms = matchedTerms(message.text, query);
      const by: RecallMatch["by"] = [];
      if (terms.length > 0) by.push("words");
      if (byMeaning.has(`${entryId}:${side}`)) by.push("meaning");
      matches.push({ ...message, terms, by, before, after });
    }
    return matches;
  }

  /**
   * Recall for a check-in (a message the character writes first, after a quiet while, whose
   * prompt carries no history): the earlier messages that match the user's last words in the chat,
   * as the turn note's lines (packRecall), within `budget` tokens. None when the chat's recall is
   * off or the user never wrote.
   */
  async checkInLines(input: {
    sessionId: string;
    speakers: Speakers;
    budget: number;
    countTokens: (text: string) => number;
  }): Promise<string[]> {
    const lastWords = await this.repo.lastUserWords(input.sessionId);
    if (!lastWords) return [];
    const enabled = await this.repo.enabled(input.sessionId);
    const found = await this.find({
      session: { id: input.sessionId, recall: enabled ? 1 : 0 },
      newMessage: lastWords,
      recent: [],
      speakers: input.speakers,
    });
    const names = new Map(input.speakers.characters.map((c) => [c.id, c.name]));
    return packRecall(found, {
      budget: input.budget,
      exclude: new Set(),
      countTokens: input.countTokens,
      speaker: (m) => (m.side === "user" ? input.speakers.user : (names.get(m.characterId) ?? "")),
    }).lines;
  }

  /** Whether recall is on for the session. */
  enabled(sessionId: string): Promise<boolean> {
    return this.repo.enabled(sessionId);
  }

  /** Switches recall on or off for the session (the caller resolved it for its owner). */
  setEnabled(sessionId: string, enabled: boolean): Promise<void> {
    return this.repo.setEnabled(sessionId, enabled);
  }
}
