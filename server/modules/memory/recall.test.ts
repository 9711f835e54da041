// Recall over HTTP on both databases: what reaches a later prompt after delete, edit, rewind, New Chat and erasure; never another user's chat; off means nothing.
import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { MessageReply } from "../../../common/api";
import type { PromptInspectionReply } from "../../../common/prompt-inspection";
import { call, demoWithCharacter, describeEachDatabase } from "../../testing/api";
import { ScriptedLlm } from "../../testing/fake-llm";
import { createTestApp, type TestApp } from "../../testing/server";

/**
 * Recall (docs/features.md "Memory"): a word said long ago, out of the prompt's window, comes back
 * in the turn's note when the user mentions it again; it never comes back once deleted, edited
 * away, rewound, cleared by New Chat or erased with the account, never from another user's chat,
 * and never while the chat's recall is off. The context window is small (900 tokens) so that a
 * few exchanges push a message out of the history the prompt carries.
 */
describeEachDatabase("recall: earlier messages in a reply's prompt", (dialect) => {
  let t: TestApp;
  const llm = new ScriptedLlm(() => "Okay!", 900);
  beforeAll(async () => {
    t = await createTestApp({ dialect, llm });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  const post = (token: string, url: string, form: Record<string, string>) =>
    call(t.app, "POST", url, { token, form });
  /** POST /api/chat/recall with a JSON body, as the SPA sends it. */
  const setRecall = async (token: string, id: string, enabled: unknown) => {
    const response = await t.app.inject({
      method: "POST",
      url: "/api/chat/recall",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      payload: JSON.stringify({ id, enabled }),
    });
    return { status: response.statusCode, body: response.json() };
  };
  const say = async (token: string, chatId: string, message: string) => {
    const res = await post(token, "/api/chat/message", { message, id: chatId });
    expect(res.body.success).toBe(1);
    return (res.body as unknown as MessageReply).history![0]!.chatHistoryUUID;
  };
  /** The last chat prompt's text and its newest message (where the turn's note goes). */
  const lastPrompt = () => {
    const request = llm.requests.findLast((r) => r.messages[0]!.content.startsWith("You are"))!;
    return {
      all: request.messages.map((m) => m.content).join("\n"),
      history: request.messages
        .slice(1, -1)
        .map((m) => m.content)
        .join("\n"),
      newest: request.messages.at(-1)!.content,
    };
  };
  /** A user with a character, a message holding `word` and enough small talk after it to push it out of the window. */
  const chatWith = async (word: string) => {
    const s = await demoWithCharacter(t.app);
    await t.db.db.updateTable("users").set({ chat_limit: 1000 }).where("id", "=", s.userId).execute();
    const entry = await say(s.token, s.characterId, `My grandmother grew ${word} in her garden in Porto.`);
    for (let i = 0; i < 8; i++) await say(s.token, s.characterId, `Small talk ${i} about the rain today.`);
    return { ...s, entry };
  };
  const ask = async (s: { token: string; characterId: string }, word: string) => {
    await say(s.token, s.characterId, `Do you remember the ${word}?`);
    return lastPrompt();
  };
  const unique = () => `zq${randomUUID().replaceAll("-", "").slice(0, 10)}`;

  /** The prompt inspector's account of the chat's newest reply. */
  async function newestInspection(s: { token: string; characterId: string }): Promise<PromptInspectionReply> {
    const newest = (
      await call(t.app, "GET", `/api/chat/history/paginated?id=${s.characterId}&offset=0&limit=1`, {
        token: s.token,
      })
    ).body.data as Array<{ chatHistoryUUID: string }>;
    return (await call(t.app, "GET", `/api/chat/prompt?id=${newest[0]!.chatHistoryUUID}`, { token: s.token }))
      .body as unknown as PromptInspectionReply;
  }

  it("brings back a message out of the window, by date and speaker, and tells the inspector why", async () => {
    const word = unique();
    const s = await chatWith(word);
    const prompt = await ask(s, word);
    expect(prompt.history).not.toContain(word);
    expect(prompt.newest).toContain("[Earlier in this chat (recalled):");
    expect(prompt.newest).toMatch(/\n\d{1,2} [A-Z][a-z]{2} \d{4}:\n/);
    expect(prompt.newest).toContain(`\nGuest: My grandmother grew ${word} in her garden in Porto.\n`);
    const inspection = await newestInspection(s);
    const recall = inspection.inspection!.recall!;
    expect(recall.enabled).toBe(true);
    expect(recall.query).toContain(word);
    const match = recall.messages.find((m) => m.why === "match")!;
    expect(match).toMatchObject({
      entryId: s.entry,
      side: "user",
      speaker: "Guest",
      terms: [word],
      by: ["words"],
    });
    expect(inspection.inspection!.parts.some((p) => p.kind === "recalled" && p.tokens > 0)).toBe(true);
  });

  it("recalls an item of a category asked for by its head, without its neighbours", async () => {
    const s = await demoWithCharacter(t.app);
    await t.db.db.updateTable("users").set({ chat_limit: 1000 }).where("id", "=", s.userId).execute();
    const entry = await say(s.token, s.characterId, "Lately I took up kickboxing at the club near Porto.");
    for (let i = 0; i < 8; i++) await say(s.token, s.characterId, `Small talk ${i} about the rain today.`);
    await say(s.token, s.characterId, "What sports do I practise these days?");
    const prompt = lastPrompt();
    expect(prompt.history).not.toContain("kickboxing");
    expect(prompt.newest).toContain("Guest: Lately I took up kickboxing at the club near Porto.");
    const inspection = await newestInspection(s);
    const recall = inspection.inspection!.recall!;
    expect(recall.messages.find((m) => m.entryId === entry && m.side === "user")).toMatchObject({
      why: "match",
      terms: ["kickboxing"],
    });
    expect(recall.messages.some((m) => m.entryId === entry && m.side === "reply")).toBe(false);
  });

  it("never recalls a deleted message", async () => {
    const word = unique();
    const s = await chatWith(word);
    expect((await post(s.token, "/api/chat/delete", { id: s.entry })).body.success).toBe(1);
    expect((await ask(s, word)).all).not.toContain(`grew ${word}`);
  });

  it("never recalls an edited-away word, and recalls the new one", async () => {
    const word = unique();
    const other = unique();
    const s = await chatWith(word);
    const edited = await post(s.token, "/api/chat/edit", {
      id: s.entry,
      part: "message",
      text: `My grandmother grew ${other} in Porto.`,
    });
    expect(edited.body.success).toBe(1);
    expect((await ask(s, word)).all).not.toContain(`grew ${word}`);
    expect((await ask(s, other)).newest).toContain(`grew ${other}`);
  });

  it("never recalls a rewound message", async () => {
    const word = unique();
    const s = await demoWithCharacter(t.app);
    const first = await say(s.token, s.characterId, "Hello there, how are you?");
    await say(s.token, s.characterId, `My grandmother grew ${word} in her garden.`);
    for (let i = 0; i < 8; i++) await say(s.token, s.characterId, `Small talk ${i} about the rain today.`);
    expect((await post(s.token, "/api/chat/rewind", { id: first })).body.success).toBe(1);
    expect((await ask(s, word)).all).not.toContain(`grew ${word}`);
  });

  it("never recalls a message from before New Chat", async () => {
    const word = unique();
    const s = await chatWith(word);
    const cleared = await call(t.app, "GET", `/api/chat/new?id=${s.characterId}`, { token: s.token });
    expect(cleared.body.success).toBe(1);
    expect((await ask(s, word)).all).not.toContain(`grew ${word}`);
  });

  it("never recalls another user's message, even with the same words", async () => {
    const word = unique();
    await chatWith(word);
    const stranger = await demoWithCharacter(t.app);
    for (let i = 0; i < 3; i++) await say(stranger.token, stranger.characterId, `Hello ${i}, nice weather.`);
    const prompt = await ask(stranger, word);
    expect(prompt.all).not.toContain(`grew ${word}`);
    expect(prompt.newest).not.toContain("Earlier in this chat");
  });

  it("recalls nothing while the chat's recall is off, and again once it is on", async () => {
    const word = unique();
    const s = await chatWith(word);
    const refused = await setRecall(s.token, s.characterId, "no");
    expect(refused).toMatchObject({ status: 400, body: { message: "Choose on or off." } });
    expect((await setRecall(s.token, s.characterId, false)).body).toMatchObject({
      success: 1,
      data: { enabled: false },
    });
    const read = await call(t.app, "GET", `/api/chat/recall?id=${s.characterId}`, { token: s.token });
    expect(read.body).toMatchObject({ success: 1, data: { enabled: false } });
    // A form body, as the spec's other switches, works too.
    const form = await post(s.token, "/api/chat/recall", { id: s.characterId, enabled: "0" });
    expect(form.body).toMatchObject({ success: 1, data: { enabled: false } });
    // Off, the history's share of the window is larger (recall's budget is not kept free), so
    // only the note is checked: nothing is recalled into it.
    const off = await ask(s, word);
    expect(off.newest).not.toContain(`grew ${word}`);
    expect(off.newest).not.toContain("Earlier in this chat");
    expect((await setRecall(s.token, s.characterId, true)).body).toMatchObject({ data: { enabled: true } });
    expect((await ask(s, word)).newest).toContain(`grew ${word}`);
  });

  it("answers 404 for another user's chat and 401 signed out", async () => {
    const owner = await demoWithCharacter(t.app);
    const other = await demoWithCharacter(t.app);
    const get = await call(t.app, "GET", `/api/chat/recall?id=${owner.characterId}`, { token: other.token });
    expect(get.status).toBe(404);
    expect((await setRecall(other.token, owner.characterId, false)).status).toBe(404);
    expect((await call(t.app, "GET", `/api/chat/recall?id=${owner.characterId}`)).status).toBe(401);
    const read = await call(t.app, "GET", `/api/chat/recall?id=${owner.characterId}`, { token: owner.token });
    expect(read.body).toMatchObject({ data: { enabled: true } });
  });

  it("leaves nothing of an erased account's messages to recall", async () => {
    const word = unique();
    const s = await chatWith(word);
    const user = await t.db.db
      .selectFrom("users")
      .select("user_name")
      .where("id", "=", s.userId)
      .executeTakeFirstOrThrow();
    const erased = await call(t.app, "POST", "/api/account/delete", {
      token: s.token,
      form: { confirm: user.user_name },
    });
    expect(erased.status).toBe(200);
    const left =
      dialect === "sqlite"
        ? await sql<{
            n: number;
          }>`select count(*) as n from message_recall where message_recall match ${`"${word}"`}`.execute(
            t.db.db,
          )
        : await sql<{ n: number }>`select count(*) as n from chat_history
            where recall_user @@ to_tsquery('english', ${word}) or recall_reply @@ to_tsquery('english', ${word})`.execute(
            t.db.db,
          );
    expect(Number(left.rows[0]!.n)).toBe(0);
  });
});
