// Ranking helpers of recall: reciprocal rank fusion of several rankings (word search, embeddings) and the nearest unit vectors by cosine.

/** One id of a fused ranking. */
export interface FusedResult {
  id: string;
  /** Σ 1/(k + rank) over the lists it appears in (rank 1-based); higher is better. */
  score: number;
  /** Indexes of the input lists it was found in, in increasing order. */
  lists: number[];
}

/**
 * Reciprocal rank fusion (Cormack, Clarke & Büttcher, "Reciprocal Rank Fusion outperforms
 * Condorcet and individual Rank Learning Methods", SIGIR 2009): each id scores
 * Σ 1/(k + rank) over the rankings it appears in, rank counted from 1, and the ids are ranked by
 * that score. It needs only the ranks, not the rankers' scores, so word-search relevance and
 * cosine similarity (on unrelated scales) combine without calibration; k = 60 is the paper's
 * value, which keeps one list's top hit from outweighing agreement between lists.
 * @param rankings lists of ids, each best first. An id repeated within one list counts once, at
 *   its first (best) place.
 * @param k the constant added to each rank, a finite number ≥ 0; 60 by default.
 * @returns every id found, best first; equal scores keep the order in which the ids were first
 *   met, reading list 0 from its top, then list 1, and so on.
 * @throws RangeError when `k` is negative or not finite.
 */
export function reciprocalRankFusion(rankings: ReadonlyArray<ReadonlyArray<string>>, k = 60): FusedResult[] {
  if (!Number.isFinite(k) || k < 0) throw new RangeError(`k must be a finite number ≥ 0, not ${k}`);
  const byId = new Map<string, FusedResult>();
  rankings.forEach((ranking, list) => {
    ranking.forEach((id, index) => {
      let result = byId.get(id);
      if (result?.lists.at(-1) === list) return;
      if (!result) {
        result = { id, score: 0, lists: [] };
        byId.set(id, result);
      }
      result.score += 1 / (k + index + 1);
      result.lists.push(list);
    });
  });
  // Map keeps insertion order (first met) and Array.prototype.sort is stable: ties keep it.
  return [...byId.values()].sort((a, b) => b.score - a.score);
}

/**
 * The `k` vectors most similar to `query` by cosine similarity, computed as the dot product:
 * both sides must be unit length (as `Embedder.embed` answers them).
 * @param vectors candidates; one whose length differs from the query's (another model's vector)
 *   is skipped, and so is one whose score is not a finite number.
 * @param k how many to return at most; 0 or less returns none, a fraction is rounded down.
 * @returns ids with their similarity (−1 to 1), best first; equal scores keep the input order.
 */
export function cosineTopK(
  query: Float32Array,
  vectors: ReadonlyArray<{ id: string; vector: Float32Array }>,
  k: number,
): Array<{ id: string; score: number }> {
  const count = Math.floor(k);
  if (!(count > 0)) return [];
  const scored: Array<{ id: string; score: number }> = [];
  for (const { id, vector } of vectors) {
    if (vector.length !== query.length) continue;
    let score = 0;
    for (let i = 0; i < vector.length; i++) score += (vector[i] as number) * (query[i] as number);
    if (Number.isFinite(score)) scored.push({ id, score });
  }
  scored.sort((a, b) => b.score - a.score);
  return scored.length > count ? scored.slice(0, count) : scored;
}
