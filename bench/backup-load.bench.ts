import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { randomBytes, randomUUID } from "node:crypto";
import { once } from "node:events";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import SQLite from "better-sqlite3";
import pg from "pg";
import { demoChatUser, demoSession } from "../e2e/support/demo";
import { openBackup } from "../server/modules/backups/read-backup";
import { percentile } from "./support/measure";
import { postgresUrl } from "./support/postgres";
import { type EngineData, engineData, type RunningServer, requireBuild, startServer } from "./support/server";
import { multipartBody } from "./support/stream-client";

/**
 * Backups under load (run by `npm run bench`): does "Back up now" while people chat lose a
 * message or slow their sends? The compiled server (`dist/server/main.js`, production settings,
 * rate limits and speech off, scheduled backups off) runs over a database filled first with
 * BENCH_ENTRIES (30 000) stored exchanges (direct inserts, the search and recall indexes written
 * by their triggers) in the chats of 50 other demo users, and BENCH_FILES_MB (16) of stored
 * files (random bytes, as pictures and audio are) in its content folder, so that a backup takes
 * seconds. Behind it the model double of the open loop (`support/slow-model.mjs`) streams each
 * reply for about a second (the first token after 200 ms, then 32 tokens 25 ms apart).
 * 20 demo users each send a streamed message (POST /api/chat/message, multipart as the SPA, with
 * its own client message id) at fixed times 1.5-2.5 s apart (an open loop: about 10 sends a
 * second whatever the server's speed). After a 5 s warm-up, BENCH_SECONDS (20) of baseline, then
 * at least as long with backups running back to back through the admin API (POST
 * /api/admin/backups by an admin demo user, GET polled every 100 ms for its end), on SQLite and,
 * when one answers, on PostgreSQL (a scratch database). Printed per period:
 * - send: ms from sending to the answer's head, which leaves with the `entry` event once the
 *   message is stored (what the person waits for before their message shows as sent), p50 / p95 /
 *   p99; and time to first token (the model's own 200 ms included), p50 / p99;
 * - the server's longest event-loop stall (its /metrics `nodejs_eventloop_lag_max_seconds`);
 * then each backup's duration and archive size, the p99 send the backups added, and the
 * messages lost: every send answered with `entry` must be in the database afterwards (by its
 * client message id), and every one answered before the last backup began must be in that
 * archive (opened and checked as restore does; on PostgreSQL the dump's chat_history rows read
 * with pg_restore). Sends that failed (an `error` event, no `done`) are counted apart.
 * Targets (PASS/FAIL lines, exit code 0 always: it is a measurement): the backups add at most
 * 100 ms to the p99 send; no message lost.
 * A backup still running BACKUP_CAP × BENCH_SECONDS after the first began stops the load (the
 * sends while it ran are measured) and is waited for; the delay target then fails.
 * BENCH_ENGINES (sqlite,postgres), BENCH_SECONDS, BENCH_ENTRIES, BENCH_FILES_MB; BENCH_SERVER_ENTRY
 * and BENCH_SERVER_LOG as in support/server.ts; BENCH_LAG_TRACE=1 prints each second's longest
 * event-loop stall over 50 ms (its scrapes reset the figure, so the periods' own then mean little).
 */

const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const ENTRIES = Number(process.env.BENCH_ENTRIES ?? 30_000);
const FILES_MB = Number(process.env.BENCH_FILES_MB ?? 16);
const USERS = 20;
/** The users whose chats hold the stored exchanges (ENTRIES ÷ this each). */
const BULK_USERS = 50;
const WARM_UP_MS = 5000;
/** Each user's sends are this far apart, ± GAP_JITTER_MS (uniform). */
const GAP_MS = 2000;
const GAP_JITTER_MS = 500;
/** The backups go on at most this many times BENCH_SECONDS; one still running then is waited for with the load off. */
const BACKUP_CAP = 2;
const MODEL = { MODEL_FIRST_MS: "200", MODEL_TOKENS: "32", MODEL_GAP_MS: "25" };
const TARGET_ADDED_P99_MS = 100;

