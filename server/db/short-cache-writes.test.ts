import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { call, callMultipart, demoLogin, demoWithCharacter, describeEachDatabase } from "../testing/api";
import { ScriptedLlm } from "../testing/fake-llm";
import { createTestApp, type TestApp } from "../testing/server";

/**
 * The rule of server/db/short-cache.ts: what this process writes is dropped by its writer, so a
 * read through the cached path right after the write (well within the 5 s ttl) sees the new
 * value. Each case first reads through the cache (a chat request), then writes through the API,
 * then reads again at once: without the writer's drop the cached row would still answer.
 */
describeEachDatabase("per-process caches after a write", (dialect) => {
  let t: TestApp;
  const llm = new ScriptedLlm(() => "Noted.");
  let languageId = "";
  beforeAll(async () => {
    t = await createTestApp({ dialect, llm });
    const { token } = await demoLogin(t.app);
    const res = await call(t.app, "GET", "/api/characters/languages", { token });
    languageId = (res.body.languages as Array<{ languageUUID: string }>)[0]!.languageUUID;
  });
  afterAll(async () => {
    await t?.dispose();
  });

  /** Sends a chat message (the cached path: session, character, chat session, window, facts). */
  const send = (token: string, id: string, message: string) =>
    callMultipart(t.app, "/api/chat/message", { token, fields: { id, message } });
  /** The text of the prompt the model was last asked with. */
  const lastPrompt = () =>
    llm.requests
      .at(-1)!
      .messages.map((m) => m.content)
      .join("\n");
  const unlimited = (userId: string) =>
    t.db.db.updateTable("users").set({ chat_limit: 1000 }).where("id", "=", userId).execute();

  it("a character's new name is in the very next prompt", async () => {
    const s = await demoWithCharacter(t.app);
    expect((await send(s.token, s.characterId, "Hello there")).status).toBe(200);
    const renamed = await callMultipart(t.app, "/api/characters/update", {
      token: s.token,
      fields: {
        id: s.characterId,
        name: "Zephyrine",
        sex: "0",
        voice: "English Female",
        language: languageId,
        description: "A lighthouse keeper.",
        greeting: "Hi {{user}}!",
      },
    });
    expect(renamed.body.success).toBe(1);
    expect((await send(s.token, s.characterId, "Who are you?")).status).toBe(200);
    expect(lastPrompt()).toContain("Zephyrine");
  });

  it("a deleted character's chat is gone at once", async () => {
    const s = await demoWithCharacter(t.app);
    const presets = await call(t.app, "GET", "/api/characters/selection", { token: s.token });
    const preset = (presets.body.data as Array<{ characterPreDefinedUUID: string }>)[1]!;
    const second = await call(t.app, "POST", "/api/characters/create-preselect", {
      token: s.token,
      form: { id: preset.characterPreDefinedUUID },
    });
    const id = (second.body.data as { characterUUID: string }).characterUUID;
    expect((await send(s.token, id, "Hello")).status).toBe(200);
    const deleted = await call(t.app, "DELETE", `/api/characters/delete/?id=${id}`, { token: s.token });
    expect(deleted.body.success).toBe(1);
    const after = await send(s.token, id, "Are you there?");
    expect(after.status).toBe(404);
  });

  it("the user's new name and 18+ confirmation hold on the chat routes at once", async () => {
    const s = await demoWithCharacter(t.app);
    const unconfirmed = await demoLogin(t.app, { adult: false });
    // the first user: renamed after a message.
    expect((await send(s.token, s.characterId, "Hello")).status).toBe(200);
    const updated = await callMultipart(t.app, "/api/users/update", {
      token: s.token,
      fields: { fname: "Marisol Quintero", name: "marisol" },
    });
    expect(updated.body.success).toBe(1);
    expect((await send(s.token, s.characterId, "Say my name")).status).toBe(200);
    expect(lastPrompt()).toContain("Marisol Quintero");
    // the second: refused before the confirmation, answered right after it.
    const preset = (
      (await call(t.app, "GET", "/api/characters/selection", { token: unconfirmed.token })).body
        .data as Array<{
        characterPreDefinedUUID: string;
      }>
    )[0]!;
    const created = await call(t.app, "POST", "/api/characters/create-preselect", {
      token: unconfirmed.token,
      form: { id: preset.characterPreDefinedUUID },
    });
    const id = (created.body.data as { characterUUID: string }).characterUUID;
    expect((await send(unconfirmed.token, id, "Hello")).status).toBe(403);
    const confirmed = await call(t.app, "POST", "/api/users/confirm-age", {
      token: unconfirmed.token,
      form: { confirm: "1" },
    });
    expect(confirmed.body.success).toBe(1);
    expect((await send(unconfirmed.token, id, "Hello")).status).toBe(200);
  });

  it("an admin's block and limits hold on the user's next chat request at once", async () => {
    const admin = await demoLogin(t.app);
    await t.db.db.updateTable("users").set({ role: "admin" }).where("id", "=", admin.userId).execute();
    const limited = await demoWithCharacter(t.app);
    const blocked = await demoWithCharacter(t.app);
    await unlimited(limited.userId);
    expect((await send(limited.token, limited.characterId, "Hello")).status).toBe(200);
    expect((await send(blocked.token, blocked.characterId, "Hello")).status).toBe(200);

    const limits = await call(t.app, "POST", `/api/admin/users/${limited.userId}/limits`, {
      token: admin.token,
      form: { chatLimit: "0", extraMessages: "0" },
    });
    expect(limits.body.success).toBe(1);
    const refused = await send(limited.token, limited.characterId, "Once more");
    expect(refused.status).toBe(429);

    const block = await call(t.app, "POST", `/api/admin/users/${blocked.userId}/block`, {
      token: admin.token,
      form: { blocked: "1" },
    });
    expect(block.body.success).toBe(1);
    expect((await send(blocked.token, blocked.characterId, "Still here?")).status).toBe(401);
  });

  it("New Chat empties the prompt window and greets again at once", async () => {
    const s = await demoWithCharacter(t.app);
    await unlimited(s.userId);
    expect((await send(s.token, s.characterId, "I adore pineapples")).status).toBe(200);
    expect((await send(s.token, s.characterId, "And mangoes")).status).toBe(200);
    expect(lastPrompt()).toContain("pineapples");
    const cleared = await call(t.app, "GET", `/api/chat/new?id=${s.characterId}&uid=${s.userId}`, {
      token: s.token,
    });
    expect(cleared.body.success).toBe(1);
    // The cached session was greeted; the new one is not, so opening the chat greets again.
    const opened = await call(t.app, "GET", `/api/chat/history?id=${s.characterId}&uId=${s.userId}`, {
      token: s.token,
    });
    expect((opened.body.data as { data: unknown[] }).data).toHaveLength(1);
    expect((await send(s.token, s.characterId, "Hello again")).status).toBe(200);
    expect(lastPrompt()).not.toContain("pineapples");
  });

  it("a forgotten fact leaves the very next prompt", async () => {
    const s = await demoWithCharacter(t.app);
    await unlimited(s.userId);
    const factId = randomUUID();
    await t.db.db
      .insertInto("memories")
      .values({
        id: factId,
        user_id: s.userId,
        character_id: s.characterId,
        fact: "The user keeps a pet axolotl named Bubbles.",
        created_at: Date.now(),
        session_id: "",
        source_seq: 0,
      })
      .execute();
    expect((await send(s.token, s.characterId, "Hello")).status).toBe(200);
    expect(lastPrompt()).toContain("axolotl");
    const forgotten = await call(t.app, "DELETE", `/api/chat/memories/?id=${factId}`, { token: s.token });
    expect(forgotten.body.success).toBe(1);
    expect((await send(s.token, s.characterId, "Hello again")).status).toBe(200);
    expect(lastPrompt()).not.toContain("axolotl");
  });
});
