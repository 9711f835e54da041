import { afterAll, beforeAll, expect, it } from "vitest";
import type { ChatHistoryEntry } from "../common/api";
import { describeEachDatabase } from "../server/testing/api";
import { ScriptedLlm } from "../server/testing/fake-llm";
import { addPresetCharacter, http, sendAllAtOnce, sendMessage, setUser, signIn } from "./support/fixtures";
import { type ListeningApp, startListening } from "./support/server";

/**
 * Swipes: every regeneration runs the model and counts one message. An attacker who
 * fires many regenerations of one reply at once over real connections gets one model run (the
 * entry's lease), is charged once, and the entry keeps a consistent list of swipes; at the
 * quota's limit none runs. Swipes, edits, deletes and rewinds are free and never run the model.
 */
describeEachDatabase("regenerations at once, and the free routes never run the model", (dialect) => {
  let t: ListeningApp;
  let runs = 0;
  const llm = new ScriptedLlm(async () => {
    runs += 1;
    // Long enough for the other requests to arrive while this one holds the entry, even on a
    // loaded machine (at 150 ms a late request could find the entry free and rightly run).
    await new Promise((resolve) => setTimeout(resolve, 1000));
    return `Version ${runs}.`;
  });
  beforeAll(async () => {
    t = await startListening({ dialect, llm });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  const count = async (userId: string) =>
    (
      await t.db.db
        .selectFrom("users")
        .select("chat_count")
        .where("id", "=", userId)
        .executeTakeFirstOrThrow()
    ).chat_count;
  const entryOf = async (token: string, chatId: string, id: string) =>
    (
      (await http(t.url, "GET", `/api/chat/history/paginated?id=${chatId}&limit=100`, { token })).json
        .data as ChatHistoryEntry[]
    ).find((e) => e.chatHistoryUUID === id)!;

  it("20 regenerations of one reply at once: one runs and is charged, the rest are refused", async () => {
    const user = await signIn(t.url);
    const chat = await addPresetCharacter(t.url, user.token, 0);
    const id = await sendMessage(t.url, user.token, chat, "tell me something");
    const before = await count(user.userId);
    const runsBefore = runs;
    const answers = await sendAllAtOnce(
      t.url,
      Array.from({ length: 20 }, () => ({
        method: "POST",
        target: "/api/chat/regenerate",
        token: user.token,
        form: { id, mute: "1" },
      })),
    );
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 400)).toHaveLength(19);
    for (const refused of answers.filter((a) => a.status === 400)) {
      expect(JSON.parse(refused.body.toString()).message).toBe("This reply is still being generated.");
    }
    expect(runs - runsBefore).toBe(1);
    expect(await count(user.userId)).toBe(before + 1);
    const entry = await entryOf(user.token, chat, id);
    expect(entry.chatHistorySwipes).toHaveLength(2);
    expect(entry.chatHistorySwipeIndex).toBe(1);
  });

  it("at the limit, regenerations at once are all refused with 429 and the model never runs; the free routes still work", async () => {
    const user = await signIn(t.url);
    const chat = await addPresetCharacter(t.url, user.token, 0);
    const first = await sendMessage(t.url, user.token, chat, "first words");
    const id = await sendMessage(t.url, user.token, chat, "second words");
    await http(t.url, "POST", "/api/chat/regenerate", { token: user.token, form: { id, mute: "1" } });
    await setUser(t, user.userId, { chat_count: 15 });
    t.caches.forgetAll();
    const runsBefore = runs;
    const answers = await sendAllAtOnce(
      t.url,
      Array.from({ length: 10 }, () => ({
        method: "POST",
        target: "/api/chat/regenerate",
        token: user.token,
        form: { id, mute: "1" },
      })),
    );
    // One may find the lease of another (400) before the quota refuses; none gets through.
    expect(answers.every((a) => a.status === 429 || a.status === 400)).toBe(true);
    expect(answers.some((a) => a.status === 429)).toBe(true);
    expect(runs).toBe(runsBefore);
    expect(await count(user.userId)).toBe(15);
    // Swipe, edit, delete and rewind cost nothing and run nothing.
    const free = [
      ["/api/chat/swipe", { id, index: "0" }],
      ["/api/chat/edit", { id, part: "reply", text: "My words." }],
      ["/api/chat/edit", { id: first, part: "message", text: "first words, edited" }],
      ["/api/chat/rewind", { id: first }],
      ["/api/chat/delete", { id: first }],
    ] as const;
    for (const [target, form] of free) {
      const answer = await http(t.url, "POST", target, { token: user.token, form });
      expect(answer.status, target).toBe(200);
    }
    expect(runs).toBe(runsBefore);
    expect(await count(user.userId)).toBe(15);
  });
});
