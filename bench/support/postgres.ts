import pg from "pg";
import { createDatabase, type ScratchDatabase } from "../../server/testing/databases";

/** What the benchmarks that run on PostgreSQL share: finding the server, a fresh database, its write counters. */

/** The local server CI and the development machine have. */
const LOCAL_URL = "postgres://postgres@127.0.0.1:5432/test";

/**
 * The PostgreSQL server to benchmark on: BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the
 * local one when it answers. @returns undefined when none is there (the benchmark skips it).
 */
export async function postgresUrl(): Promise<string | undefined> {
  const configured = process.env.BENCH_DATABASE_URL || process.env.TEST_DATABASE_URL;
  if (configured) return configured;
  const probe = new pg.Client({ connectionString: LOCAL_URL });
  try {
    await probe.connect();
    await probe.end();
    return LOCAL_URL;
  } catch {
    return undefined;
  }
}

/** Creates an empty database on `baseUrl`'s server. @returns its URL and `drop()`. */
export function freshPostgres(baseUrl: string): Promise<ScratchDatabase> {
  return createDatabase(baseUrl, `bench_${process.pid}_${Date.now()}`);
}

/** How long writeCounters waits for idle backends' statistics, ms (see there). */
const STATS_SETTLE_MS = 11_000;

/** What PostgreSQL has written so far: committed transactions, rows changed, WAL bytes. */
export interface WriteCounters {
  commits: number;
  rows: number;
  walBytes: number;
}

/**
 * Reads a database's write counters (the capacity model: writes and bytes per message).
 * Transactions and rows are the database's own; WAL bytes are the whole server's. A backend that
 * published its counts less than a second before going idle publishes the rest only after
 * PostgreSQL's idle interval (10 s, PGSTAT_IDLE_INTERVAL in PostgreSQL 15), hence the wait: with
 * 1.5 s a fast level's counts landed in the next level's.
 */
export async function writeCounters(url: string): Promise<WriteCounters> {
  await new Promise((resolve) => setTimeout(resolve, STATS_SETTLE_MS));
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ commits: string; rows: string; wal: string }>(
      `select xact_commit as commits, tup_inserted + tup_updated + tup_deleted as rows,
              pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0') as wal
         from pg_stat_database where datname = current_database()`,
    );
    const row = rows[0]!;
    return { commits: Number(row.commits), rows: Number(row.rows), walBytes: Number(row.wal) };
  } finally {
    await client.end();
  }
}