/** One send, times in ms of performance.now(). */
interface Send {
  user: number;
  clientMessageId: string;
  startedAt: number;
  /** ms to the answer's head (the `entry` event), NaN when none came. */
  head: number;
  /** ms to the first `token` event, NaN when none came. */
  firstToken: number;
  /** Whether the `entry` event came: the message was stored. */
  entry: boolean;
  /** When `entry` came (performance.now()), NaN when it did not. */
  entryAt: number;
  error?: string;
}

interface Client {
  token: string;
  characterId: string;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });
const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : "-");
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** POSTs one streamed chat message and reads the answer to its end. */
function send(base: string, client: Client, user: number, text: string): Promise<Send> {
  const clientMessageId = randomUUID();
  const form = multipartBody({
    message: text,
    id: client.characterId,
    cId: client.characterId,
    mute: "1",
    time: new Date().toISOString(),
    clientMessageId,
    stream: "1",
  });
  const startedAt = performance.now();
  const result: Send = {
    user,
    clientMessageId,
    startedAt,
    head: Number.NaN,
    firstToken: Number.NaN,
    entry: false,
    entryAt: Number.NaN,
  };
  return new Promise((resolve) => {
    const request = http.request(
      `${base}/api/chat/message`,
      {
        method: "POST",
        agent,
        headers: {
          authorization: `Bearer ${client.token}`,
          accept: "text/event-stream",
          "content-type": form.contentType,
          "content-length": form.body.length,
        },
      },
      (response) => {
        result.head = performance.now() - startedAt;
        response.setEncoding("utf8");
        if (response.statusCode !== 200) result.error = `HTTP ${response.statusCode}`;
        let text = "";
        let done = false;
        response.on("data", (chunk: string) => {
          text += chunk;
          const now = performance.now();
          if (!result.entry && text.includes("event: entry")) {
            result.entry = true;
            result.entryAt = now;
          }
          if (Number.isNaN(result.firstToken) && text.includes("event: token"))
            result.firstToken = now - startedAt;
          if (!done && text.includes("event: done")) done = true;
          if (!result.error && text.includes("event: error")) {
            const at = text.indexOf("event: error");
            result.error = text.slice(at, at + 200);
          }
        });
        response.on("error", (cause) => {
          result.error ??= cause.message;
        });
        response.on("close", () => {
          if (response.statusCode !== 200) result.error = `HTTP ${response.statusCode} ${text.slice(0, 160)}`;
          if (!done) result.error ??= "no done";
          resolve(result);
        });
      },
    );
    request.on("error", (cause) => {
      result.error ??= cause.message;
      resolve(result);
    });
    request.end(form.body);
  });
}

async function startModel(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, "support/slow-model.mjs")], {
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, ...MODEL },
  });
  for await (const line of createInterface({ input: child.stdout! })) {
    const match = /^PORT (\d+)/.exec(line);
    if (match) {
      child.stdout!.resume();
      return { url: `http://127.0.0.1:${match[1]}/v1`, child };
    }
  }
  throw new Error("the model double did not start");
}

const WORDS =
  `the a we you I it my your our this that today yesterday tomorrow morning evening night week weekend
  coffee tea walk park river city train bus work office meeting project deadline email call friend
  sister brother mother father dog cat garden book movie song music guitar piano concert dinner lunch
  breakfast recipe pasta soup bread cake rain sun snow wind cloud beach mountain trip holiday plane
  hotel museum painting photo camera phone laptop game puzzle chess football tennis swim run gym
  tired happy sad excited nervous calm busy quiet loud funny strange lovely terrible great small big
  remember think feel want need like love hate hope wish plan try start finish learn teach read write
  cook bake clean visit meet talk laugh cry sleep dream wake travel drive ride paint sing dance play`
    .split(/\s+/)
    .filter(Boolean);

