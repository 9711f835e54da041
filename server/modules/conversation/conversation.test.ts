import { afterAll, beforeAll, expect, it } from "vitest";
import { FIRST_MESSAGE_MARKER } from "../../../common/constants";
import { openConversation } from "../../container/conversation";
import type { User } from "../../db/schema";
import { AppError } from "../../errors";
import { demoLogin, demoWithCharacter, describeEachDatabase } from "../../testing/api";
import { createTestApp, type TestApp } from "../../testing/server";
import { QuotaRepo } from "../quota/quota.repo";
import { QuotaService, type Reservation } from "../quota/quota.service";
import { SESSION_TOUCH_MS } from "./chats.service";
import type { Conversation } from "./conversation";
import type { EntryCharge } from "./history.service";

/**
 * The one place a user's entry is stored: the same rules whoever stores it (a chat
 * message, a picture request, a photo), on SQLite and PostgreSQL.
 */
describeEachDatabase("conversation", (dialect) => {
  let t: TestApp;
  let conversation: Conversation;
  let quota: QuotaService;

  beforeAll(async () => {
    t = await createTestApp({ dialect });
    conversation = openConversation(t.db.db);
    quota = new QuotaService(new QuotaRepo(t.db.db));
  });
  /** One message of the quota, as the chat's send path charges it. */
  const message = (user: User): EntryCharge<Reservation> => ({
    take: (now, db) => quota.chargeMessage(user, now, db),
    giveBack: (charge) => quota.refundMessage(user.id, charge),
  });
  afterAll(async () => {
    await t?.dispose();
  });

  const userRow = (userId: string): Promise<User> =>
    t.db.db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirstOrThrow();
  const entries = async (userId: string) => {
    const user = await userRow(userId);
    return conversation.history.historyPage(user, "", 0, 100);
  };

  it("resolves the user's character, refuses another's with 404, and asks for a character when none", async () => {
    const a = await demoWithCharacter(t.app);
    const b = await demoWithCharacter(t.app);
    const chat = await conversation.chats.resolveChat(await userRow(a.userId), a.characterId);
    expect(chat).toMatchObject({ chatKey: a.characterId, groupId: "" });
    expect(chat.members.map((m) => m.id)).toEqual([a.characterId]);
    await expect(
      conversation.chats.resolveChat(await userRow(a.userId), b.characterId),
    ).rejects.toMatchObject({
      status: 404,
    });
    const none = await demoLogin(t.app);
    await expect(conversation.chats.resolveChat(await userRow(none.userId), "")).rejects.toMatchObject({
      code: "no_character",
    });
  });

  it("stores the greeting first, charges one message, and answers a repeated client id with the first entry", async () => {
    const s = await demoWithCharacter(t.app);
    const user = await userRow(s.userId);
    const chat = await conversation.chats.resolveChat(user, s.characterId);
    const input = { characterId: s.characterId, message: "hello there", clientMessageId: "c-1" };
    const first = await conversation.history.appendUserEntry(user, chat, input, message(user));
    if ("repeated" in first) throw new Error("the first send is new");
    const again = await conversation.history.appendUserEntry(
      await userRow(s.userId),
      chat,
      input,
      message(user),
    );
    expect(again).toEqual({ repeated: expect.objectContaining({ id: first.entry.id }) });
    const rows = await entries(s.userId);
    expect(rows.map((r) => r.message)).toEqual([FIRST_MESSAGE_MARKER, "hello there"]);
    expect((await userRow(s.userId)).chat_count).toBe(user.chat_count + 1);
  });

  it("gives the message back when storing fails, and refuses the reserved marker and refused content before charging", async () => {
    const s = await demoWithCharacter(t.app);
    const user = await userRow(s.userId);
    const chat = await conversation.chats.resolveChat(user, s.characterId);
    const failing = conversation.history.appendUserEntry(
      user,
      chat,
      {
        characterId: s.characterId,
        message: "a photo",
        store: async () => {
          throw new Error("disk full");
        },
      },
      message(user),
    );
    await expect(failing).rejects.toThrow("disk full");
    expect((await userRow(s.userId)).chat_count).toBe(user.chat_count);
    const marker = conversation.history.appendUserEntry(
      user,
      chat,
      {
        characterId: s.characterId,
        message: FIRST_MESSAGE_MARKER,
      },
      message(user),
    );
    await expect(marker).rejects.toBeInstanceOf(AppError);
    expect((await userRow(s.userId)).chat_count).toBe(user.chat_count);
  });

  it("refuses a user who has not confirmed their age (product.md §5) before anything is stored", async () => {
    const s = await demoWithCharacter(t.app);
    await t.db.db.updateTable("users").set({ adult_confirmed_at: null }).where("id", "=", s.userId).execute();
    const user = await userRow(s.userId);
    const chat = await conversation.chats.resolveChat(user, s.characterId);
    await expect(
      conversation.history.appendUserEntry(
        user,
        chat,
        { characterId: s.characterId, message: "hi" },
        message(user),
      ),
    ).rejects.toMatchObject({ status: 403 });
  });

  it("stores the entry, its reservation and the session's time in one transaction; the limit stores nothing", async () => {
    const s = await demoWithCharacter(t.app);
    await t.db.db.updateTable("users").set({ chat_limit: 1 }).where("id", "=", s.userId).execute();
    const user = await userRow(s.userId);
    const chat = await conversation.chats.resolveChat(user, s.characterId);
    const input = { characterId: s.characterId, message: "first words" };
    await conversation.history.appendUserEntry(user, chat, input, message(user));
    const refused = conversation.history.appendUserEntry(
      await userRow(s.userId),
      chat,
      { ...input, message: "no" },
      message(user),
    );
    await expect(refused).rejects.toMatchObject({ status: 429 });
    expect((await entries(s.userId)).map((r) => r.message)).toEqual([FIRST_MESSAGE_MARKER, "first words"]);
    expect((await userRow(s.userId)).chat_count).toBe(1);
  });

  it("records a session's last use at most once a minute", async () => {
    let clock = Date.UTC(2026, 10, 23, 12);
    const clocked = openConversation(t.db.db, { now: () => clock });
    const s = await demoWithCharacter(t.app);
    await t.db.db.updateTable("users").set({ chat_limit: 100 }).where("id", "=", s.userId).execute();
    const user = await userRow(s.userId);
    const chat = await clocked.chats.resolveChat(user, s.characterId);
    const send = () =>
      clocked.history.appendUserEntry(
        user,
        chat,
        { characterId: s.characterId, message: "hi" },
        message(user),
      );
    const usedAt = async () =>
      (
        await t.db.db
          .selectFrom("chat_sessions")
          .select("updated_at")
          .where("user_id", "=", s.userId)
          .where("chat_key", "=", s.characterId)
          .executeTakeFirstOrThrow()
      ).updated_at;
    await send();
    const first = clock;
    expect(await usedAt()).toBe(first);
    clock += SESSION_TOUCH_MS - 1;
    await send();
    expect(await usedAt()).toBe(first);
    clock += 1;
    await send();
    expect(await usedAt()).toBe(clock);
  });
});
