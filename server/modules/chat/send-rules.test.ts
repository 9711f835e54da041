import { afterAll, beforeAll, expect, it } from "vitest";
import type { ChatHistoryEntry } from "../../../common/api";
import { call, demoWithCharacter, describeEachDatabase } from "../../testing/api";
import { ScriptedLlm } from "../../testing/fake-llm";
import { createTestApp, type TestApp } from "../../testing/server";

describeEachDatabase("send rules under concurrency", (dialect) => {
  let t: TestApp;
  let calls = 0;
  const llm = new ScriptedLlm(async (request) => {
    // Count chat replies only, not the background memory work.
    if (request.messages[0]!.content.startsWith("You are")) calls += 1;
    await new Promise((r) => setTimeout(r, 30));
    return "Got it!";
  });
  beforeAll(async () => {
    t = await createTestApp({ dialect, llm });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  const send = (token: string, form: Record<string, string>) =>
    call(t.app, "POST", "/api/chat/message", { token, form });
  const history = async (token: string, id: string) =>
    (await call(t.app, "GET", `/api/chat/history/paginated?id=${id}&offset=0&limit=50`, { token })).body
      .data as ChatHistoryEntry[];

  it("20 parallel sends at 14 of 15: exactly one gets through, the count ends at 15", async () => {
    const s = await demoWithCharacter(t.app);
    await t.db.db.updateTable("users").set({ chat_count: 14 }).where("id", "=", s.userId).execute();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => send(s.token, { message: `parallel ${i}`, id: s.characterId })),
    );
    expect(results.filter((r) => r.body.success === 1)).toHaveLength(1);
    expect(results.filter((r) => r.status === 429)).toHaveLength(19);
    const user = await t.db.db
      .selectFrom("users")
      .select("chat_count")
      .where("id", "=", s.userId)
      .executeTakeFirstOrThrow();
    expect(user.chat_count).toBe(15);
    expect(
      (await history(s.token, s.characterId)).filter((e) => e.chatHistoryMessage.startsWith("parallel")),
    ).toHaveLength(1);
  });

  it("the same client message id sent twice, even at once, makes one entry and one model call", async () => {
    const s = await demoWithCharacter(t.app);
    calls = 0;
    const form = { message: "only once please", id: s.characterId, clientMessageId: "c-123e4567" };
    const [a, b] = await Promise.all([send(s.token, form), send(s.token, form)]);
    const again = await send(s.token, form);
    const entries = (await history(s.token, s.characterId)).filter(
      (e) => e.chatHistoryMessage === "only once please",
    );
    expect(entries).toHaveLength(1);
    expect(calls).toBe(1);
    for (const res of [a, b, again]) {
      expect((res.body.history as ChatHistoryEntry[])[0]!.chatHistoryUUID).toBe(entries[0]!.chatHistoryUUID);
    }
    expect(again.body).toMatchObject({ success: 1, text: "Got it!" });
    const user = await t.db.db
      .selectFrom("users")
      .select("chat_count")
      .where("id", "=", s.userId)
      .executeTakeFirstOrThrow();
    expect(user.chat_count).toBe(1);
    const bad = await send(s.token, { ...form, clientMessageId: "<script>" });
    expect(bad.status).toBe(400);
  });

  it("a monthly plan counts per UTC month, then uses add-on messages, then points to pricing", async () => {
    const s = await demoWithCharacter(t.app);
    const month = new Date().toISOString().slice(0, 7);
    await t.db.db
      .updateTable("users")
      .set({ quota_period: "month", chat_period: month, chat_limit: 3, chat_count: 2, extra_messages: 1 })
      .where("id", "=", s.userId)
      .execute();
    expect((await send(s.token, { message: "third of the month", id: s.characterId })).body.success).toBe(1);
    expect((await send(s.token, { message: "paid by the add-on", id: s.characterId })).body.success).toBe(1);
    const refused = await send(s.token, { message: "one too many", id: s.characterId });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      success: 0,
      message:
        "You have reached your limit of 3 messages for this month. Add 100 messages for $1.99 or upgrade your plan.",
      code: "quota_reached",
      page: "/pricing",
    });
    const user = await t.db.db
      .selectFrom("users")
      .select(["chat_count", "extra_messages"])
      .where("id", "=", s.userId)
      .executeTakeFirstOrThrow();
    expect(user).toEqual({ chat_count: 3, extra_messages: 0 });
  });

  it("starts a new count when the period changes (UTC day for the Free plan)", async () => {
    const s = await demoWithCharacter(t.app);
    await t.db.db
      .updateTable("users")
      .set({ chat_count: 15, chat_period: "2000-01-01" })
      .where("id", "=", s.userId)
      .execute();
    expect((await send(s.token, { message: "a new day", id: s.characterId })).body.success).toBe(1);
    const user = await t.db.db
      .selectFrom("users")
      .select(["chat_count", "chat_period"])
      .where("id", "=", s.userId)
      .executeTakeFirstOrThrow();
    expect(user).toEqual({ chat_count: 1, chat_period: new Date().toISOString().slice(0, 10) });
  });
});
