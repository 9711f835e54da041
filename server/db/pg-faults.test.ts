import { randomBytes } from "node:crypto";
import os from "node:os";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { isConnectionLost } from "./connection-errors";
import { type DbHandle, openDatabase } from "./index";

/**
 * PostgreSQL connections terminated by the server (pg_terminate_backend: what a failover, a
 * PgBouncer restart or a database restart does to every connection) while the app uses them.
 * Each test opens the app's database under its own application_name and kills those backends
 * from a separate admin connection.
 */
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL ?? "";
if (!TEST_DATABASE_URL) {
  console.warn("SKIPPED PostgreSQL connection faults (server/db/pg-faults.test.ts): set TEST_DATABASE_URL");
}
const describePg = TEST_DATABASE_URL ? describe : describe.skip;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describePg("PostgreSQL connection faults", () => {
  const schema = `app_pg_faults_${randomBytes(4).toString("hex")}`;
  let admin: pg.Client;
  let appName: string;
  let handle: DbHandle;
  /** Errors nobody handled (an 'error' event without a listener kills the process). */
  let uncaught: unknown[];
  const collectUncaught = (error: unknown) => uncaught.push(error);
  /** The app's "connection lost" log lines. */
  let lostLines: string[];

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: TEST_DATABASE_URL, application_name: "pg_faults_admin" });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.query(`create unlogged table ${schema}.writes (id serial primary key, note text not null)`);
  });
  afterAll(async () => {
    await admin?.query(`drop schema if exists ${schema} cascade`);
    await admin?.end();
  });

  beforeEach(() => {
    uncaught = [];
    process.on("uncaughtException", collectUncaught);
    lostLines = [];
    const error = console.error;
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
      const line = args.map(String).join(" ");
      if (/connection lost/i.test(line)) lostLines.push(line);
      else error(...args);
    });
    appName = `pg_faults_${randomBytes(4).toString("hex")}`;
    const url = new URL(TEST_DATABASE_URL);
    url.searchParams.set("application_name", appName);
    handle = openDatabase(url.toString(), os.tmpdir());
  });
  afterEach(async () => {
    await handle.db.destroy();
    // Let the sockets closed by the test deliver their last events before the check.
    await sleep(50);
    process.off("uncaughtException", collectUncaught);
    vi.restoreAllMocks();
    expect(uncaught).toEqual([]);
  });

  /** The app's backends: pid, state ("active", "idle", "idle in transaction") and query text. */
  async function backends(): Promise<{ pid: number; state: string; query: string }[]> {
    const { rows } = await admin.query(
      "select pid, state, query from pg_stat_activity where application_name = $1 order by pid",
      [appName],
    );
    return rows;
  }

  /** Waits until `predicate` holds for the app's backends (polling every 20 ms, up to 10 s). */
  async function waitForBackends(predicate: (rows: Awaited<ReturnType<typeof backends>>) => boolean) {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const rows = await backends();
      if (predicate(rows)) return rows;
      if (Date.now() > deadline) throw new Error(`backends never matched: ${JSON.stringify(rows)}`);
      await sleep(20);
    }
  }

  /**
   * Terminates every backend of the app; returns their pids. `atOnce` signals them all without
   * waiting (as a failover does: the terminations reach the app together), otherwise each is
   * waited for (up to 5 s) before the next.
   */
  async function terminateAll({ atOnce = false } = {}): Promise<number[]> {
    const { rows } = await admin.query(
      // The subquery picks the app's backends first (`offset 0` keeps the planner from
      // evaluating pg_terminate_backend on other sessions' rows before the name filter).
      `select pid, pg_terminate_backend(pid, $2) as gone from (
         select pid from pg_stat_activity where application_name = $1 and pid <> pg_backend_pid() offset 0
       ) as app`,
      [appName, atOnce ? 0 : 5000],
    );
    return rows.filter((row) => row.gone).map((row) => row.pid);
  }

  async function countWrites(note: string): Promise<number> {
    const { rows } = await admin.query(`select count(*)::int as n from ${schema}.writes where note = $1`, [
      note,
    ]);
    return rows[0].n;
  }

  const writes = () => sql.table(`${schema}.writes`);

  it("survives the termination of a connection running a read: retried once, then rejected; the next query works", async () => {
    const { db } = handle;
    const reading = sql<{ n: number }>`select 42 as n from pg_sleep(5)`.execute(db);
    reading.catch(() => {});
    const isSleeping = (row: { state: string; query: string }) =>
      row.state === "active" && row.query.includes("pg_sleep");
    const first = (await waitForBackends((rows) => rows.some(isSleeping))).find(isSleeping)!;
    expect(await terminateAll()).toContain(first.pid);
    // The read runs again on a fresh connection (another backend) ...
    const second = (
      await waitForBackends((rows) => rows.some((row) => row.pid !== first.pid && isSleeping(row)))
    ).find(isSleeping)!;
    expect(second.pid).not.toBe(first.pid);
    // ... once: when that one is terminated too, the read fails.
    await terminateAll();
    const error = await reading.then(
      () => null,
      (e: unknown) => e,
    );
    expect(isConnectionLost(error)).toBe(true);
    expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
    // One log line per lost connection, not one per query or per event.
    expect(lostLines).toHaveLength(2);
  });

  it("survives the termination of a connection idle inside a transaction: the transaction rejects", async () => {
    const { db } = handle;
    const note = `idle-trx-${appName}`;
    const transaction = db.transaction().execute(async (trx) => {
      await sql`insert into ${writes()} (note) values (${note})`.execute(trx);
      await waitForBackends((rows) => rows.some((row) => row.state === "idle in transaction"));
      await terminateAll();
      await sleep(100);
      await sql`insert into ${writes()} (note) values (${note})`.execute(trx);
    });
    const error = await transaction.then(
      () => null,
      (e: unknown) => e,
    );
    expect(isConnectionLost(error)).toBe(true);
    expect(await countWrites(note)).toBe(0);
    expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
  });

  it("rejects a transaction whose connection is terminated mid-statement, commits nothing and runs nothing after it", async () => {
    const { db } = handle;
    const note = `busy-trx-${appName}`;
    let afterTermination = false;
    const transaction = db.transaction().execute(async (trx) => {
      await sql`insert into ${writes()} (note) values (${note})`.execute(trx);
      // A read inside a transaction: not retried, the transaction fails as a whole.
      await sql`select 1 from pg_sleep(5)`.execute(trx);
      afterTermination = true;
      await sql`insert into ${writes()} (note) values (${note})`.execute(trx);
    });
    transaction.catch(() => {});
    await waitForBackends((rows) =>
      rows.some((row) => row.state === "active" && row.query.includes("pg_sleep")),
    );
    await terminateAll();
    const error = await transaction.then(
      () => null,
      (e: unknown) => e,
    );
    expect(isConnectionLost(error)).toBe(true);
    expect(afterTermination).toBe(false);
    expect(await countWrites(note)).toBe(0);
    expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
  });

  it("does not run a transaction's later statements on a fresh connection in autocommit mode", async () => {
    const { db } = handle;
    const note = `caught-trx-${appName}`;
    let lateInsert: unknown = "not run";
    const transaction = db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
      await waitForBackends((rows) => rows.some((row) => row.state === "idle in transaction"));
      await terminateAll();
      await sleep(100);
      // The caller swallows the failure and goes on inside the (gone) transaction.
      await sql`select 1`.execute(trx).catch(() => {});
      lateInsert = await sql`insert into ${writes()} (note) values (${note})`.execute(trx).then(
        () => "inserted",
        (e: unknown) => e,
      );
    });
    await expect(transaction).rejects.toSatisfy(isConnectionLost);
    expect(isConnectionLost(lateInsert)).toBe(true);
    expect(await countWrites(note)).toBe(0);
    expect((await sql<{ one: number }>`select 1 as one`.execute(db)).rows).toEqual([{ one: 1 }]);
  });

  it("does not run a write twice when its connection is terminated; the held connection serves the next query", async () => {
    const { db } = handle;
    const note = `write-${appName}`;
    // A connection held across statements (Kysely's db.connection()), outside a transaction.
    const held = db.connection().execute(async (conn) => {
      const error = await sql`insert into ${writes()} (note) select ${note} from pg_sleep(2)`
        .execute(conn)
        .then(
          () => null,
          (e: unknown) => e,
        );
      await sleep(100);
      const { rows } = await sql<{
        n: number;
      }>`select count(*)::int as n from ${writes()} where note = ${note}`.execute(conn);
      return { error, count: rows[0]?.n };
    });
    held.catch(() => {});
    await waitForBackends((rows) =>
      rows.some((row) => row.state === "active" && row.query.includes("pg_sleep")),
    );
    await terminateAll();
    const { error, count } = await held;
    expect(isConnectionLost(error)).toBe(true);
    expect(count).toBe(0);
    // Give a (wrong) second run the time to finish.
    await sleep(2500);
    expect(await countWrites(note)).toBe(0);
    expect((await backends()).filter((row) => row.state === "active")).toEqual([]);
    expect(lostLines).toHaveLength(1);
  });

  it("keeps reads working while every connection is terminated three times in a row", async () => {
    const { db } = handle;
    const readers = 4;
    // Twice as many connections as readers: idle ones are terminated too, and a retry must not
    // pick one whose termination is still on its way.
    await Promise.all(Array.from({ length: 2 * readers }, () => sql`select pg_sleep(0.05)`.execute(db)));
    const failures: unknown[] = [];
    let reads = 0;
    let running = true;
    const loops = Array.from({ length: readers }, async (_, reader) => {
      while (running) {
        try {
          const { rows } = await sql<{
            reader: number;
          }>`select ${reader}::int as reader from pg_sleep(0.1)`.execute(db);
          expect(rows).toEqual([{ reader }]);
          reads++;
        } catch (error) {
          failures.push(error);
          return;
        }
      }
    });
    const terminated: number[] = [];
    for (let round = 0; round < 3 && failures.length === 0; round++) {
      await waitForBackends((rows) => rows.filter((row) => row.state === "active").length >= readers);
      terminated.push(...(await terminateAll({ atOnce: true })));
      await sleep(400);
    }
    running = false;
    await Promise.all(loops);
    expect(failures).toEqual([]);
    expect(terminated.length).toBeGreaterThanOrEqual(3 * readers);
    expect(reads).toBeGreaterThan(3 * readers);
    expect(lostLines.length).toBeGreaterThanOrEqual(3 * readers);
    expect(lostLines.length).toBeLessThanOrEqual(terminated.length);
  });
});
