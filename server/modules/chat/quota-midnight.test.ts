import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { openConversation } from "../../container/conversation";
import { MemoryJobQueue } from "../../jobs/memory-queue";
import { LocalStorage } from "../../providers/storage/local";
import { demoWithCharacter, describeEachDatabase } from "../../testing/api";
import { ScriptedLlm } from "../../testing/fake-llm";
import { createTestApp, type TestApp } from "../../testing/server";
import { MemoryRepo } from "../memory/memory.repo";
import { MemoryService } from "../memory/memory.service";
import { QuotaRepo } from "../quota/quota.repo";
import { QuotaService } from "../quota/quota.service";
import { ChatRepo } from "./chat.repo";
import { ChatService } from "./chat.service";
import { InspectionsRepo } from "./inspections.repo";
import { MemoryLiveReplies } from "./live-replies";

/**
 * A quota rule with the service's clock: a reply reserved at 23:59:59 UTC whose model fails
 * after 00:00 gives its message back to the day it was charged to; the new day's count (a
 * message sent after midnight while the first was still being answered) is untouched.
 */
describeEachDatabase("a failed reply across midnight", (dialect) => {
  let t: TestApp;
  let clock = 0;
  let chat: ChatService;
  let onModel: () => Promise<string> = async () => "Hello!";
  const llm = new ScriptedLlm(async (request) => {
    if (!request.messages[0]!.content.startsWith("You are")) return "[]";
    return onModel();
  });

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    const db = t.db.db;
    const quota = new QuotaService(new QuotaRepo(db));
    chat = new ChatService(
      new ChatRepo(db, new InspectionsRepo(db)),
      openConversation(db, { now: () => clock }),
      quota,
      llm,
      { maxReplyTokens: 64, temperature: 0.7, timeoutMs: 5000 },
      new MemoryService(new MemoryRepo(db), llm, new MemoryJobQueue(() => {}), () => clock),
      new LocalStorage(path.join(t.dataDir, "content")),
      new MemoryLiveReplies(),
      () => clock,
    );
  });
  afterAll(async () => {
    await t?.dispose();
  });

  const userRow = (userId: string) =>
    t.db.db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirstOrThrow();

  it("reserved at 23:59:59, failed after 00:00: refunded to the old day, the new day's count untouched", async () => {
    const s = await demoWithCharacter(t.app);
    await t.db.db
      .updateTable("users")
      .set({ chat_period: "2026-11-23", chat_count: 7 })
      .where("id", "=", s.userId)
      .execute();
    clock = Date.parse("2026-11-23T23:59:59Z");
    onModel = async () => {
      // The model answers slowly: midnight passes, and the user sends another message meanwhile.
      clock = Date.parse("2026-11-24T00:00:05Z");
      onModel = async () => "Good morning!";
      const later = await chat.sendMessage(await userRow(s.userId), {
        message: "after midnight",
        chatId: s.characterId,
        characterId: "",
      });
      expect(later.success).toBe(true);
      throw new Error("the model fell over");
    };
    const failed = await chat.sendMessage(await userRow(s.userId), {
      message: "before midnight",
      chatId: s.characterId,
      characterId: "",
    });
    expect(failed.success).toBe(false);
    expect(await userRow(s.userId)).toMatchObject({ chat_period: "2026-11-24", chat_count: 1 });
  });

  it("a failure within the same day gives the message back to that day", async () => {
    const s = await demoWithCharacter(t.app);
    clock = Date.parse("2026-11-23T12:00:00Z");
    await t.db.db
      .updateTable("users")
      .set({ chat_period: "2026-11-23", chat_count: 7 })
      .where("id", "=", s.userId)
      .execute();
    onModel = async () => {
      throw new Error("the model fell over");
    };
    const failed = await chat.sendMessage(await userRow(s.userId), {
      message: "hello?",
      chatId: s.characterId,
      characterId: "",
    });
    expect(failed.success).toBe(false);
    expect(await userRow(s.userId)).toMatchObject({ chat_period: "2026-11-23", chat_count: 7 });
  });
});
