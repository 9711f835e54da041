import { afterAll, beforeAll, expect, it } from "vitest";
import type { ChatHistoryEntry } from "../../../common/api";
import { call, callMultipart, demoWithCharacter, describeEachDatabase } from "../../testing/api";
import { startScriptedCompletions } from "../../testing/completions-server";
import { createTestApp, type TestApp } from "../../testing/server";
import { readPngTextChunks } from "./png-chunks";

/**
 * A character's own generation settings (product.md §2 "Character form", Generation): checked
 * at save, shown back, and sent to the model (an OpenAI-wire double that records every request)
 * with each of the character's replies: a new one, a continuation, a regeneration, a group turn.
 */
describeEachDatabase("per-character reply length, temperature and author's note", (dialect) => {
  let t: TestApp;
  let llm: Awaited<ReturnType<typeof startScriptedCompletions>>;
  beforeAll(async () => {
    llm = await startScriptedCompletions((request) => {
      const me = /^You are (\w+)/.exec(request.messages[0]!.content)?.[1];
      return me ? `${me} says hello there.` : "[]";
    });
    t = await createTestApp({
      dialect,
      env: {
        LLM_PROVIDER: "openai",
        LLM_BASE_URL: llm.baseUrl,
        LLM_MODEL: "scripted",
        LLM_TEMPERATURE: "0.9",
      },
    });
  });
  afterAll(async () => {
    await t?.dispose();
    await llm?.close();
  });

  /** The character's form as its detail gives it, with `extra` fields. */
  async function update(token: string, id: string, extra: Record<string, string>) {
    const detail = (await call(t.app, "GET", `/api/characters/?id=${id}`, { token })).body.data as Record<
      string,
      string
    >;
    return callMultipart(t.app, "/api/characters/update", {
      token,
      fields: {
        id,
        name: detail.characterName!,
        sex: detail.characterSex!,
        voice: detail.characterVoice!,
        language: detail.languageUUID!,
        description: detail.characterDescription!,
        greeting: detail.characterGreeting!,
        ...extra,
      },
    });
  }
  const replyRequests = () => llm.requests.filter((r) => r.messages[0]!.content.startsWith("You are"));
  const promptText = (r: { messages: Array<{ content: string }> }) =>
    r.messages.map((m) => m.content).join("\n");

  it("refuses values out of bounds with a sentence naming the rule", async () => {
    const s = await demoWithCharacter(t.app);
    const cases: Array<[Record<string, string>, string]> = [
      [{ max_tokens: "8" }, "The reply length must be a whole number from 16 to 4096 tokens."],
      [{ max_tokens: "5000" }, "The reply length must be a whole number from 16 to 4096 tokens."],
      [{ max_tokens: "100.5" }, "The reply length must be a whole number from 16 to 4096 tokens."],
      [{ temperature: "2.5" }, "The temperature must be a number from 0 to 2."],
      [{ temperature: "hot" }, "The temperature must be a number from 0 to 2."],
      [{ authors_note: "x".repeat(2001) }, "The author's note must be at most 2000 characters."],
      [{ authors_note_depth: "101" }, "The author's note depth must be a whole number from 0 to 100."],
      [{ authors_note_depth: "-1" }, "The author's note depth must be a whole number from 0 to 100."],
    ];
    for (const [fields, sentence] of cases) {
      const res = await update(s.token, s.characterId, fields);
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.body.message).toBe(sentence);
    }
  });

  it("stores the settings, shows them back, keeps them when absent and clears them when blank", async () => {
    const s = await demoWithCharacter(t.app);
    const saved = await update(s.token, s.characterId, {
      max_tokens: "200",
      temperature: "0.7",
      authors_note: "  Speak like a pirate.  ",
      authors_note_depth: "2",
    });
    expect(saved.body.success).toBe(1);
    const detail = async () =>
      (await call(t.app, "GET", `/api/characters/?id=${s.characterId}`, { token: s.token })).body.data;
    expect(await detail()).toMatchObject({
      characterMaxTokens: 200,
      characterTemperature: 0.7,
      characterAuthorsNote: "Speak like a pirate.",
      characterAuthorsNoteDepth: 2,
    });
    await update(s.token, s.characterId, {});
    expect(await detail()).toMatchObject({ characterMaxTokens: 200, characterTemperature: 0.7 });
    await update(s.token, s.characterId, {
      max_tokens: "",
      temperature: "",
      authors_note: "",
      authors_note_depth: "",
    });
    expect(await detail()).toMatchObject({
      characterMaxTokens: null,
      characterTemperature: null,
      characterAuthorsNote: "",
      characterAuthorsNoteDepth: null,
    });
  });

  it("sends the character's temperature, reply length and author's note with a reply, a continuation and a regeneration", async () => {
    const s = await demoWithCharacter(t.app);
    await update(s.token, s.characterId, {
      max_tokens: "123",
      temperature: "0.35",
      authors_note: "Speak like a pirate, {{user}}.",
      authors_note_depth: "0",
    });
    llm.requests.length = 0;
    const sent = await call(t.app, "POST", "/api/chat/message", {
      token: s.token,
      form: { message: "Hello!", id: s.characterId },
    });
    expect(sent.body.success).toBe(1);
    const entry = (sent.body.history as ChatHistoryEntry[])[0]!;
    const continued = await call(t.app, "POST", "/api/chat/continue-message", {
      token: s.token,
      form: { id: entry.chatHistoryUUID },
    });
    expect(continued.body.success).toBe(1);
    const regenerated = await call(t.app, "POST", "/api/chat/regenerate", {
      token: s.token,
      form: { id: entry.chatHistoryUUID, mute: "1" },
    });
    expect(regenerated.body.success).toBe(1);
    const requests = replyRequests();
    expect(requests).toHaveLength(3);
    for (const request of requests) {
      expect(request.temperature).toBe(0.35);
      expect(request.max_tokens).toBe(123);
      expect(promptText(request)).toMatch(/\[Author's note: Speak like a pirate, \w+\.\]/);
    }
  });

  it("exports the settings in the card (SillyTavern's depth_prompt, our companion extension) and imports them back", async () => {
    const s = await demoWithCharacter(t.app);
    await update(s.token, s.characterId, {
      max_tokens: "300",
      temperature: "1.25",
      authors_note: "Stay in the tavern.",
      authors_note_depth: "6",
    });
    const exported = await t.app.inject({
      method: "GET",
      url: `/api/characters/export/?id=${s.characterId}`,
      headers: { authorization: `Bearer ${s.token}` },
    });
    const chunks = readPngTextChunks(exported.rawPayload);
    for (const chunk of ["chara", "ccv3"]) {
      const card = JSON.parse(Buffer.from(chunks.get(chunk)!, "base64").toString());
      expect(card.data.extensions).toMatchObject({
        depth_prompt: { prompt: "Stay in the tavern.", depth: 6, role: "system" },
        companion: { max_tokens: 300, temperature: 1.25 },
      });
    }
    const imported = await callMultipart(t.app, "/api/characters/import", {
      token: s.token,
      files: { card: { bytes: exported.rawPayload, filename: "card.png", type: "image/png" } },
    });
    expect(imported.body.success).toBe(1);
    const id = (imported.body.data as { characterUUID: string }).characterUUID;
    expect(
      (await call(t.app, "GET", `/api/characters/?id=${id}`, { token: s.token })).body.data,
    ).toMatchObject({
      characterMaxTokens: 300,
      characterTemperature: 1.25,
      characterAuthorsNote: "Stay in the tavern.",
      characterAuthorsNoteDepth: 6,
    });
  });

  it("imports a SillyTavern card's depth prompt; settings out of bounds are left to the connection", async () => {
    const s = await demoWithCharacter(t.app);
    const card = {
      spec: "chara_card_v2",
      spec_version: "2.0",
      data: {
        name: "Tavern Keeper",
        description: "Keeps the tavern.",
        first_mes: "Welcome!",
        extensions: {
          depth_prompt: { prompt: "Mention the weather.", depth: 3, role: "system" },
          companion: { max_tokens: 99999, temperature: 0.5 },
        },
      },
    };
    const imported = await callMultipart(t.app, "/api/characters/import", {
      token: s.token,
      files: {
        card: { bytes: Buffer.from(JSON.stringify(card)), filename: "card.json", type: "application/json" },
      },
    });
    expect(imported.body.success).toBe(1);
    const id = (imported.body.data as { characterUUID: string }).characterUUID;
    expect(
      (await call(t.app, "GET", `/api/characters/?id=${id}`, { token: s.token })).body.data,
    ).toMatchObject({
      characterMaxTokens: null,
      characterTemperature: 0.5,
      characterAuthorsNote: "Mention the weather.",
      characterAuthorsNoteDepth: 3,
    });
  });

  it("without settings the connection's temperature is sent and no note", async () => {
    const s = await demoWithCharacter(t.app);
    llm.requests.length = 0;
    await call(t.app, "POST", "/api/chat/message", {
      token: s.token,
      form: { message: "Hi", id: s.characterId },
    });
    const [request] = replyRequests();
    expect(request!.temperature).toBe(0.9);
    expect(promptText(request!)).not.toContain("Author's note");
  });

  it("in a group each speaking character replies with its own settings", async () => {
    const s = await demoWithCharacter(t.app);
    const presets = (await call(t.app, "GET", "/api/characters/selection", { token: s.token })).body
      .data as Array<{ characterPreDefinedUUID: string }>;
    const second = (
      await call(t.app, "POST", "/api/characters/create-preselect", {
        token: s.token,
        form: { id: presets[1]!.characterPreDefinedUUID },
      })
    ).body.data as { characterUUID: string; characterName: string };
    const first = (await call(t.app, "GET", `/api/characters/?id=${s.characterId}`, { token: s.token })).body
      .data as { characterName: string };
    await update(s.token, s.characterId, { temperature: "0.2", authors_note: "Whisper." });
    await update(s.token, second.characterUUID, { temperature: "1.4", max_tokens: "64" });
    const group = await call(t.app, "GET", `/api/chat/group/new?cId=${s.characterId}`, { token: s.token });
    const groupId = group.body.page!.split("/").pop()!;
    await call(t.app, "GET", `/api/chat/group/member/add?gId=${groupId}&cId=${second.characterUUID}`, {
      token: s.token,
    });
    llm.requests.length = 0;
    const res = await call(t.app, "POST", "/api/chat/group/reply", {
      token: s.token,
      form: { message: `${first.characterName} and ${second.characterName}, hello!`, id: groupId },
    });
    expect(res.body.success).toBe(1);
    const byName = (name: string) =>
      replyRequests().find((r) => r.messages[0]!.content.startsWith(`You are ${name}`))!;
    expect(byName(first.characterName)).toMatchObject({ temperature: 0.2 });
    expect(promptText(byName(first.characterName))).toContain("[Author's note: Whisper.]");
    expect(byName(second.characterName)).toMatchObject({ temperature: 1.4, max_tokens: 64 });
    expect(promptText(byName(second.characterName))).not.toContain("Author's note");
  });
});
