// Message search (GET /api/search): its limits, and the type of one found message (the schema is in common/api/search.ts).
export type { SearchHit } from "./api/search";

/** The most characters a search query may have (after trimming). */
export const SEARCH_QUERY_MAX = 200;
/** The most results one search answers, newest first. */
export const SEARCH_RESULTS_MAX = 50;
