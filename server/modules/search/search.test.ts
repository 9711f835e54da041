import { randomUUID } from "node:crypto";
import { type Kysely, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SearchHit } from "../../../common/search";
import { migrateToLatest } from "../../db/migrations";
import { call, demoWithCharacter, describeEachDatabase } from "../../testing/api";
import { createTestApp, type TestApp } from "../../testing/server";
import { AccountRepo } from "../account/account.repo";
import { HistoryRepo, newHistoryEntry } from "../conversation/history.repo";
import { VersionsRepo } from "../conversation/versions.repo";
import { ftsMatch, parseMarked, searchTerms, tsQuery } from "./search.query";

describe("search query text", () => {
  it("keeps only words, so no query syntax reaches the database", () => {
    expect(searchTerms('"Hello" *world* -NEAR(a b) col:x OR')).toEqual([
      "hello",
      "world",
      "near",
      "a",
      "b",
      "col",
      "x",
      "or",
    ]);
    expect(searchTerms("*:-\"'()")).toEqual([]);
    expect(searchTerms("Käse café")).toEqual(["käse", "café"]);
    expect(ftsMatch(["a", 'b"c'])).toBe('"a"* "b""c"*');
    expect(tsQuery(["a", "b'c"])).toBe("'a':* & 'b''c':*");
  });

  it("turns a marked snippet into plain text and offsets", () => {
    expect(parseMarked("say \u0002hello\u0003 to \u0002you\u0003")).toEqual({
      snippet: "say hello to you",
      marks: [
        [4, 9],
        [13, 16],
      ],
    });
    expect(parseMarked("<b>\u0002x")).toEqual({ snippet: "<b>x", marks: [] });
  });
});

