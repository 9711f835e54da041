// Recall by meaning over HTTP on both databases: embeddings kept by the background job, fused with the word search, dropped on edit and delete, off by default, a failing model harmless; and the ranker on the tiny real GGUF.

import { randomUUID } from "node:crypto";
import fs from "node:fs";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { MessageReply } from "../../../common/api";
import { FIRST_MESSAGE_MARKER } from "../../../common/constants";
import type { PromptInspectionReply } from "../../../common/prompt-inspection";
import { LlamaEmbedder } from "../../providers/embeddings/llama";
import { call, callMultipart, demoWithCharacter, describeEachDatabase } from "../../testing/api";
import { type EmbeddingsDouble, startEmbeddingsDouble } from "../../testing/embeddings-server";
import { ScriptedLlm } from "../../testing/fake-llm";
import { createTestApp, type TestApp, TINY_MODEL_PATH } from "../../testing/server";
import { EMBED_BATCH, QUERY_EMBED_TIMEOUT_MS, RecallVectors } from "./recall-vectors";

/**
 * The double's vector of a text by meaning: one dimension per topic, counting the text's words of
 * that topic, and a small constant one (no text gets a zero vector). "my pet" and "a dog called
 * Rex" share no word but point the same way; small talk about the rain points elsewhere.
 */
const TOPICS = [
  ["dog", "rex", "pet", "puppy", "cat", "animal"],
  ["rain", "weather", "sunny", "cloud"],
  ["grandmother", "garden", "porto"],
];
function meaningVector(text: string): number[] {
  const words = text.toLowerCase().match(/\p{L}+/gu) ?? [];
  return [...TOPICS.map((topic) => words.filter((w) => topic.includes(w)).length), 0.1];
}

const hasModel = fs.existsSync(TINY_MODEL_PATH);
if (!hasModel)
  console.warn(
    `SKIPPED recall ranker on the GGUF: ${TINY_MODEL_PATH} not found (../shared/models is missing).`,
  );

