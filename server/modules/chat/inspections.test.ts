import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { MessageReply } from "../../../common/api";
import type { PromptInspection } from "../../../common/prompt-inspection";
import { call, callMultipart, demoLogin, describeEachDatabase } from "../../testing/api";
import { ScriptedLlm } from "../../testing/fake-llm";
import { createTestApp, type TestApp } from "../../testing/server";
import { boundedInspection, InspectionsRepo } from "./inspections.repo";

/**
 * The prompt inspector: each reply keeps what its prompt was made of (GET /api/chat/prompt),
 * for its owner only, and it goes with the message (delete, rewind, New Chat, the character).
 */

const card = {
  spec: "chara_card_v2",
  spec_version: "2.0",
  data: {
    name: "Ysolde",
    description: "Ysolde is the queen of the floating islands.",
    first_mes: "Welcome to my court.",
    character_book: {
      entries: [
        { name: "Eldoria", keys: [], content: "Eldoria floats.", constant: true, position: "before_char" },
        { name: "Amulet", keys: ["amulet"], content: "The amulet was stolen." },
        { name: "Dragons", keys: ["dragon"], content: "Dragons are extinct." },
      ],
    },
  },
};

describeEachDatabase("prompt inspector", (dialect) => {
  let t: TestApp;
  const llm = new ScriptedLlm(() => "Indeed.");
  beforeAll(async () => {
    t = await createTestApp({ dialect, llm });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  async function importCard(token: string): Promise<string> {
    const imported = await callMultipart(t.app, "/api/characters/import", {
      token,
      files: { card: { bytes: Buffer.from(JSON.stringify(card)), filename: "card.json" } },
    });
    return (imported.body.data as { characterUUID: string }).characterUUID;
  }
  async function chatWithLore() {
    const { token } = await demoLogin(t.app);
    return { token, id: await importCard(token) };
  }
  async function say(token: string, id: string, message: string): Promise<string> {
    const sent = await callMultipart(t.app, "/api/chat/message", { token, fields: { id, message } });
    expect(sent.status).toBe(200);
    return (sent.body as unknown as MessageReply).history![0]!.chatHistoryUUID;
  }
  const inspect = (token: string | undefined, query: string) =>
    call(t.app, "GET", `/api/chat/prompt?${query}`, { token });
  const stored = async (entryIds: string[]) =>
    (
      await t.db.db
        .selectFrom("prompt_inspections")
        .select("entry_id")
        .where("entry_id", "in", entryIds)
        .execute()
    ).length;

  it("answers the parts of the reply's prompt, adding up to its tokens, and the lorebook entry fired", async () => {
    const { token, id } = await chatWithLore();
    const entry = await say(token, id, "Who took the amulet?");
    const res = await inspect(token, `id=${entry}`);
    expect(res.status).toBe(200);
    const inspection = (res.body as unknown as { inspection: PromptInspection }).inspection;
    expect(inspection.parts.reduce((n, p) => n + p.tokens, 0)).toBe(inspection.promptTokens);
    expect(inspection.contextWindow).toBe(4096);
    expect(inspection.promptTokens).toBeLessThanOrEqual(inspection.contextWindow - inspection.replyTokens);
    expect(inspection.parts.map((p) => p.kind)).toContain("lore_triggered");
    expect(inspection.lore).toEqual([
      { name: "Eldoria", place: "system" },
      { name: "Amulet", place: "note", key: "amulet", foundIn: "message", messageFromEnd: 0 },
    ]);
    expect(inspection.history).toEqual({ exchanges: 2, kept: 2 });

    // A greeting was written by no prompt.
    const greeting = (await call(t.app, "GET", `/api/chat/history/paginated?id=${id}`, { token })).body
      .data as Array<{ chatHistoryUUID: string }>;
    const none = await inspect(token, `id=${greeting[0]!.chatHistoryUUID}`);
    expect(none.body).toMatchObject({ success: 1, inspection: null });
  });

  it("keeps one inspection per version of a regenerated reply; the chosen one by default", async () => {
    const { token, id } = await chatWithLore();
    const entry = await say(token, id, "Hello there");
    const regenerated = await call(t.app, "POST", "/api/chat/regenerate", { token, form: { id: entry } });
    expect(regenerated.body.success).toBe(1);
    const first = (await inspect(token, `id=${entry}&index=0`)).body.inspection as PromptInspection;
    const second = (await inspect(token, `id=${entry}&index=1`)).body.inspection as PromptInspection;
    const chosen = (await inspect(token, `id=${entry}`)).body.inspection as PromptInspection;
    expect(first).not.toBeNull();
    expect(second).not.toBeNull();
    expect(chosen).toEqual(second);
    expect((await inspect(token, `id=${entry}&index=5`)).body.inspection).toBeNull();
  });

  it("keeps theirs for a group's replies and for a continued reply", async () => {
    const { token, id } = await chatWithLore();
    const second = await importCard(token);
    const group = await call(t.app, "GET", `/api/chat/group/new?cId=${id}`, { token });
    const groupId = group.body.page!.split("/").pop()!;
    await call(t.app, "GET", `/api/chat/group/member/add?gId=${groupId}&cId=${second}`, { token });
    const turn = await call(t.app, "POST", "/api/chat/group/reply", {
      token,
      form: { message: "Hi all", id: groupId },
    });
    const entries = turn.body.history as Array<{ chatHistoryUUID: string }>;
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries) {
      const inspection = (await inspect(token, `id=${entry.chatHistoryUUID}`)).body
        .inspection as PromptInspection;
      expect(inspection.parts.map((p) => p.kind)).toContain("group");
      expect(inspection.parts.reduce((n, p) => n + p.tokens, 0)).toBe(inspection.promptTokens);
    }

    const entry = await say(token, id, "Tell me more");
    const before = (await inspect(token, `id=${entry}`)).body.inspection as PromptInspection;
    const continued = await call(t.app, "POST", "/api/chat/continue-message", { token, form: { id: entry } });
    expect(continued.body.success).toBe(1);
    const after = (await inspect(token, `id=${entry}`)).body.inspection as PromptInspection;
    // The continuation's prompt carries the reply so far: more tokens than the first run's.
    expect(after.promptTokens).toBeGreaterThan(before.promptTokens);
  });

  it("answers 404 for another user's reply, 400 for a bad id, 401 without a token", async () => {
    const { token, id } = await chatWithLore();
    const entry = await say(token, id, "A secret about the amulet");
    const other = await demoLogin(t.app);
    const stolen = await inspect(other.token, `id=${entry}`);
    expect(stolen.status).toBe(404);
    expect(stolen.body.message).toBe("Message not found.");
    expect(JSON.stringify(stolen.body)).not.toContain("amulet");
    expect((await inspect(other.token, `id=${randomUUID()}`)).status).toBe(404);
    expect((await inspect(token, "id=not-an-id")).status).toBe(400);
    expect((await inspect(token, `id=${entry}&index=-1`)).status).toBe(400);
    expect((await inspect(undefined, `id=${entry}`)).status).toBe(401);
  });

  it("goes with the message: delete, rewind, New Chat and the character's deletion", async () => {
    const { token, id } = await chatWithLore();
    const one = await say(token, id, "one");
    const two = await say(token, id, "two");
    const three = await say(token, id, "three");
    expect(await stored([one, two, three])).toBe(3);
    await call(t.app, "POST", "/api/chat/delete", { token, form: { id: three } });
    expect(await stored([one, two, three])).toBe(2);
    await call(t.app, "POST", "/api/chat/rewind", { token, form: { id: one } });
    expect(await stored([one, two])).toBe(1);
    await call(t.app, "GET", `/api/chat/new?id=${id}`, { token });
    expect(await stored([one])).toBe(0);

    const four = await say(token, id, "four");
    expect(await stored([four])).toBe(1);
    // A user's only character is not deleted: a second one first.
    await importCard(token);
    const deleted = await call(t.app, "DELETE", `/api/characters/delete/?id=${id}`, { token });
    expect(deleted.status).toBe(200);
    expect(await stored([four])).toBe(0);
  });

  it("stores one row per reply version, a second save replacing it, and none for an entry gone", async () => {
    const { token, id } = await chatWithLore();
    const entry = await say(token, id, "one");
    const repo = new InspectionsRepo(t.db.db);
    const inspection = (promptTokens: number): PromptInspection => ({
      parts: [{ kind: "history", tokens: promptTokens }],
      promptTokens,
      contextWindow: 4096,
      replyTokens: 256,
      history: { exchanges: 1, kept: 1 },
      lore: [],
      memory: { settledFacts: 0, recentFacts: 0, summaryChars: 0 },
    });
    await repo.save(entry, 3, inspection(7), 1_000);
    await repo.save(entry, 3, inspection(9), 2_000);
    expect((await repo.find(entry, 3))?.promptTokens).toBe(9);
    const rows = await t.db.db
      .selectFrom("prompt_inspections")
      .select(["swipe_index", "created_at"])
      .where("entry_id", "=", entry)
      .where("swipe_index", "=", 3)
      .execute();
    expect(rows.map((row) => [row.swipe_index, Number(row.created_at)])).toEqual([[3, 2_000]]);
    const gone = randomUUID();
    await repo.save(gone, 0, inspection(5), 3_000);
    expect(await stored([gone])).toBe(0);
  });

  it("bounds the stored inspection, keeping the counts", () => {
    const inspection: PromptInspection = {
      parts: [{ kind: "history", tokens: 12 }],
      promptTokens: 12,
      contextWindow: 4096,
      replyTokens: 256,
      history: { exchanges: 1, kept: 1 },
      lore: Array.from({ length: 200 }, (_, i) => ({
        name: `entry ${i} ${"x".repeat(70)}`,
        place: "note" as const,
        key: "k".repeat(100),
      })),
      memory: { settledFacts: 0, recentFacts: 0, summaryChars: 0 },
    };
    const json = boundedInspection(inspection, 8000);
    expect(json.length).toBeLessThanOrEqual(8000);
    const back = JSON.parse(json) as PromptInspection;
    expect(back.truncated).toBe(true);
    expect(back.promptTokens).toBe(12);
    expect(back.lore.length).toBeGreaterThan(0);
    expect(back.lore[0]!.key!.length).toBeLessThanOrEqual(40);
  });

  it("bounds recall's messages: long texts cut, then messages left out from the end", () => {
    const message = (i: number) => ({
      entryId: `e${i}`,
      side: "user" as const,
      time: i,
      speaker: "Guest",
      text: `${i} ${"y".repeat(5000)}`,
      tokens: 1250,
      why: "match" as const,
      terms: ["y"],
      by: ["words" as const],
    });
    const inspection: PromptInspection = {
      parts: [{ kind: "recalled", tokens: 50_000 }],
      promptTokens: 50_000,
      contextWindow: 131_072,
      replyTokens: 256,
      history: { exchanges: 1, kept: 1 },
      lore: [],
      memory: { settledFacts: 0, recentFacts: 0, summaryChars: 0 },
      recall: {
        enabled: true,
        query: ["y"],
        budget: 32_000,
        ms: 3,
        messages: Array.from({ length: 400 }, (_, i) => message(i)),
      },
    };
    const json = boundedInspection(inspection, 16_000);
    expect(json.length).toBeLessThanOrEqual(16_000);
    const back = JSON.parse(json) as PromptInspection;
    expect(back.recall!.messages.length).toBeGreaterThan(0);
    expect(back.recall!.messages.length).toBeLessThan(400);
    expect(back.recall!.messages[0]!.text.length).toBeLessThanOrEqual(300);
    expect(back.recall!.messages[0]!.entryId).toBe("e0");
    expect(back.recall!.budget).toBe(32_000);
  });
});