describeEachDatabase("message search", (dialect) => {
  let t: TestApp;
  let repo: HistoryRepo;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
    repo = new HistoryRepo(t.db.db, new VersionsRepo(t.db.db));
  });
  afterAll(async () => {
    await t?.dispose();
  });

  /** A user with a character and a chat of `texts` exchanges ([message, reply]), oldest first. */
  async function chatWith(texts: Array<[string, string]>) {
    const user = await demoWithCharacter(t.app);
    const opened = await call(t.app, "GET", `/api/chat/history?id=${user.characterId}`, {
      token: user.token,
    });
    expect(opened.status).toBe(200);
    const session = await t.db.db
      .selectFrom("chat_sessions")
      .select("id")
      .where("user_id", "=", user.userId)
      .where("chat_key", "=", user.characterId)
      .executeTakeFirstOrThrow();
    const ids: string[] = [];
    let at = Date.now();
    for (const [message, reply] of texts) {
      const entry = newHistoryEntry(session.id, user.characterId, message, at++);
      entry.reply_message = reply;
      entry.status = "replied";
      entry.reply_time = at;
      await repo.insertEntry(entry);
      ids.push(entry.id);
    }
    return { ...user, sessionId: session.id, ids };
  }

  const search = async (token: string, q: string, chat?: string) => {
    const query = new URLSearchParams({ q, ...(chat === undefined ? {} : { chat }) });
    return call(t.app, "GET", `/api/search?${query}`, { token });
  };
  const hits = async (token: string, q: string, chat?: string) => {
    const answer = await search(token, q, chat);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.data as SearchHit[];
  };

  it("finds the user's words and the replies, newest first, the match marked", async () => {
    const u = await chatWith([
      ["I adopted a kitten named Pumpkin", "What a lovely name for a kitten!"],
      ["The weather is grey", "Grey days call for tea."],
      ["Pumpkin climbed the curtains", "Kittens love heights."],
    ]);
    const found = await hits(u.token, "pumpkin");
    expect(found.map((hit) => [hit.entryId, hit.side])).toEqual([
      [u.ids[2], "user"],
      [u.ids[0], "user"],
    ]);
    const first = found[1]!;
    expect(first.chatId).toBe(u.characterId);
    expect(first.isGroup).toBe(false);
    expect(first.newer).toBe(2);
    expect(first.characterName).not.toBe("");
    const [start, end] = first.marks[0]!;
    expect(first.snippet.slice(start, end)).toBe("Pumpkin");
    // A word prefix matches, in replies too; case is ignored.
    const kitten = await hits(u.token, "KITT");
    expect(kitten.map((hit) => hit.side).sort()).toEqual(["reply", "reply", "user"]);
    // Every word must be there.
    expect(new Set((await hits(u.token, "grey tea")).map((hit) => hit.entryId))).toEqual(new Set([u.ids[1]]));
    // Within one chat.
    expect(await hits(u.token, "pumpkin", u.characterId)).toHaveLength(2);
  });

  it("never finds another user's messages, and refuses another user's chat", async () => {
    const owner = await chatWith([["my secret word is zanzibar", "Noted."]]);
    const other = await chatWith([["hello", "hi"]]);
    expect(await hits(owner.token, "zanzibar")).toHaveLength(1);
    expect(await hits(other.token, "zanzibar")).toEqual([]);
    const foreign = await search(other.token, "zanzibar", owner.characterId);
    expect(foreign.status).toBe(404);
  });

  it("takes any text: quotes, operators and symbols never fail; bounds the length", async () => {
    const u = await chatWith([['she said "near" me: ok-ish * yes', "fine"]]);
    for (const q of [
      '"near',
      "NEAR(she me)",
      "ok-ish",
      "me:",
      "*",
      "-",
      '"',
      "a OR b",
      "col:near",
      "(",
      "'",
      "\\",
      "½ ʰ 〇",
      "naïve Ünïcödé",
    ]) {
      const answer = await search(u.token, q);
      expect(answer.status, `${q}: ${JSON.stringify(answer.body)}`).toBe(200);
    }
    expect(await hits(u.token, '"near')).toHaveLength(1);
    expect(await hits(u.token, "ok-ish")).toHaveLength(1);
    expect((await search(u.token, "")).status).toBe(400);
    expect((await search(u.token, "x".repeat(201))).status).toBe(400);
    expect((await search(u.token, "x".repeat(200))).status).toBe(200);
    expect((await call(t.app, "GET", "/api/search?q=near")).status).toBe(401);
  });

  it("indexes the messages stored before the index existed", async () => {
    const u = await chatWith([["an old message about a walrus", "Walruses are big."]]);
    const db = t.db.db as unknown as Kysely<unknown>;
    if (dialect === "sqlite") {
      for (const trigger of ["insert", "update", "delete"]) {
        await sql`drop trigger ${sql.ref(`message_search_${trigger}`)}`.execute(db);
      }
      await sql`drop table message_search`.execute(db);
      await sql`drop table message_search_rows`.execute(db);
    } else {
      await sql`drop index chat_history_search`.execute(db);
    }
    await sql`delete from kysely_migration where name = '0033_message_search'`.execute(db);
    await migrateToLatest(db);
    expect((await hits(u.token, "walrus")).map((hit) => hit.side).sort()).toEqual(["reply", "user"]);
  });

  it("stays in step with edits, swipes, deletes, rewinds and erasure", async () => {
    const u = await chatWith([
      ["first about apples", "apples are red"],
      ["second about bananas", "bananas are yellow"],
      ["third about cherries", "cherries are sweet"],
    ]);
    const [apples, bananas, cherries] = u.ids as [string, string, string];
    // Edit the user's message and the reply.
    await repo.versions.editEntry({ id: apples, swipe_index: 0 }, { message: "first about melons" });
    expect(await hits(u.token, "apples")).toEqual([
      expect.objectContaining({ entryId: apples, side: "reply" }),
    ]);
    await repo.versions.editEntry({ id: apples, swipe_index: 0 }, { reply_message: "melons are green" });
    expect(await hits(u.token, "apples")).toEqual([]);
    expect((await hits(u.token, "melons")).map((hit) => hit.side).sort()).toEqual(["reply", "user"]);
    // A swipe: only the shown reply is found.
    await repo.versions.addSwipe(
      bananas,
      { reply_message: "plantains instead", reply_time: Date.now(), status: "replied" },
      5,
    );
    expect(await hits(u.token, "yellow")).toEqual([]);
    expect(await hits(u.token, "plantains")).toHaveLength(1);
    await repo.versions.chooseSwipe(bananas, 0);
    expect(await hits(u.token, "plantains")).toEqual([]);
    expect(await hits(u.token, "yellow")).toHaveLength(1);
    // Delete, then rewind (the entries after one go).
    await repo.deleteEntries(u.sessionId, [cherries]);
    expect(await hits(u.token, "cherries")).toEqual([]);
    const after = await repo.entriesAfter(u.sessionId, 0);
    await repo.deleteEntries(
      u.sessionId,
      after.filter((entry) => entry.id === bananas).map((entry) => entry.id),
    );
    expect(await hits(u.token, "bananas")).toEqual([]);
    expect(await hits(u.token, "melons")).toHaveLength(2);
    // Erasing the account leaves nothing in the index.
    const user = await t.db.db
      .selectFrom("users")
      .select(["id", "email", "picture"])
      .where("id", "=", u.userId)
      .executeTakeFirstOrThrow();
    await new AccountRepo(t.db.db).eraseUser(user, { id: randomUUID(), createdAt: Date.now() });
    if (dialect === "sqlite") {
      const left = await t.db.db
        .selectFrom("message_search_rows" as never)
        .select((eb) => eb.fn.countAll().as("n"))
        .where("entry_id" as never, "in", [apples, bananas] as never)
        .executeTakeFirstOrThrow();
      expect(Number((left as { n: number }).n)).toBe(0);
      const copies = await sql<{ n: number }>`select count(*) as n from message_search
        where message_search match ${'"melons"'}`.execute(t.db.db);
      expect(Number(copies.rows[0]!.n)).toBe(0);
    }
  });
});
