import { afterAll, beforeAll, expect, it } from "vitest";
import type { ChatHistoryEntry } from "../../../common/api";
import { call, demoWithCharacter, describeEachDatabase } from "../../testing/api";
import { startScriptedCompletions } from "../../testing/completions-server";
import { type ImageDouble, startImageDouble } from "../../testing/image-servers";
import { allowPictures } from "../../testing/images";
import { createTestApp, type TestApp } from "../../testing/server";

describeEachDatabase("group replies in turn order", (dialect) => {
  let t: TestApp;
  let llm: Awaited<ReturnType<typeof startScriptedCompletions>>;
  let double: ImageDouble;
  beforeAll(async () => {
    double = await startImageDouble("automatic1111");
    llm = await startScriptedCompletions((request) => {
      const me = /^You are (\w+)/.exec(request.messages[0]!.content)?.[1];
      return me ? `${me} here!` : "[]";
    });
    t = await createTestApp({
      dialect,
      env: {
        LLM_PROVIDER: "openai",
        LLM_BASE_URL: llm.baseUrl,
        LLM_MODEL: "scripted",
        IMAGE_PROVIDER: "automatic1111",
        IMAGE_BASE_URL: double.baseUrl,
      },
    });
  });
  afterAll(async () => {
    await t?.dispose();
    await llm?.close();
    await double?.close();
  });

  async function groupOfThree() {
    const s = await demoWithCharacter(t.app);
    const presets = (await call(t.app, "GET", "/api/characters/selection", { token: s.token })).body
      .data as Array<{
      characterPreDefinedUUID: string;
    }>;
    for (const p of presets.slice(4, 6)) {
      await call(t.app, "POST", "/api/characters/create-preselect", {
        token: s.token,
        form: { id: p.characterPreDefinedUUID },
      });
    }
    const list = (await call(t.app, "GET", "/api/characters/list/", { token: s.token })).body.data as Array<{
      characterUUID: string;
      characterName: string;
    }>;
    const group = await call(t.app, "GET", `/api/chat/group/new?cId=${list[0]!.characterUUID}`, {
      token: s.token,
    });
    const groupId = group.body.page!.split("/").pop()!;
    for (const c of list.slice(1)) {
      await call(t.app, "GET", `/api/chat/group/member/add?gId=${groupId}&cId=${c.characterUUID}`, {
        token: s.token,
      });
    }
    return { ...s, groupId, members: list };
  }

  it("lets the named character answer first, each answer its own entry, seeing the others'", async () => {
    const g = await groupOfThree();
    const named = g.members[2]!;
    llm.requests.length = 0;
    const res = await call(t.app, "POST", "/api/chat/group/reply", {
      token: g.token,
      form: { message: `${named.characterName}, tell us a story!`, id: g.groupId },
    });
    expect(res.body.success).toBe(1);
    const who = res.body.whoReplies as string[];
    expect(who[0]).toBe(named.characterUUID);
    const entries = res.body.history as ChatHistoryEntry[];
    expect(entries).toHaveLength(who.length);
    expect(entries[0]).toMatchObject({
      characterUUID: named.characterUUID,
      chatHistoryMessage: `${named.characterName}, tell us a story!`,
      chatHistoryReplyMessage: `${named.characterName} here!`,
    });
    expect(
      llm.requests.find((r) => r.messages[0]!.content.startsWith("You are"))!.messages[0]!.content,
    ).toContain("This is a group chat");
    const page = (
      await call(t.app, "GET", `/api/chat/history/paginated?id=${g.groupId}&offset=0&limit=10`, {
        token: g.token,
      })
    ).body.data as ChatHistoryEntry[];
    expect(page.filter((e) => e.chatHistoryMessage !== "##first-message##")).toHaveLength(who.length);
  });

  it("a second speaker sees the first speaker's reply by name", async () => {
    const g = await groupOfThree();
    const [a, b] = g.members;
    llm.requests.length = 0;
    const res = await call(t.app, "POST", "/api/chat/group/reply", {
      token: g.token,
      form: { message: `${a!.characterName} and ${b!.characterName}, hello!`, id: g.groupId },
    });
    expect(res.body.whoReplies).toEqual([a!.characterUUID, b!.characterUUID]);
    const replies = llm.requests.filter((r) => r.messages[0]!.content.startsWith("You are"));
    const second = replies[1]!.messages.map((m) => m.content).join("\n");
    expect(second).toContain(`${a!.characterName}: ${a!.characterName} here!`);
    expect(replies[1]!.stop).toContain(`\n${a!.characterName}:`);
  });

  it("never lets the last speaker answer twice in a row unaddressed", async () => {
    const g = await groupOfThree();
    const first = g.members[0]!;
    await call(t.app, "POST", "/api/chat/group/reply", {
      token: g.token,
      form: { message: `${first.characterName}?`, id: g.groupId },
    });
    const lastWho = (
      await call(t.app, "POST", "/api/chat/group/reply", {
        token: g.token,
        form: { message: `${first.characterName}!`, id: g.groupId },
      })
    ).body.whoReplies as string[];
    expect(lastWho).toEqual([first.characterUUID]);
    for (let i = 0; i < 5; i++) {
      const before = (
        await call(t.app, "GET", `/api/chat/history/paginated?id=${g.groupId}&offset=0&limit=1`, {
          token: g.token,
        })
      ).body.data as ChatHistoryEntry[];
      const res = await call(t.app, "POST", "/api/chat/group/reply", {
        token: g.token,
        form: { message: "what now?", id: g.groupId },
      });
      expect((res.body.whoReplies as string[])[0]).not.toBe(before[0]!.characterUUID);
    }
  });

  it("a member's reply offers the picture asked for, with the single chat's plan rules", async () => {
    const g = await groupOfThree();
    await allowPictures(t, g.userId);
    const named = g.members[1]!;
    const drawnBefore = double.drawn.length;
    const res = await call(t.app, "POST", "/api/chat/group/reply", {
      token: g.token,
      form: { message: `${named.characterName}, send me a picture of you at the beach!`, id: g.groupId },
    });
    expect(res.body).toMatchObject({ success: 1, genimage: 1 });
    const who = res.body.whoReplies as string[];
    const entries = res.body.history as ChatHistoryEntry[];
    expect(who[0]).toBe(named.characterUUID);
    // One picture per member entry, each entry loading until its picture is there.
    expect(entries.map((e) => e.chatHistoryImageLoading)).toEqual(who.map(() => 1));
    await t.images.idle();
    expect(double.drawn.length - drawnBefore).toBe(who.length);
    expect(double.drawn.at(-who.length)!.prompt).toContain("at the beach");
    const page = (
      await call(t.app, "GET", `/api/chat/history/paginated?id=${g.groupId}&offset=0&limit=10`, {
        token: g.token,
      })
    ).body.data as ChatHistoryEntry[];
    const answered = page.filter((e) => entries.some((x) => x.chatHistoryUUID === e.chatHistoryUUID));
    expect(answered).toHaveLength(who.length);
    for (const entry of answered) {
      expect(entry.chatHistoryImageLoading).toBe(0);
      expect(entry.chatHistoryReplyImage).toMatch(/\.jpg$/);
    }
    // An ordinary message stays text only.
    const plain = await call(t.app, "POST", "/api/chat/group/reply", {
      token: g.token,
      form: { message: "How was your day?", id: g.groupId },
    });
    expect(plain.body).toMatchObject({ success: 1, genimage: 0 });
  }, 60_000);

  it("a group without il gets no picture, as the single chat", async () => {
    const g = await groupOfThree();
    const drawnBefore = double.drawn.length;
    const res = await call(t.app, "POST", "/api/chat/group/reply", {
      token: g.token,
      form: { message: `${g.members[0]!.characterName}, send me a selfie!`, id: g.groupId },
    });
    expect(res.body).toMatchObject({ success: 1, genimage: 0 });
    expect((res.body.history as ChatHistoryEntry[]).every((e) => e.chatHistoryImageLoading === 0)).toBe(true);
    await t.images.idle();
    expect(double.drawn.length).toBe(drawnBefore);
  }, 60_000);

  it("refuses a group reply to a single chat or someone else's group", async () => {
    const g = await groupOfThree();
    const other = await demoWithCharacter(t.app);
    expect(
      (
        await call(t.app, "POST", "/api/chat/group/reply", {
          token: other.token,
          form: { message: "hi", id: g.groupId },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await call(t.app, "POST", "/api/chat/group/reply", {
          token: other.token,
          form: { message: "hi", id: other.characterId },
        })
      ).status,
    ).toBe(404);
  });
});
