// Recall by meaning: the stored embeddings of a chat's messages (message_vectors), the ranking of a chat's sides nearest a text, and the background embedding of the sides without one.
import { sql } from "kysely";
import { FIRST_MESSAGE_MARKER } from "../../../common/constants";
import type { DbHandle } from "../../db/index";
import { bufferToVector, type Embedder, vectorToBuffer } from "../../providers/embeddings/index";
import { cosineTopK } from "./fusion";
import type { RankedSide } from "./recall.repo";
import type { MeaningRanker } from "./recall.service";

/** Longest wait for the embedding of a reply's query, ms: past it the reply recalls by words alone. */
export const QUERY_EMBED_TIMEOUT_MS = 3000;
/** Longest wait for one background embedding call, ms (the job fails and is retried). */
const BATCH_EMBED_TIMEOUT_MS = 120_000;
/** Most sides embedded by one `embedPending` (one "memory.embed" job). */
export const EMBED_BATCH = 64;
/**
 * Texts per embedding call within a batch: the in-process model embeds one call's texts in one
 * turn, so a reply's query waits behind at most this many texts.
 */
const TEXTS_PER_CALL = 8;
/**
 * Most stored vectors compared per reply (the session's newest sides): a 768-dimension vector is
 * 3 KB, so at most about 15 MB read and 4 M multiply-adds per reply; older sides are still found
 * by words.
 */
export const MAX_COMPARED_SIDES = 5000;

/**
 * `work`, or the signal's reason as soon as it aborts: the caller stops waiting even where the
 * work checks the signal only now and then (the in-process model checks it between texts, not
 * while it loads or waits its turn).
 */
function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    if (signal.aborted) return abort();
    signal.addEventListener("abort", abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", abort));
  });
}

/** A side of an entry waiting for its embedding. */
export interface PendingSide {
  entryId: string;
  side: 0 | 1;
  text: string;
}

/**
 * The stored embeddings of one chat's messages, and the embedding model that makes them. Every
 * query is limited to one chat session, whose id the caller took from a chat it resolved for its
 * owner (so another user's messages can never be read), and to the vectors of this embedder's
 * model id.
 */
export class RecallVectors implements MeaningRanker {
  constructor(
    private readonly handle: DbHandle,
    private readonly embedder: Embedder,
  ) {}

  /**
   * The session's sides nearest `text` by cosine similarity, best first, at most `limit` (score
   * −1 to 1), among the newest MAX_COMPARED_SIDES sides with a vector of this model. One
   * embedding call (waited for at most QUERY_EMBED_TIMEOUT_MS, the model's loading and its turn
   * included) and one read.
   * @throws the embedder's error, or the timeout's (recall then ranks by words alone).
   */
  async rank(sessionId: string, text: string, limit: number): Promise<RankedSide[]> {
    if (!text.trim() || limit < 1) return [];
    const signal = AbortSignal.timeout(QUERY_EMBED_TIMEOUT_MS);
    const [query] = await untilAborted(this.embedder.embed([text], signal), signal);
    if (!query) return [];
    const { rows } = await sql<{ entry_id: string; side: number; vector: Uint8Array }>`select v.entry_id,
        v.side, v.vector from message_vectors v join chat_history h on h.id = v.entry_id
      where h.session_id = ${sessionId} and v.model = ${this.embedder.id}
      order by h.seq desc, v.side desc limit ${MAX_COMPARED_SIDES}`.execute(this.handle.db);
    const vectors = rows.map((row) => ({
      id: `${row.entry_id}:${Number(row.side)}`,
      vector: bufferToVector(row.vector),
    }));
    return cosineTopK(query, vectors, limit).map(({ id, score }) => {
      const at = id.lastIndexOf(":");
      return { entryId: id.slice(0, at), side: id.slice(at + 1) === "0" ? "user" : "reply", score };
    });
  }

  /**
   * The session's sides without a vector of this model, oldest first, at most `max`: non-empty
   * texts only, never the greeting's marker (no one's words), nor a reply still being written.
   */
  async pending(sessionId: string, max: number): Promise<PendingSide[]> {
    const model = this.embedder.id;
    const { rows } = await sql<{ entry_id: string; side: number; text: string }>`select entry_id, side, text
      from (
        select h.id as entry_id, 0 as side, h.message as text, h.seq as seq from chat_history h
          where h.session_id = ${sessionId} and h.message <> '' and h.message <> ${FIRST_MESSAGE_MARKER}
          and not exists (select 1 from message_vectors v where v.entry_id = h.id and v.side = 0 and v.model = ${model})
        union all
        select h.id as entry_id, 1 as side, h.reply_message as text, h.seq as seq from chat_history h
          where h.session_id = ${sessionId} and h.reply_message <> '' and h.status <> 'pending'
          and not exists (select 1 from message_vectors v where v.entry_id = h.id and v.side = 1 and v.model = ${model})
      ) waiting order by seq, side limit ${Math.max(0, Math.floor(max))}`.execute(this.handle.db);
    return rows.map((r) => ({ entryId: r.entry_id, side: Number(r.side) === 0 ? 0 : 1, text: r.text }));
  }

  /**
   * Embeds up to `max` of the session's sides without a vector (oldest first, `pending`) in calls
   * of TEXTS_PER_CALL texts, and stores each vector, but only while its side still holds the text
   * embedded (an edit meanwhile leaves the side for a later batch). A vector another process stored
   * meanwhile is kept; one of another model is replaced.
   * @returns how many vectors were stored, and whether more may wait (`more`: `max` were found).
   * @throws the embedder's error (the job is retried; the vectors already stored stay).
   */
  async embedPending(sessionId: string, max = EMBED_BATCH): Promise<{ embedded: number; more: boolean }> {
    const sides = await this.pending(sessionId, max);
    let stored = 0;
    for (let from = 0; from < sides.length; from += TEXTS_PER_CALL) {
      const part = sides.slice(from, from + TEXTS_PER_CALL);
      const vectors = await this.embedder.embed(
        part.map((s) => s.text),
        AbortSignal.timeout(BATCH_EMBED_TIMEOUT_MS),
      );
      for (const [i, side] of part.entries()) if (await this.store(sessionId, side, vectors[i]!)) stored += 1;
    }
    return { embedded: stored, more: sides.length >= max && max > 0 };
  }

  /** Stores one side's vector when the side still holds `side.text`. @returns whether a row was written. */
  private async store(sessionId: string, side: PendingSide, vector: Float32Array): Promise<boolean> {
    const column = sql.raw(side.side === 0 ? "message" : "reply_message");
    const result = await sql`insert into message_vectors (entry_id, side, model, vector)
      select h.id, ${side.side}, ${this.embedder.id}, ${vectorToBuffer(vector)} from chat_history h
      where h.id = ${side.entryId} and h.session_id = ${sessionId} and h.${column} = ${side.text}
      on conflict (entry_id, side) do update set model = excluded.model, vector = excluded.vector
        where message_vectors.model <> excluded.model`.execute(this.handle.db);
    return Number(result.numAffectedRows ?? 0) > 0;
  }

  /** How many vectors the session has (tests and the inspector's figures). */
  async count(sessionId: string): Promise<number> {
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from message_vectors v
      join chat_history h on h.id = v.entry_id where h.session_id = ${sessionId}`.execute(this.handle.db);
    return Number(rows[0]?.n ?? 0);
  }
}
