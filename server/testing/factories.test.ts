// The test-data factories make what they say through the API: a member, their character, a chat's history and a group.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatHistoryEntry } from "../../common/api";
import { call } from "./api";
import { makeCharacter, makeChat, makeGroup, makeMember } from "./factories";
import { createTestApp, type TestApp } from "./server";

describe("test-data factories", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it("make a member's character, a chat holding the given exchanges in order, and a group of two", async () => {
    const member = await makeMember(t.app);
    const nova = await makeCharacter(t.app, member);
    expect(nova.characterName).toBe("Nova");
    const mira = await makeCharacter(t.app, member, { name: "Mira", description: "A lighthouse keeper." });
    expect(mira.characterName).toBe("Mira");
    expect(mira.characterUUID).not.toBe(nova.characterUUID);

    const imported = await makeChat(t.app, member, nova.characterUUID, [
      ["Hello there", "Hi! Ready for launch?"],
      ["Where are we going?", "To the rings of Saturn."],
    ]);
    expect(imported).toBe(4);
    const page = await call<ChatHistoryEntry[]>(
      t.app,
      "GET",
      `/api/chat/history/paginated?id=${nova.characterUUID}&offset=0&limit=10`,
      { token: member.token },
    );
    const words = (page.body.data ?? []).map((entry) => [
      entry.chatHistoryMessage,
      entry.chatHistoryReplyMessage,
    ]);
    expect(words).toEqual([
      ["Hello there", "Hi! Ready for launch?"],
      ["Where are we going?", "To the rings of Saturn."],
    ]);

    const groupId = await makeGroup(t.app, member, [nova.characterUUID, mira.characterUUID]);
    expect(groupId).toMatch(/^[0-9a-f-]{36}$/);
    const other = await makeMember(t.app);
    await expect(makeGroup(t.app, other, [nova.characterUUID, mira.characterUUID])).rejects.toThrow(
      /refused/,
    );
  });

  it("say why when the server refuses", async () => {
    const member = await makeMember(t.app);
    await expect(makeCharacter(t.app, member, { name: "" })).rejects.toThrow(
      /characters\/create refused: \S/,
    );
  });
});