/** A sentence-like string of `min`..`max` random words. */
function words(min: number, max: number): string {
  const n = min + Math.floor(Math.random() * (max - min + 1));
  return Array.from({ length: n }, () => WORDS[Math.floor(Math.random() * WORDS.length)]).join(" ");
}

/** The stored exchanges' rows: [id, session, character, message, sendTime, reply, replyTime, seq]. */
type BulkRow = [string, string, string, string, number, string, number, number];

function bulkRows(sessions: Array<{ id: string; characterId: string }>, perSession: number): BulkRow[][] {
  const start = Date.now() - 90 * 86_400_000;
  return sessions.map((session) =>
    Array.from({ length: perSession }, (_unused, i): BulkRow => {
      const sendTime = start + i * 600_000 + Math.floor(Math.random() * 60_000);
      return [
        randomUUID(),
        session.id,
        session.characterId,
        words(8, 50),
        sendTime,
        words(30, 140),
        sendTime + 2000,
        sendTime * 1000 + i,
      ];
    }),
  );
}

const BULK_COLUMNS =
  "id, session_id, character_id, message, message_image, send_time, reply_message, reply_image, reply_audio_url, reply_time, image_loading, status, error, seq";

/** Writes the stored exchanges and the sessions they belong to, straight into the database (server stopped). */
async function fillDatabase(data: EngineData, bulk: Client[]): Promise<void> {
  const perSession = Math.ceil(ENTRIES / bulk.length);
  const now = Date.now();
  if (!data.databaseUrl) {
    const db = new SQLite(path.join(data.dataDir, "app.db"));
    const session = db.prepare(
      `insert into chat_sessions (id, user_id, chat_key, is_group, summary, greeted, created_at, updated_at)
       select ?, user_id, id, 0, '', 1, ?, ? from characters
       where id = ? and not exists (select 1 from chat_sessions s where s.chat_key = characters.id)`,
    );
    const sessionOf = db.prepare("select id from chat_sessions where chat_key = ?");
    const sessions = bulk.map((c) => {
      session.run(randomUUID(), now, now, c.characterId);
      return { id: (sessionOf.get(c.characterId) as { id: string }).id, characterId: c.characterId };
    });
    const insert = db.prepare(
      `insert into chat_history (${BULK_COLUMNS}) values (?, ?, ?, ?, '', ?, ?, '', '', ?, 0, 'replied', '', ?)`,
    );
    const all = db.transaction((rows: BulkRow[]) => {
      for (const row of rows) insert.run(...row);
    });
    for (const rows of bulkRows(sessions, perSession)) all(rows);
    db.pragma("wal_checkpoint(TRUNCATE)");
    db.close();
    return;
  }
  const client = new pg.Client({ connectionString: data.databaseUrl });
  await client.connect();
  try {
    const sessions: Array<{ id: string; characterId: string }> = [];
    for (const c of bulk) {
      await client.query(
        `insert into chat_sessions (id, user_id, chat_key, is_group, summary, greeted, created_at, updated_at)
         select $1, user_id, id, 0, '', 1, $2, $2 from characters
         where id = $3 and not exists (select 1 from chat_sessions s where s.chat_key = characters.id)`,
        [randomUUID(), now, c.characterId],
      );
      const { rows } = await client.query<{ id: string }>(
        "select id from chat_sessions where chat_key = $1",
        [c.characterId],
      );
      sessions.push({ id: rows[0]!.id, characterId: c.characterId });
    }
    for (const rows of bulkRows(sessions, perSession)) {
      const columns = rows[0]!.map((_unused, i) => rows.map((row) => row[i]));
      await client.query(
        `insert into chat_history (${BULK_COLUMNS})
         select id, session_id, character_id, message, '', send_time, reply_message, '', '', reply_time, 0, 'replied', '', seq
         from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::bigint[], $8::bigint[])
           as t(id, session_id, character_id, message, send_time, reply_message, reply_time, seq)`,
        columns,
      );
    }
    await client.query("vacuum analyze chat_history");
  } finally {
    await client.end();
  }
}

