import { afterAll, beforeAll, expect, it } from "vitest";
import type { ChatProfileInfo } from "../../../common/api";
import { call, demoWithCharacter, describeEachDatabase } from "../../testing/api";
import { createTestApp, type TestApp } from "../../testing/server";

describeEachDatabase("group chats: create, members, limits and ownership", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  async function userWithCharacters(n: number) {
    const s = await demoWithCharacter(t.app);
    await t.db.db.updateTable("users").set({ character_limit: 10 }).where("id", "=", s.userId).execute();
    for (let i = 1; i < n; i++)
      await call(t.app, "POST", "/api/characters/create-random", { token: s.token });
    const list = (await call(t.app, "GET", "/api/characters/list/", { token: s.token })).body.data as Array<{
      characterUUID: string;
    }>;
    return { ...s, ids: list.map((c) => c.characterUUID) };
  }

  it("creates a group, adds up to 4 members, lists and opens it, then removes and deletes", async () => {
    const s = await userWithCharacters(5);
    const created = await call(t.app, "GET", `/api/chat/group/new?cId=${s.ids[0]}`, { token: s.token });
    expect(created.body.success).toBe(1);
    const groupId = /^\/character-select\/([0-9a-f-]{36})$/.exec(created.body.page!)![1]!;
    for (const id of s.ids.slice(1, 4)) {
      const added = await call(t.app, "GET", `/api/chat/group/member/add?gId=${groupId}&cId=${id}`, {
        token: s.token,
      });
      expect(added.body).toMatchObject({ success: 1, page: `/character-select/${groupId}` });
    }
    const fifth = await call(t.app, "GET", `/api/chat/group/member/add?gId=${groupId}&cId=${s.ids[4]}`, {
      token: s.token,
    });
    expect(fifth.status).toBe(403);
    expect(fifth.body.message).toBe("A group chat holds at most 4 members.");
    const groups = (await call(t.app, "GET", "/api/characters/group/list/", { token: s.token })).body
      .data as Array<{
      groupUUID: string;
      members: Array<{ memberName: string; memberPhoto: string }>;
    }>;
    expect(groups).toHaveLength(1);
    expect(groups[0]!.members).toHaveLength(4);
    const profile = await call(t.app, "GET", `/api/chat/profile/?id=${groupId}`, { token: s.token });
    const info = profile.body.info as ChatProfileInfo;
    expect(info.characters.map((c) => c.gId)).toEqual([groupId, groupId, groupId, groupId]);
    const history = await call(t.app, "GET", `/api/chat/history/paginated?id=${groupId}&offset=0&limit=10`, {
      token: s.token,
    });
    expect((history.body.data as unknown[]).length).toBe(4);
    const removed = await call(t.app, "GET", `/api/chat/group/member/remove?gId=${groupId}&cId=${s.ids[1]}`, {
      token: s.token,
    });
    expect(removed.body.success).toBe(1);
    const deleted = await call(t.app, "DELETE", `/api/characters/group/delete/?id=${groupId}`, {
      token: s.token,
    });
    expect(deleted.body.success).toBe(1);
    expect((await call(t.app, "GET", "/api/characters/group/list/", { token: s.token })).body.data).toEqual(
      [],
    );
  });

  it("only takes the user's own characters and groups", async () => {
    const owner = await userWithCharacters(2);
    const intruder = await userWithCharacters(1);
    const created = await call(t.app, "GET", `/api/chat/group/new?cId=${owner.ids[0]}`, {
      token: owner.token,
    });
    const groupId = created.body.page!.split("/").pop()!;
    const foreignChar = await call(
      t.app,
      "GET",
      `/api/chat/group/member/add?gId=${groupId}&cId=${intruder.ids[0]}`,
      {
        token: owner.token,
      },
    );
    expect(foreignChar.status).toBe(404);
    const foreignGroup = await call(
      t.app,
      "GET",
      `/api/chat/group/member/add?gId=${groupId}&cId=${intruder.ids[0]}`,
      {
        token: intruder.token,
      },
    );
    expect(foreignGroup.status).toBe(404);
    expect(
      (await call(t.app, "GET", `/api/chat/group/new?cId=${owner.ids[0]}`, { token: intruder.token })).status,
    ).toBe(404);
    const groups = (await call(t.app, "GET", "/api/characters/group/list/", { token: owner.token })).body
      .data as Array<{
      members: unknown[];
    }>;
    expect(groups[0]!.members).toHaveLength(1);
  });
});
