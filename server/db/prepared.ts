// Queries built and compiled once per SQL dialect then run with new values (the chat turn's hot path), and their result helpers.
import { type Compilable, CompiledQuery, type QueryResult } from "kysely";
import type { Db } from "./index";

/** Marks a parameter's place while a prepared query is built once. */
const SLOT = Symbol("prepared query parameter");

interface Placeholder {
  readonly [SLOT]: string;
}

/** A compiled query's text and, per parameter, the named value or the constant it takes. */
interface Compiled {
  sql: string;
  slots: Array<{ name: string } | { value: unknown }>;
}

/**
 * A query built and compiled once per SQL dialect and set of parameter names, then run with new
 * values (Kysely's building and compiling of the same query for every message was about
 * a fifth of the server's CPU per chat turn). `build` receives placeholders in place of the
 * parameters and must use each only as a value (a where operand, an inserted or set value, a
 * limit), never to decide the query's shape: the shape is fixed by the parameter names. Works on
 * the database and in its transactions (both dialects; the placeholders compile to `?` or `$n`).
 * @returns a function of (database or transaction, parameters) resolving to the raw query result
 *   (`rows`, `numAffectedRows`).
 * @throws Error at the first run when a parameter is not used as a value.
 */
export function preparedQuery<P extends Record<string, unknown>, R>(
  build: (db: Db, params: P) => Compilable<R>,
): (db: Db, params: P) => Promise<QueryResult<R>> {
  // Keyed by the dialect's adapter (shared by a database and its transactions), then the names.
  const cache = new WeakMap<object, Map<string, Compiled>>();
  return async (db, params) => {
    const adapter = db.getExecutor().adapter;
    let byNames = cache.get(adapter);
    if (!byNames) {
      byNames = new Map();
      cache.set(adapter, byNames);
    }
    const names = Object.keys(params);
    const key = names.join(",");
    let compiled = byNames.get(key);
    if (!compiled) {
      const placeholders = Object.fromEntries(names.map((name) => [name, { [SLOT]: name } as Placeholder]));
      const query = build(db, placeholders as unknown as P).compile();
      const slots = query.parameters.map((value) =>
        value !== null && typeof value === "object" && SLOT in value
          ? { name: (value as Placeholder)[SLOT] }
          : { value },
      );
      const used = new Set(slots.flatMap((slot) => ("name" in slot ? [slot.name] : [])));
      const unused = names.filter((name) => !used.has(name));
      if (unused.length > 0) throw new Error(`prepared query: ${unused.join(", ")} not used as values`);
      compiled = { sql: query.sql, slots };
      byNames.set(key, compiled);
    }
    const values = compiled.slots.map((slot) => ("name" in slot ? params[slot.name] : slot.value));
    return db.executeQuery<R>(CompiledQuery.raw(compiled.sql, values) as CompiledQuery<R>);
  };
}

/** The first row of a prepared query's result, or undefined. */
export async function firstRow<R>(result: Promise<QueryResult<R>>): Promise<R | undefined> {
  return (await result).rows[0];
}

/** How many rows a prepared update or delete changed. */
export async function changedRows(result: Promise<QueryResult<unknown>>): Promise<number> {
  return Number((await result).numAffectedRows ?? 0n);
}