/** Writes FILES_MB of random bytes in 64 KB files into the content folder (what pictures and audio weigh). */
function fillContent(dataDir: string): void {
  const dir = path.join(dataDir, "content", "bench-files");
  fs.mkdirSync(dir, { recursive: true });
  const count = Math.round((FILES_MB * 1024) / 64);
  for (let i = 0; i < count; i++) fs.writeFileSync(path.join(dir, `${i}.jpg`), randomBytes(64 * 1024));
}

/** Where a database is: a SQLite file or a PostgreSQL URL. */
type Target = { file: string } | { url: string };

function targetOf(data: EngineData): Target {
  return data.databaseUrl ? { url: data.databaseUrl } : { file: path.join(data.dataDir, "app.db") };
}

/** Runs one statement (`$1`-style parameters) on `target`. @returns its rows ([] for a write). */
async function runSql<T>(target: Target, query: string, params: unknown[] = []): Promise<T[]> {
  if ("file" in target) {
    const db = new SQLite(target.file);
    try {
      const statement = db.prepare(query.replace(/\$\d+/g, "?"));
      if (statement.reader) return statement.all(...params) as T[];
      statement.run(...params);
      return [];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  try {
    return (await client.query(query, params)).rows as T[];
  } finally {
    await client.end();
  }
}

/** The database's size in MB (the SQLite file with its WAL; PostgreSQL's pg_database_size). */
async function databaseMb(data: EngineData): Promise<number> {
  if (!data.databaseUrl) {
    const file = path.join(data.dataDir, "app.db");
    const wal = fs.statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0;
    return (fs.statSync(file).size + wal) / 1024 / 1024;
  }
  const [row] = await runSql<{ size: string }>(
    targetOf(data),
    "select pg_database_size(current_database()) as size",
  );
  return Number(row!.size) / 1024 / 1024;
}

async function adminApi<T>(base: string, token: string, method: "GET" | "POST"): Promise<T> {
  const answer = await fetch(`${base}/api/admin/backups`, {
    method,
    headers: { authorization: `Bearer ${token}` },
  });
  const envelope = (await answer.json()) as { success: number; message: string; data: T };
  if (envelope.success !== 1) throw new Error(`${method} /api/admin/backups: ${envelope.message}`);
  return envelope.data;
}

interface BackupsStatus {
  backups: Array<{ name: string; createdAt: number; size: number }>;
  running: boolean;
  lastFailure: { at: number; message: string } | null;
}

/** One backup run through the admin API. */
interface BackupRun {
  /** performance.now() at the POST and when the poll saw it end. */
  startedAt: number;
  endedAt: number;
  name?: string;
  size?: number;
  failure?: string;
  /** Whether it was still running when the load stopped. */
  outlasted: boolean;
}

/** The server's longest event-loop stall since the previous scrape, ms (prom-client resets it on each scrape). */
async function loopLagMaxMs(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const match = /^companion_nodejs_eventloop_lag_max_seconds\s+([\d.e+-]+)/m.exec(text);
  return match ? Number(match[1]) * 1000 : Number.NaN;
}

function stats(sends: Send[]): {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  t50: number;
  t99: number;
} {
  const heads = sends.filter((s) => !Number.isNaN(s.head)).map((s) => s.head);
  const tokens = sends.filter((s) => !Number.isNaN(s.firstToken)).map((s) => s.firstToken);
  return {
    n: sends.length,
    p50: percentile(heads, 50),
    p95: percentile(heads, 95),
    p99: percentile(heads, 99),
    t50: percentile(tokens, 50),
    t99: percentile(tokens, 99),
  };
}

/** Which of `ids` (client message ids) the database at `target` holds in chat_history. */
async function storedIds(target: Target, ids: string[]): Promise<Set<string>> {
  const rows = await runSql<{ id: string }>(
    target,
    "select client_message_id as id from chat_history where client_message_id <> ''",
  );
  const found = new Set(rows.map((row) => row.id));
  return new Set(ids.filter((id) => found.has(id)));
}

/**
 * The chat_history rows of a pg_dump custom-format file, read with `pg_restore --data-only` to
 * standard output (its COPY block) rather than restored into a database.
 * @returns each row's client message id.
 */
async function dumpedHistory(dump: string): Promise<string[]> {
  const child = spawn("pg_restore", ["--data-only", "--table=chat_history", "--file=-", dump], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const ids: string[] = [];
  let column = -1;
  for await (const line of createInterface({ input: child.stdout! })) {
    if (column < 0) {
      const copy = /^COPY (?:\w+\.)?chat_history \(([^)]*)\) FROM stdin;$/.exec(line);
      if (copy) column = copy[1]!.split(", ").indexOf("client_message_id");
    } else if (line === "\\.") column = Number.POSITIVE_INFINITY;
    else if (Number.isFinite(column)) ids.push(line.split("\t")[column]!);
  }
  const [code] = await once(child, "close");
  if (code !== 0 || column < 0) throw new Error(`pg_restore could not read chat_history from ${dump}`);
  return ids;
}

/**
 * Opens the archive as restore does (every entry checked against the manifest's checksums) and
 * counts which of `ids` its database copy holds (SQLite: the copy opened; PostgreSQL: the dump's
 * chat_history rows as pg_restore reads them).
 * @returns the ids found, the copy's chat_history rows and the manifest's count of them.
 */
async function archiveHolds(
  file: string,
  ids: string[],
): Promise<{ found: Set<string>; rows: number; manifestRows: number; ms: number }> {
  const started = performance.now();
  const dest = fs.mkdtempSync(path.join(os.tmpdir(), "backup-load-open-"));
  try {
    const manifest = await openBackup(file, dest, "");
    const manifestRows = manifest.database.rowCounts.chat_history ?? Number.NaN;
    const copy = path.join(dest, manifest.database.entry);
    const held =
      manifest.database.engine === "postgres"
        ? await dumpedHistory(copy)
        : (
            await runSql<{ id: string }>({ file: copy }, "select client_message_id as id from chat_history")
          ).map((row) => row.id);
    const present = new Set(held);
    const found = new Set(ids.filter((id) => present.has(id)));
    return { found, rows: held.length, manifestRows, ms: performance.now() - started };
  } finally {
    fs.rmSync(dest, { recursive: true, force: true });
  }
}

async function runEngine(engine: string, modelUrl: string, pgBase: string | undefined): Promise<void> {
  const data = await engineData("backup-load-", pgBase);
  const env = { ...data.env(modelUrl), BACKUP_SCHEDULE: "off", BACKUP_KEEP: "3" };
  let server: RunningServer | undefined;
  try {
    const prepared = performance.now();
    const setup = await startServer(env);
    const clients: Client[] = [];
    const bulk: Client[] = [];
    let admin: { token: string; id: string };
    try {
      const session = await demoSession(setup.base);
      admin = { token: session.token, id: session.user.id };
      for (let i = 0; i < USERS + BULK_USERS; i += 10) {
        const made = await Promise.all(Array.from({ length: 10 }, () => demoChatUser(setup.base)));
        for (const c of made) (clients.length < USERS ? clients : bulk).push(c);
      }
    } finally {
      await setup.stop();
    }
    const usersMade = performance.now();
    await fillDatabase(data, bulk);
    fillContent(data.dataDir);
    await runSql(targetOf(data), "update users set role = 'admin' where id = $1", [admin.id]);
    await data.liftLimits();
    const dbMb = await databaseMb(data);
    console.log(
      `\n${engine}: ${ENTRIES} stored exchanges (${fixed(dbMb, 0)} MB of database) and ${FILES_MB} MB of stored files, written in ${fixed((performance.now() - usersMade) / 1000)} s (the users in ${fixed((usersMade - prepared) / 1000)} s); ${USERS} users, a message each every ${GAP_MS / 1000} ± ${GAP_JITTER_MS / 1000} s, replies streamed for about 1 s`,
    );

    // What the filling wrote reaches the disk first: the server's own fsyncs would wait for it.
    execFileSync("sync");
    server = await startServer(env);
    const base = server.base;
    if (process.env.BENCH_LAG_TRACE) {
      const traceFrom = performance.now();
      const trace = setInterval(async () => {
        const lag = await loopLagMaxMs(base).catch(() => Number.NaN);
        if (lag > 50)
          console.log(
            `  [t=${fixed((performance.now() - traceFrom) / 1000)} s] event-loop stall ${fixed(lag, 0)} ms`,
          );
      }, 1000);
      server.child.once("exit", () => clearInterval(trace));
    }
    const sends: Send[] = [];
    const pending: Promise<void>[] = [];
    let stopped = false;
    const loops = clients.map(async (client, user) => {
      let at = performance.now() + Math.random() * GAP_MS;
      let n = 0;
      while (!stopped) {
        await sleep(at - performance.now());
        if (stopped) break;
        n += 1;
        pending.push(
          send(base, client, user, `${words(4, 16)} (message ${n} of user ${user})`.slice(-150)).then((s) => {
            sends.push(s);
          }),
        );
        at += GAP_MS - GAP_JITTER_MS + Math.random() * 2 * GAP_JITTER_MS;
      }
    });

    await sleep(WARM_UP_MS);
    const loadBefore = os.loadavg()[0]!;
    await loopLagMaxMs(base);
    const baselineFrom = performance.now();
    await sleep(SECONDS * 1000);
    const baselineTo = performance.now();
    const baselineLag = await loopLagMaxMs(base);

    const runs: BackupRun[] = [];
    const backupFrom = performance.now();
    const capAt = backupFrom + BACKUP_CAP * SECONDS * 1000;
    let current: BackupRun | undefined;
    while (performance.now() - backupFrom < SECONDS * 1000 && performance.now() < capAt) {
      const before = await adminApi<BackupsStatus>(base, admin.token, "GET");
      current = { startedAt: performance.now(), endedAt: Number.NaN, outlasted: false };
      await adminApi<BackupsStatus>(base, admin.token, "POST");
      runs.push(current);
      let status: BackupsStatus;
      do {
        await sleep(100);
        status = await adminApi<BackupsStatus>(base, admin.token, "GET");
        if (!stopped && performance.now() >= capAt) {
          stopped = true;
          current.outlasted = true;
        }
      } while (status.running);
      current.endedAt = performance.now();
      const newest = status.backups[0];
      if (newest && newest.name !== before.backups[0]?.name) {
        current.name = newest.name;
        current.size = newest.size;
      } else current.failure = status.lastFailure?.message ?? "no archive";
      if (stopped) break;
    }
    const backupLag = await loopLagMaxMs(base);
    stopped = true;
    const load = os.loadavg()[0]!;
    await Promise.all(loops);
    await Promise.all(pending);

    const inBaseline = sends.filter((s) => s.startedAt >= baselineFrom && s.startedAt < baselineTo);
    const inBackup = sends.filter((s) =>
      runs.some(
        (r) =>
          s.startedAt >= r.startedAt && s.startedAt < (r.outlasted ? Number.POSITIVE_INFINITY : r.endedAt),
      ),
    );
    const b = stats(inBaseline);
    const d = stats(inBackup);
    console.log(
      `load average (1 min) at the start and at the end: ${fixed(loadBefore, 2)}, ${fixed(load, 2)}`,
    );
    console.log(
      "period                       | sends | send p50 / p95 / p99 ms   | first token p50 / p99 ms | longest event-loop stall",
    );
    for (const [label, s, lag] of [
      ["baseline, no backup", b, baselineLag],
      ["while a backup runs", d, backupLag],
    ] as const) {
      console.log(
        `${label.padEnd(28)} | ${String(s.n).padStart(5)} | ${`${fixed(s.p50)} / ${fixed(s.p95)} / ${fixed(s.p99)}`.padStart(25)} | ${`${fixed(s.t50)} / ${fixed(s.t99)}`.padStart(24)} | ${fixed(lag, 0)} ms`,
      );
    }
    for (const [i, run] of runs.entries()) {
      const seconds = (run.endedAt - run.startedAt) / 1000;
      console.log(
        `backup ${i + 1}: ${fixed(seconds, 2)} s${run.outlasted ? ` (still running when the load stopped after ${BACKUP_CAP * SECONDS} s; ended ${fixed((run.endedAt - capAt) / 1000)} s later)` : ""}, ${
          run.size !== undefined
            ? `${fixed(run.size / 1024 / 1024, 1)} MB (${run.name})`
            : `FAILED: ${run.failure}`
        }`,
      );
    }
    const added = d.p99 - b.p99;
    const outlasted = runs.some((r) => r.outlasted);
    const delayOk = Number.isFinite(added) && added <= TARGET_ADDED_P99_MS && !outlasted;
    console.log(
      `p99 send added by the backups: ${fixed(added)} ms (target <= ${TARGET_ADDED_P99_MS} ms) ${delayOk ? "PASS" : "FAIL"}${
        outlasted ? ` (no backup finished within ${BACKUP_CAP * SECONDS} s of load)` : ""
      }`,
    );

    await server.stop();
    const all = sends.filter((s) => s.startedAt >= baselineFrom);
    const accepted = all.filter((s) => s.entry);
    const failed = all.filter((s) => s.error);
    const stored = await storedIds(
      targetOf(data),
      accepted.map((s) => s.clientMessageId),
    );
    const lost = accepted.length - stored.size;
    console.log(
      `sends: ${all.length} (${accepted.length} answered with entry, ${failed.length} failed${
        failed.length > 0 ? `: ${[...new Set(failed.map((s) => s.error))].slice(0, 3).join("; ")}` : ""
      }); in the database afterwards: ${stored.size}, lost ${lost}`,
    );
    let archiveLost = 0;
    const last = runs.findLast((r) => r.name);
    if (last?.name) {
      const before = accepted.filter((s) => s.entryAt < last.startedAt);
      const held = await archiveHolds(
        path.join(data.dataDir, "backups", last.name),
        before.map((s) => s.clientMessageId),
      );
      archiveLost = before.length - held.found.size;
      console.log(
        `last archive (opened and checked${data.databaseUrl ? ", the dump read by pg_restore" : ""} in ${fixed(held.ms / 1000)} s): ${held.found.size} of the ${before.length} messages stored before it began, lost ${archiveLost}; chat_history ${held.rows} rows, manifest ${held.manifestRows}${
          held.rows === held.manifestRows ? "" : " MISMATCH"
        }`,
      );
    }
    const noLoss = lost === 0 && archiveLost === 0 && last !== undefined;
    console.log(`messages lost: ${lost + archiveLost} ${noLoss ? "PASS" : "FAIL"}`);
  } finally {
    await data.dispose(server);
  }
}

requireBuild();
const engines = process.env.BENCH_ENGINES ?? "sqlite,postgres";
const model = await startModel();
try {
  if (engines.includes("sqlite")) await runEngine("SQLite", model.url, undefined);
  if (engines.includes("postgres")) {
    const pgBase = await postgresUrl();
    if (pgBase) await runEngine("PostgreSQL", model.url, pgBase);
    else console.log("\nPostgreSQL: skipped (no server answers: BENCH_DATABASE_URL, TEST_DATABASE_URL)");
  }
} finally {
  model.child.kill("SIGTERM");
  agent.destroy();
}
