import { afterAll, beforeAll, expect, it } from "vitest";
import { call, demoWithCharacter, describeEachDatabase } from "../../testing/api";
import { type CompletionsRequest, startScriptedCompletions } from "../../testing/completions-server";
import { createTestApp, type TestApp } from "../../testing/server";
import { FACTS_BATCH, keywords } from "./memory.service";

describeEachDatabase("memory: long-term facts and the rolling summary", (dialect) => {
  let t: TestApp;
  let summaries = 0;
  let llm: Awaited<ReturnType<typeof startScriptedCompletions>>;
  const script = (request: CompletionsRequest) => {
    const system = request.messages[0]!.content;
    const last = request.messages.at(-1)!.content;
    if (system.startsWith("Extract lasting facts")) {
      const dog = /my dog is called (\w+)/i.exec(last);
      return dog ? `["Guest has a dog called ${dog[1]}."]` : "[]";
    }
    if (system.startsWith("You keep the memory")) {
      summaries += 1;
      return `Summary ${summaries}: they talked a lot.`;
    }
    return "Okay!";
  };
  beforeAll(async () => {
    llm = await startScriptedCompletions(script);
    t = await createTestApp({
      dialect,
      env: {
        LLM_PROVIDER: "openai",
        LLM_BASE_URL: llm.baseUrl,
        LLM_MODEL: "scripted",
        LLM_CONTEXT_SIZE: "700",
      },
    });
  });
  afterAll(async () => {
    await t?.dispose();
    await llm?.close();
  });

  const send = (token: string, id: string, message: string) =>
    call(t.app, "POST", "/api/chat/message", { token, form: { message, id } });

  it("remembers a fact told 40 messages earlier, long out of the context window, and recalls its message", async () => {
    const s = await demoWithCharacter(t.app);
    await t.db.db.updateTable("users").set({ chat_limit: 1000 }).where("id", "=", s.userId).execute();
    await send(s.token, s.characterId, "By the way, my dog is called Biscuit and he loves the beach.");
    await t.jobs.idle();
    for (let i = 0; i < 40; i++)
      await send(s.token, s.characterId, `Small talk number ${i} about the weather today.`);
    await t.jobs.idle();
    llm.requests.length = 0;
    await send(s.token, s.characterId, "Do you remember my dog?");
    const chatPrompt = llm.requests.find((r) => r.messages[0]!.content.startsWith("You are"))!;
    const history = chatPrompt.messages.slice(1, -1).map((m) => m.content);
    expect(history.join("\n")).not.toContain("my dog is called Biscuit");
    expect(chatPrompt.messages[0]!.content).toContain("- Guest has a dog called Biscuit.");
    // Recall brings the message itself back, in the turn's note after the newest message.
    const newest = chatPrompt.messages.at(-1)!.content;
    expect(newest).toMatch(/^Do you remember my dog\?\n\n\[Earlier in this chat \(recalled\):\n/);
    expect(newest).toContain("Guest: By the way, my dog is called Biscuit and he loves the beach.");
  });

  it("refreshes the summary in the background and sends it instead of the old messages", async () => {
    const s = await demoWithCharacter(t.app);
    await t.db.db.updateTable("users").set({ chat_limit: 1000 }).where("id", "=", s.userId).execute();
    for (let i = 0; i < 32; i++) await send(s.token, s.characterId, `Message ${i}`);
    await t.jobs.idle();
    const session = await t.db.db
      .selectFrom("chat_sessions")
      .selectAll()
      .where("chat_key", "=", s.characterId)
      .executeTakeFirstOrThrow();
    expect(session.summary).toMatch(/^Summary \d+: they talked a lot\.$/);
    expect(session.summary_until_seq).toBeGreaterThan(0);
    llm.requests.length = 0;
    await send(s.token, s.characterId, "And now?");
    const chatPrompt = llm.requests.find((r) => r.messages[0]!.content.startsWith("You are"))!;
    expect(chatPrompt.messages[0]!.content).toContain(
      `What happened earlier in this conversation: ${session.summary}`,
    );
    const userTurns = chatPrompt.messages.filter((m) => m.role === "user").map((m) => m.content);
    expect(userTurns).not.toContain("Message 0");
    // A short message's recall query takes words of the recent exchanges: the note follows it.
    expect(userTurns.at(-1)).toMatch(/^And now\?(\n\n\[Earlier in this chat \(recalled\):\n[\s\S]*\])?$/);
  });

  it("shows the facts in Settings and deletes one for its owner only", async () => {
    const s = await demoWithCharacter(t.app);
    await send(s.token, s.characterId, "My dog is called Pixel.");
    for (let i = 1; i < FACTS_BATCH; i++) await send(s.token, s.characterId, `I like the number ${i}.`);
    await t.jobs.idle();
    const list = await call(t.app, "GET", `/api/chat/memories?id=${s.characterId}`, { token: s.token });
    const facts = list.body.data as Array<{ memoryUUID: string; fact: string }>;
    expect(facts.map((f) => f.fact)).toEqual(["Guest has a dog called Pixel."]);
    const other = await demoWithCharacter(t.app);
    const foreign = await call(t.app, "DELETE", `/api/chat/memories/?id=${facts[0]!.memoryUUID}`, {
      token: other.token,
    });
    expect(foreign.status).toBe(404);
    const own = await call(t.app, "DELETE", `/api/chat/memories/?id=${facts[0]!.memoryUUID}`, {
      token: s.token,
    });
    expect(own.body.success).toBe(1);
    expect(
      (await call(t.app, "GET", `/api/chat/memories?id=${s.characterId}`, { token: s.token })).body.data,
    ).toEqual([]);
  });

  it("ranks facts by shared keywords", () => {
    expect([...keywords("Do you remember my dog's name?")].sort()).toEqual(["dog", "name", "remember"]);
  });
});

describeEachDatabase("memory: facts extracted in batches", (dialect) => {
  let t: TestApp;
  let llm: Awaited<ReturnType<typeof startScriptedCompletions>>;
  beforeAll(async () => {
    llm = await startScriptedCompletions((request) => {
      if (!request.messages[0]!.content.startsWith("Extract lasting facts")) return "Okay!";
      const dog = /my dog is called (\w+)/i.exec(request.messages.at(-1)!.content);
      return dog ? `["Guest has a dog called ${dog[1]}."]` : "[]";
    });
    // A context window that keeps every message of these tests in the prompt.
    t = await createTestApp({
      dialect,
      env: {
        LLM_PROVIDER: "openai",
        LLM_BASE_URL: llm.baseUrl,
        LLM_MODEL: "scripted",
        LLM_CONTEXT_SIZE: "8192",
      },
    });
  });
  afterAll(async () => {
    await t?.dispose();
    await llm?.close();
  });

  const send = (token: string, id: string, message: string) =>
    call(t.app, "POST", "/api/chat/message", { token, form: { message, id } });
  const extractions = () =>
    llm.requests.filter((r) => r.messages[0]!.content.startsWith("Extract lasting facts")).length;

  it("extracts facts once per batch of messages that may hold some", async () => {
    const s = await demoWithCharacter(t.app);
    await t.db.db.updateTable("users").set({ chat_limit: 1000 }).where("id", "=", s.userId).execute();
    llm.requests.length = 0;
    await send(s.token, s.characterId, "My dog is called Rex, I love him.");
    for (let i = 1; i < FACTS_BATCH - 1; i++) await send(s.token, s.characterId, `I went out for walk ${i}.`);
    await t.jobs.idle();
    expect(extractions()).toBe(0);
    await send(s.token, s.characterId, "I had tea with my sister.");
    await t.jobs.idle();
    expect(extractions()).toBe(1);
    const batch = llm.requests.find((r) => r.messages[0]!.content.startsWith("Extract lasting facts"))!;
    expect(batch.messages.at(-1)!.content).toContain("My dog is called Rex");
    expect(batch.messages.at(-1)!.content).toContain("I had tea with my sister.");
    const list = await call(t.app, "GET", `/api/chat/memories?id=${s.characterId}`, { token: s.token });
    expect((list.body.data as Array<{ fact: string }>).map((f) => f.fact)).toEqual([
      "Guest has a dog called Rex.",
    ]);
    // The next batch starts after the extracted messages: one more message sets nothing off.
    await send(s.token, s.characterId, "I am going to bed now.");
    await t.jobs.idle();
    expect(extractions()).toBe(1);
  });

  it("extracts the facts not yet extracted before New Chat deletes the history", async () => {
    const s = await demoWithCharacter(t.app);
    await send(s.token, s.characterId, "My dog is called Nala.");
    await t.jobs.idle();
    const cleared = await call(t.app, "GET", `/api/chat/new?id=${s.characterId}&uid=${s.userId}`, {
      token: s.token,
    });
    expect(cleared.body.success).toBe(1);
    await expect
      .poll(async () => {
        const list = await call(t.app, "GET", `/api/chat/memories?id=${s.characterId}`, { token: s.token });
        return (list.body.data as Array<{ fact: string }>).map((f) => f.fact);
      })
      .toEqual(["Guest has a dog called Nala."]);
  });
});