describeEachDatabase("recall by meaning: embeddings fused with the word search", (dialect) => {
  let t: TestApp;
  let plain: TestApp;
  let double: EmbeddingsDouble;
  const llm = new ScriptedLlm(() => "Okay!", 900);
  const plainLlm = new ScriptedLlm(() => "Okay!", 900);
  beforeAll(async () => {
    double = await startEmbeddingsDouble({ vectorOf: meaningVector });
    t = await createTestApp({
      dialect,
      llm,
      env: { EMBEDDING_BASE_URL: double.baseUrl, EMBEDDING_MODEL: "topics" },
    });
    plain = await createTestApp({ dialect, llm: plainLlm });
  });
  afterAll(async () => {
    await t?.dispose();
    await plain?.dispose();
    await double?.close();
  });

  const say = async (app: TestApp, token: string, chatId: string, message: string) => {
    const res = await call(app.app, "POST", "/api/chat/message", { token, form: { message, id: chatId } });
    expect(res.body.success).toBe(1);
    return (res.body as unknown as MessageReply).history![0]!.chatHistoryUUID;
  };
  /** A chat holding the dog, then the grandmother's `word`, then small talk that pushes both out of the window. */
  const chat = async (app: TestApp, word: string) => {
    const s = await demoWithCharacter(app.app);
    await app.db.db.updateTable("users").set({ chat_limit: 1000 }).where("id", "=", s.userId).execute();
    const dog = await say(app, s.token, s.characterId, "I have a dog called Rex.");
    const garden = await say(
      app,
      s.token,
      s.characterId,
      `My grandmother grew ${word} in her garden in Porto.`,
    );
    for (let i = 0; i < 8; i++)
      await say(app, s.token, s.characterId, `Small talk ${i} about the rain today.`);
    return { ...s, dog, garden };
  };
  /** Asks, then reads the new entry's prompt (its newest message) and the inspector's recalled messages. */
  const ask = async (
    app: TestApp,
    from: ScriptedLlm,
    s: { token: string; characterId: string },
    text: string,
  ) => {
    const entry = await say(app, s.token, s.characterId, text);
    const request = from.requests.findLast((r) => r.messages[0]!.content.startsWith("You are"))!;
    const inspection = (await call(app.app, "GET", `/api/chat/prompt?id=${entry}`, { token: s.token }))
      .body as unknown as PromptInspectionReply;
    return { newest: request.messages.at(-1)!.content, recall: inspection.inspection!.recall! };
  };
  const vectorsOf = async (app: TestApp, entryId: string) =>
    (
      await sql<{
        side: number;
      }>`select side from message_vectors where entry_id = ${entryId} order by side`.execute(app.db.db)
    ).rows.map((r) => Number(r.side));
  const unique = () => `zq${randomUUID().replaceAll("-", "").slice(0, 10)}`;

  it("recalls a message that shares no word with the question, found by meaning, beside one found by words", async () => {
    const word = unique();
    const s = await chat(t, word);
    await t.jobs.idle();
    expect(await vectorsOf(t, s.dog)).toEqual([0, 1]);
    const { newest, recall } = await ask(t, llm, s, `Tell me about my beloved pet and the ${word} again.`);
    expect(newest).toContain("I have a dog called Rex.");
    expect(newest).toContain(`grew ${word} in her garden`);
    const dog = recall.messages.find((m) => m.entryId === s.dog && m.side === "user")!;
    expect(dog).toMatchObject({ why: "match", by: ["meaning"] });
    const garden = recall.messages.find((m) => m.entryId === s.garden && m.side === "user")!;
    expect(garden.why).toBe("match");
    expect(garden.by).toContain("words");
  });

  it("drops the vector of an edited message (the reply's stays) and embeds the new text later", async () => {
    const s = await demoWithCharacter(t.app);
    const entry = await say(t, s.token, s.characterId, "I have a dog called Rex.");
    await t.jobs.idle();
    expect(await vectorsOf(t, entry)).toEqual([0, 1]);
    const edited = await call(t.app, "POST", "/api/chat/edit", {
      token: s.token,
      form: { id: entry, part: "message", text: "I have a cat called Tom." },
    });
    expect(edited.body.success).toBe(1);
    expect(await vectorsOf(t, entry)).toEqual([1]);
    await say(t, s.token, s.characterId, "Anything new?");
    await t.jobs.idle();
    expect(await vectorsOf(t, entry)).toEqual([0, 1]);
    expect(double.calls.some((c) => c.input.includes("I have a cat called Tom."))).toBe(true);
  });

  it("embeds an imported chat a batch per job, until every side has its vector", async () => {
    const s = await demoWithCharacter(t.app);
    const line = (isUser: boolean, mes: string, minute: number) => ({
      name: isUser ? "Ada" : "Mira",
      is_user: isUser,
      is_system: false,
      send_date: `May 8, 2023 1:${String(minute % 60).padStart(2, "0")}pm`,
      mes,
      extra: {},
    });
    const exchanges = 100;
    const lines = Array.from({ length: exchanges }, (_, i) => [
      line(true, `Question ${i} about the weather.`, i),
      line(false, `Answer ${i}: sunny.`, i),
    ]).flat();
    const header = {
      user_name: "Ada",
      character_name: "Mira",
      create_date: "2023-05-08@13h56m00s",
      chat_metadata: {},
    };
    const file = Buffer.from(`${[header, ...lines].map((v) => JSON.stringify(v)).join("\n")}\n`);
    const imported = await callMultipart(t.app, "/api/chat/import", {
      token: s.token,
      fields: { id: s.characterId },
      files: { file: { bytes: file, filename: "chat.jsonl" } },
    });
    expect(imported.status).toBe(200);
    const entry = await say(t, s.token, s.characterId, "And today?");
    await t.jobs.idle();
    const { rows } = await sql<{ sides: number | string; vectors: number | string }>`select
        (select count(*) from chat_history where session_id = h.session_id and message <> ''
          and message <> ${FIRST_MESSAGE_MARKER}) +
        (select count(*) from chat_history where session_id = h.session_id and reply_message <> '') as sides,
        (select count(*) from message_vectors v join chat_history e on e.id = v.entry_id
          where e.session_id = h.session_id) as vectors
      from chat_history h where h.id = ${entry}`.execute(t.db.db);
    expect(Number(rows[0]!.sides)).toBeGreaterThan(3 * EMBED_BATCH);
    expect(Number(rows[0]!.vectors)).toBe(Number(rows[0]!.sides));
    for (const c of double.calls) expect(c.input.length).toBeLessThanOrEqual(EMBED_BATCH);
  });

  it("drops the vectors of a deleted entry", async () => {
    const s = await demoWithCharacter(t.app);
    const entry = await say(t, s.token, s.characterId, "I have a dog called Rex.");
    await t.jobs.idle();
    expect(await vectorsOf(t, entry)).toEqual([0, 1]);
    const deleted = await call(t.app, "POST", "/api/chat/delete", { token: s.token, form: { id: entry } });
    expect(deleted.body.success).toBe(1);
    expect(await vectorsOf(t, entry)).toEqual([]);
  });

  it("keeps recalling by words when the embedding model fails", async () => {
    const word = unique();
    double.behaviour.failWith = 500;
    try {
      const s = await chat(t, word);
      const calls = double.calls.length;
      const { newest, recall } = await ask(t, llm, s, `Tell me about my beloved pet and the ${word} again.`);
      expect(double.calls.length).toBeGreaterThan(calls);
      expect(newest).toContain(`grew ${word} in her garden`);
      expect(newest).not.toContain("I have a dog called Rex.");
      for (const m of recall.messages) expect(m.by).not.toContain("meaning");
    } finally {
      double.behaviour.failWith = undefined;
    }
  });

  it("stops waiting for a model that never answers the query after QUERY_EMBED_TIMEOUT_MS", async () => {
    const never = { id: "never", embed: () => new Promise<Float32Array[]>(() => {}), close: async () => {} };
    const started = performance.now();
    await expect(new RecallVectors(plain.db, never).rank(randomUUID(), "my pet", 10)).rejects.toThrow();
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(QUERY_EMBED_TIMEOUT_MS - 50);
    expect(waited).toBeLessThan(QUERY_EMBED_TIMEOUT_MS + 2000);
  });

  it("is off by default: nothing stored, recall by words only", async () => {
    const word = unique();
    const s = await chat(plain, word);
    await plain.jobs.idle();
    const { newest, recall } = await ask(
      plain,
      plainLlm,
      s,
      `Tell me about my beloved pet and the ${word} again.`,
    );
    await plain.jobs.idle();
    expect(newest).toContain(`grew ${word} in her garden`);
    expect(newest).not.toContain("I have a dog called Rex.");
    const matches = recall.messages.filter((m) => m.why === "match");
    expect(matches.length).toBeGreaterThan(0);
    for (const m of recall.messages) expect(m.by).toEqual(m.why === "match" ? ["words"] : []);
    const { rows } = await sql<{ n: number | string }>`select count(*) as n from message_vectors`.execute(
      plain.db.db,
    );
    expect(Number(rows[0]!.n)).toBe(0);
  });

  it.skipIf(!hasModel)(
    "ranks a session's sides with the tiny real GGUF, never another session's",
    async () => {
      const embedder = new LlamaEmbedder({
        modelPath: TINY_MODEL_PATH,
        threads: 1,
        gpu: "off",
        contextTokens: 128,
      });
      try {
        const vectors = new RecallVectors(plain.db, embedder);
        const sessionOf = async (entryId: string) =>
          (
            await plain.db.db
              .selectFrom("chat_history")
              .select("session_id")
              .where("id", "=", entryId)
              .executeTakeFirstOrThrow()
          ).session_id;
        const a = await demoWithCharacter(plain.app);
        const b = await demoWithCharacter(plain.app);
        const aEntries = [
          await say(plain, a.token, a.characterId, "Once upon a time there was a little girl."),
          await say(plain, a.token, a.characterId, "She liked to play in the park."),
        ];
        const bEntry = await say(plain, b.token, b.characterId, "The cat sat on the mat.");
        const aSession = await sessionOf(aEntries[0]!);
        const bSession = await sessionOf(bEntry);
        const first = await vectors.embedPending(aSession, 3);
        expect(first).toEqual({ embedded: 3, more: true });
        const rest = await vectors.embedPending(aSession, 64);
        expect(rest.more).toBe(false);
        expect(await vectors.embedPending(aSession, 64)).toEqual({ embedded: 0, more: false });
        await vectors.embedPending(bSession, 64);
        const ranked = await vectors.rank(aSession, "a girl in the park", 80);
        expect(ranked.length).toBe(first.embedded + rest.embedded);
        const aIds = new Set(
          (
            await plain.db.db
              .selectFrom("chat_history")
              .select("id")
              .where("session_id", "=", aSession)
              .execute()
          ).map((r) => r.id),
        );
        for (const side of ranked) expect(aIds.has(side.entryId)).toBe(true);
        for (const id of aEntries)
          expect(ranked.some((r) => r.entryId === id && r.side === "user")).toBe(true);
        expect(await vectors.rank(aSession, "a girl in the park", 2)).toHaveLength(2);
        const inB = await vectors.rank(bSession, "a cat", 80);
        expect(inB.length).toBeGreaterThan(0);
        for (const side of inB) expect(aIds.has(side.entryId)).toBe(false);
      } finally {
        await embedder.close();
        await sql`delete from message_vectors`.execute(plain.db.db);
      }
    },
  );
});
