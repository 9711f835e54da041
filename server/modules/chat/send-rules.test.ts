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
});
