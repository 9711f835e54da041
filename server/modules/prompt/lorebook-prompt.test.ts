import { afterAll, beforeAll, expect, it } from "vitest";
import { callMultipart, demoLogin, describeEachDatabase } from "../../testing/api";
import { ScriptedLlm } from "../../testing/fake-llm";
import { createTestApp, type TestApp } from "../../testing/server";

/** A character's lorebook entries reach the prompt the model receives. */

const card = {
  spec: "chara_card_v2",
  spec_version: "2.0",
  data: {
    name: "Ysolde",
    description: "Ysolde is the queen of the floating islands.",
    first_mes: "Welcome to my court.",
    character_book: {
      scan_depth: 1,
      token_budget: 200,
      entries: [
        {
          keys: [],
          content: "Eldoria is a kingdom of floating islands.",
          enabled: true,
          constant: true,
          insertion_order: 100,
          position: "before_char",
        },
        {
          keys: ["amulet"],
          secondary_keys: ["throne"],
          selective: true,
          content: "The amulet was stolen from {{char}}'s throne room.",
          enabled: true,
          insertion_order: 50,
          position: "after_char",
        },
        {
          keys: ["dragon"],
          content: "Dragons are extinct in Eldoria.",
          enabled: true,
          insertion_order: 40,
          position: "after_char",
        },
      ],
    },
  },
};

describeEachDatabase("lorebook entries in the prompt", (dialect) => {
  let t: TestApp;
  const llm = new ScriptedLlm(() => "Indeed.");
  beforeAll(async () => {
    t = await createTestApp({ dialect, llm });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it("puts the constant entry before the character and a matched entry in the turn's note; others stay out", async () => {
    const { token } = await demoLogin(t.app);
    const imported = await callMultipart(t.app, "/api/characters/import", {
      token,
      files: { card: { bytes: Buffer.from(JSON.stringify(card)), filename: "card.json" } },
    });
    expect(imported.body.success).toBe(1);
    const id = (imported.body.data as { characterUUID: string }).characterUUID;

    const sent = await callMultipart(t.app, "/api/chat/message", {
      token,
      fields: { id, message: "Who took the amulet from the throne?" },
    });
    expect(sent.status).toBe(200);
    // The constant entry is part of the stable system prompt; a triggered one is the turn's
    // note after the newest message (prompt.ts: the layout for prefix caches).
    const messages = llm.requests.at(-1)!.messages;
    const system = messages[0]!.content;
    const constant = system.indexOf("Eldoria is a kingdom of floating islands.");
    const backstory = system.indexOf("Ysolde is the queen of the floating islands.");
    expect(constant).toBeGreaterThanOrEqual(0);
    expect(backstory).toBeGreaterThan(constant);
    expect(system).not.toContain("amulet was stolen");
    const note = messages.at(-1)!.content;
    expect(note).toContain("The amulet was stolen from Ysolde's throne room.");
    expect(note).not.toContain("Dragons are extinct");

    // scan_depth 1: only the newest message is scanned; the amulet entry leaves, the dragon one comes.
    await callMultipart(t.app, "/api/chat/message", {
      token,
      fields: { id, message: "Tell me of a dragon." },
    });
    const next = llm.requests.at(-1)!.messages;
    expect(next[0]!.content).toBe(system);
    const all = next.map((m) => m.content).join("\n");
    expect(next.at(-1)!.content).toContain("Dragons are extinct in Eldoria.");
    expect(all).not.toContain("The amulet was stolen");
  });
});
