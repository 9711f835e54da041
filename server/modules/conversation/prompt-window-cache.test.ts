import { afterAll, beforeAll, expect, it } from "vitest";
import type { User } from "../../db/schema";
import { CacheGroup } from "../../db/short-cache";
import { demoWithCharacter, describeEachDatabase } from "../../testing/api";
import { createTestApp, type TestApp } from "../../testing/server";
import { QuotaRepo } from "../quota/quota.repo";
import { QuotaService } from "../quota/quota.service";
import { ChatsRepo } from "./chats.repo";
import { ChatsService } from "./chats.service";
import type { Conversation } from "./conversation";
import { HistoryRepo, newHistoryEntry } from "./history.repo";
import { HistoryService } from "./history.service";
import { replyPrompt } from "./reply-prompt";
import { VersionsRepo } from "./versions.repo";

/**
 * The prompt window kept per chat: what this process stores is appended without a
 * read, and what another writer stored (another instance, a picture job) is seen at the next
 * reply, because the cached window is checked against the history's two newest entries.
 */
describeEachDatabase("prompt window cache", (dialect) => {
  let t: TestApp;
  let repo: HistoryRepo;
  let conversation: Conversation;
  let quota: QuotaService;
  let reads = 0;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    repo = new HistoryRepo(t.db.db, new VersionsRepo(t.db.db));
    const read = repo.recentTexts.bind(repo);
    repo.recentTexts = (...args) => {
      reads += 1;
      return read(...args);
    };
    const caches = new CacheGroup();
    const chats = new ChatsService(new ChatsRepo(t.db.db), Date.now, caches);
    conversation = { chats, history: new HistoryService(repo, chats, Date.now, caches) };
    quota = new QuotaService(new QuotaRepo(t.db.db));
  });
  afterAll(async () => {
    await t?.dispose();
  });

  const model = { contextWindow: () => 8192, countTokens: (text: string) => Math.ceil(text.length / 4) };
  const userTurns = async (user: User, characterId: string) => {
    const chat = await conversation.chats.resolveChat(user, characterId);
    const session = await conversation.chats.session(user, chat);
    const prompt = await replyPrompt(conversation, {
      user,
      chat,
      session,
      character: chat.members[0]!,
      historyLimit: 40,
      model,
      replyTokens: 100,
    });
    return prompt.messages.filter((m) => m.role === "user" || m.role === "assistant").map((m) => m.content);
  };

  it("appends this process's entries and replies, and sees another writer's at once", async () => {
    const s = await demoWithCharacter(t.app);
    const user = await t.db.db
      .selectFrom("users")
      .selectAll()
      .where("id", "=", s.userId)
      .executeTakeFirstOrThrow();
    await t.db.db.updateTable("users").set({ chat_limit: 100 }).where("id", "=", s.userId).execute();
    const chat = await conversation.chats.resolveChat(user, s.characterId);
    const send = async (message: string, reply: string) => {
      const stored = await conversation.history.appendUserEntry(
        user,
        chat,
        { characterId: s.characterId, message },
        { take: (now, db) => quota.chargeMessage(user, now, db), giveBack: async () => {} },
      );
      if ("repeated" in stored) throw new Error("a new entry");
      await conversation.history.updateEntry(stored.entry.id, { reply_message: reply, status: "replied" });
    };

    await send("first words", "first reply");
    expect(await userTurns(user, s.characterId)).toEqual(
      expect.arrayContaining(["first words", "first reply"]),
    );
    const afterFirst = reads;
    await send("second words", "second reply");
    const turns = await userTurns(user, s.characterId);
    expect(turns.slice(-4)).toEqual(["first words", "first reply", "second words", "second reply"]);
    // Served from the window: no history read for the second reply.
    expect(reads).toBe(afterFirst);

    // Another instance stores an exchange: the newest entry is not the window's, so it is read.
    const session = await conversation.chats.session(user, chat);
    const elsewhere = {
      ...newHistoryEntry(session.id, s.characterId, "words from elsewhere", Date.now()),
      reply_message: "a reply from elsewhere",
      status: "replied",
    };
    await t.db.db.insertInto("chat_history").values(elsewhere).execute();
    expect((await userTurns(user, s.characterId)).slice(-2)).toEqual([
      "words from elsewhere",
      "a reply from elsewhere",
    ]);
    expect(reads).toBe(afterFirst + 1);

    // Another writer changes the newest reply (a picture job): seen too.
    await t.db.db
      .updateTable("chat_history")
      .set({ reply_message: "the reply as changed elsewhere" })
      .where("id", "=", elsewhere.id)
      .execute();
    expect((await userTurns(user, s.characterId)).at(-1)).toBe("the reply as changed elsewhere");

    // Another instance stores an exchange, then this process its own: the newest entry is this
    // process's (appended to the window), but the one before it is the other instance's, so the
    // window is read again instead of leaving it out (two instances behind a round robin).
    await userTurns(user, s.characterId);
    const between = {
      ...newHistoryEntry(session.id, s.characterId, "words in between", Date.now()),
      reply_message: "a reply in between",
      status: "replied",
    };
    await t.db.db.insertInto("chat_history").values(between).execute();
    await send("third words", "third reply");
    expect((await userTurns(user, s.characterId)).slice(-4)).toEqual([
      "words in between",
      "a reply in between",
      "third words",
      "third reply",
    ]);

    // New Chat empties the window.
    await conversation.history.clear(user, s.characterId);
    const cleared = await userTurns(user, s.characterId);
    expect(cleared).not.toContain("first words");
    expect(cleared).not.toContain("words from elsewhere");
  });
});
