import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatHistoryEntry, MessageReply } from "../../../common/api";
import { call, callMultipart, demoWithCharacter, describeEachDatabase } from "../../testing/api";
import { ScriptedLlm } from "../../testing/fake-llm";
import { createTestApp, type TestApp } from "../../testing/server";
import { localTimeText } from "../prompt/prompt";

/** product.md §7 `chat/message` fields pname, ptext and time: what they mean here (README "How the chat works"). */

async function send(t: TestApp, token: string, fields: Record<string, string>) {
  const answer = await callMultipart(t.app, "/api/chat/message", { token, fields });
  return { status: answer.status, body: answer.body as unknown as MessageReply };
}

describe("localTimeText (product.md §7 time)", () => {
  const now = Date.parse("2026-11-26T21:41:00Z");

  it("writes the sender's own weekday and hour from an ISO time with its offset", () => {
    expect(localTimeText("2026-11-26T22:41:07.123+01:00", now)).toBe("Thursday, 22:41");
    // Past midnight east of UTC: already Friday for the user.
    expect(localTimeText("2026-11-27T06:41:00+09:00", now)).toBe("Friday, 06:41");
    expect(localTimeText("2026-11-26T16:41-0500", now)).toBe("Thursday, 16:41");
  });

  it("says nothing for a missing, malformed, zone-less or far-off time", () => {
    expect(localTimeText(undefined, now)).toBeUndefined();
    expect(localTimeText("yesterday", now)).toBeUndefined();
    expect(localTimeText("2026-11-26T21:41:00Z", now)).toBeUndefined();
    expect(localTimeText("2026-11-26T25:41:00+01:00", now)).toBeUndefined();
    expect(localTimeText("2026-11-28T22:41:00+01:00", now)).toBeUndefined();
    expect(localTimeText("2026-11-26T22:41:00+15:00", now)).toBeUndefined();
  });
});

describeEachDatabase("chat/message pname, ptext and time", (dialect) => {
  let t: TestApp;
  const llm = new ScriptedLlm(() => "Hello!\nSam: a line the model wrote for the user");
  beforeAll(async () => {
    t = await createTestApp({ dialect, llm });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it("calls the user by pname, tells ptext and the local time in this reply's prompt only", async () => {
    const s = await demoWithCharacter(t.app);
    const local = new Date(Date.now() + 60 * 60 * 1000).toISOString().replace("Z", "+01:00");
    const sent = await send(t, s.token, {
      message: "hi",
      id: s.characterId,
      pname: "  Sam ",
      ptext: "a night nurse, just off shift",
      time: local,
    });
    expect(sent.status).toBe(200);
    // The turn's note after the newest message carries them; the system prompt stays as it was.
    const messages = llm.requests.at(-1)!.messages;
    const note = messages.at(-1)!.content;
    expect(note.startsWith("hi\n\n[")).toBe(true);
    expect(note).toContain("goes by Sam.");
    expect(note).toContain("Sam about themself: a night nurse, just off shift");
    expect(note).toContain(`Sam's local time: ${localTimeText(local, Date.now())}.`);
    expect(messages[0]!.content).not.toContain("Sam");
    expect(messages[0]!.content).not.toContain("local time");
    expect(llm.requests.at(-1)!.stop).toContain("\nSam:");
    // The line written for "Sam" is cut like any line written for the user.
    expect(sent.body.text).toBe("Hello!");

    await send(t, s.token, { message: "again", id: s.characterId });
    const plain = llm.requests.at(-1)!.messages;
    expect(plain[0]!.content).toBe(messages[0]!.content);
    expect(plain.map((m) => m.content).join("\n")).not.toContain("Sam");
    expect(plain.map((m) => m.content).join("\n")).not.toContain("local time");
  });

  it("refuses a pname over 50 or a ptext over 300 characters, storing nothing", async () => {
    const s = await demoWithCharacter(t.app);
    const list = async () =>
      (
        await call(t.app, "GET", `/api/chat/history/paginated?id=${s.characterId}&offset=0&limit=10`, {
          token: s.token,
        })
      ).body.data as ChatHistoryEntry[];
    const before = (await list()).length;
    const longName = await send(t, s.token, { message: "hi", id: s.characterId, pname: "x".repeat(51) });
    expect(longName.status).toBe(400);
    const longText = await send(t, s.token, { message: "hi", id: s.characterId, ptext: "x".repeat(301) });
    expect(longText.status).toBe(400);
    expect((await list()).length).toBe(before);
  });
});
