import { afterAll, beforeAll, expect, it } from "vitest";
import { call, demoWithCharacter, describeEachDatabase } from "../../testing/api";
import { ScriptedLlm } from "../../testing/fake-llm";
import { createTestApp, type TestApp } from "../../testing/server";

/**
 * Scene-aware groups: a member knows only what was said while it was a member. One
 * added later does not see the earlier messages in its prompt; one removed is never asked again.
 */
describeEachDatabase("scene-aware groups", (dialect) => {
  let t: TestApp;
  /** Each prompt's speaker ("You are <Name>") and everything the model was sent. */
  const llm = new ScriptedLlm(
    (request) => `${/^You are (\w+)/.exec(request.messages[0]!.content)?.[1]} here.`,
  );
  beforeAll(async () => {
    t = await createTestApp({ dialect, llm });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  const promptsOf = (name: string) =>
    llm.requests
      .filter((r) => r.messages[0]!.content.startsWith(`You are ${name}`))
      .map((r) => r.messages.map((m) => m.content).join("\n"));

  it("a member added later does not see what was said before it joined; a removed one is not asked", async () => {
    const s = await demoWithCharacter(t.app);
    const presets = (await call(t.app, "GET", "/api/characters/selection", { token: s.token })).body
      .data as Array<{
      characterPreDefinedUUID: string;
    }>;
    await call(t.app, "POST", "/api/characters/create-preselect", {
      token: s.token,
      form: { id: presets[4]!.characterPreDefinedUUID },
    });
    const list = (await call(t.app, "GET", "/api/characters/list/", { token: s.token })).body.data as Array<{
      characterUUID: string;
      characterName: string;
    }>;
    const [first, later] = list as [(typeof list)[number], (typeof list)[number]];
    const group = await call(t.app, "GET", `/api/chat/group/new?cId=${first.characterUUID}`, {
      token: s.token,
    });
    const groupId = group.body.page!.split("/").pop()!;
    const say = (message: string) =>
      call(t.app, "POST", "/api/chat/group/reply", { token: s.token, form: { message, id: groupId } });

    expect((await say("my secret: the key is under the blue pot")).body.success).toBe(1);
    // A millisecond apart at least, so the join comes after the secret's send time.
    await new Promise((resolve) => setTimeout(resolve, 5));
    await call(t.app, "GET", `/api/chat/group/member/add?gId=${groupId}&cId=${later.characterUUID}`, {
      token: s.token,
    });
    expect((await say(`${later.characterName}, hello, welcome!`)).body.success).toBe(1);

    const laterPrompts = promptsOf(later.characterName);
    expect(laterPrompts.length).toBeGreaterThan(0);
    for (const prompt of laterPrompts) {
      expect(prompt).toContain("hello, welcome!");
      expect(prompt).not.toContain("the key is under the blue pot");
    }
    // The first member was there: it still knows.
    expect((await say(`${first.characterName}, do you remember?`)).body.success).toBe(1);
    expect(promptsOf(first.characterName).at(-1)).toContain("the key is under the blue pot");

    // Removed: never asked again, even when named.
    await call(t.app, "GET", `/api/chat/group/member/remove?gId=${groupId}&cId=${first.characterUUID}`, {
      token: s.token,
    });
    const asked = promptsOf(first.characterName).length;
    expect((await say(`${first.characterName}, are you there?`)).body.success).toBe(1);
    expect(promptsOf(first.characterName)).toHaveLength(asked);
  });
});
