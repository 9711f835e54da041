import { afterAll, beforeAll, expect, it } from "vitest";
import type { ChatHistoryEntry, MessageReply } from "../../../common/api";
import { FIRST_MESSAGE_MARKER, REPLY_EDIT_MAX_LENGTH } from "../../../common/constants";
import { call, demoLogin, demoWithCharacter, describeEachDatabase } from "../../testing/api";
import { StreamingLlm } from "../../testing/fake-llm";
import { createTestApp, type TestApp } from "../../testing/server";

/**
 * Issue 17 "Edit, delete and rewind": the user edits their message or a reply's text, deletes an
 * entry or rewinds the chat to one (everything after it removed with its pictures); memory drawn
 * from what changed is drawn again.
 */
describeEachDatabase("edit, delete and rewind", (dialect) => {
  let t: TestApp;
  const llm = new StreamingLlm();
  beforeAll(async () => {
    t = await createTestApp({ dialect, llm });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  const post = (token: string, url: string, form: Record<string, string>) =>
    call(t.app, "POST", url, { token, form });
  const history = async (token: string, id: string) =>
    (await call(t.app, "GET", `/api/chat/history/paginated?id=${id}&offset=0&limit=50`, { token })).body
      .data as ChatHistoryEntry[];
  const say = async (token: string, chatId: string, message: string) => {
    const res = await post(token, "/api/chat/message", { message, id: chatId });
    expect(res.body.success).toBe(1);
    return (res.body as unknown as MessageReply).history![0]!;
  };
  const promptText = () =>
    llm.requests
      .at(-1)!
      .messages.map((m) => m.content)
      .join("\n");

  it("edits the user's message and the reply's text with the form's sentences; the model sees the edits", async () => {
    const s = await demoWithCharacter(t.app);
    const entry = await say(s.token, s.characterId, "I like tea");
    const id = entry.chatHistoryUUID;

    const empty = await post(s.token, "/api/chat/edit", { id, part: "message", text: "   " });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe("The message is empty.");
    const long = await post(s.token, "/api/chat/edit", { id, part: "message", text: "x".repeat(151) });
    expect(long.body.message).toBe("The message must be at most 150 characters.");
    const blankReply = await post(s.token, "/api/chat/edit", { id, part: "reply", text: "" });
    expect(blankReply.body.message).toBe("The reply is empty.");
    const longReply = await post(s.token, "/api/chat/edit", {
      id,
      part: "reply",
      text: "y".repeat(REPLY_EDIT_MAX_LENGTH + 1),
    });
    expect(longReply.body.message).toBe(`The reply must be at most ${REPLY_EDIT_MAX_LENGTH} characters.`);
    const badPart = await post(s.token, "/api/chat/edit", { id, part: "photo", text: "hi" });
    expect(badPart.status).toBe(400);

    const message = await post(s.token, "/api/chat/edit", { id, part: "message", text: "  I like coffee  " });
    expect(message.status).toBe(200);
    expect((message.body.history as ChatHistoryEntry[])[0]!.chatHistoryMessage).toBe("I like coffee");
    const reply = await post(s.token, "/api/chat/edit", { id, part: "reply", text: "Coffee it is, then." });
    expect((reply.body.history as ChatHistoryEntry[])[0]!).toMatchObject({
      chatHistoryReplyMessage: "Coffee it is, then.",
      chatHistoryReplyAudioUrl: "",
    });
    await say(s.token, s.characterId, "what do I like?");
    expect(promptText()).toContain("I like coffee");
    expect(promptText()).toContain("Coffee it is, then.");
    expect(promptText()).not.toContain("I like tea");

    // A greeting has no message of the user's.
    const greeting = (await history(s.token, s.characterId)).find(
      (e) => e.chatHistoryMessage === FIRST_MESSAGE_MARKER,
    )!;
    const refused = await post(s.token, "/api/chat/edit", {
      id: greeting.chatHistoryUUID,
      part: "message",
      text: "hi",
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe("This entry has no message of yours to edit.");
  });

  it("an edited regenerated reply replaces the chosen alternative", async () => {
    const s = await demoWithCharacter(t.app);
    llm.reply = "First version.";
    const entry = await say(s.token, s.characterId, "say something");
    llm.reply = "Second version.";
    expect(
      (await post(s.token, "/api/chat/regenerate", { id: entry.chatHistoryUUID, mute: "1" })).status,
    ).toBe(200);
    llm.reply = "Hi there!";
    const edited = await post(s.token, "/api/chat/edit", {
      id: entry.chatHistoryUUID,
      part: "reply",
      text: "My own words.",
    });
    expect((edited.body.history as ChatHistoryEntry[])[0]).toMatchObject({
      chatHistoryReplyMessage: "My own words.",
      chatHistoryAlternatives: ["First version.", "My own words."],
      chatHistoryAlternativeIndex: 1,
    });
  });

  it("delete removes the entry and its files; rewind removes every later entry with theirs, nothing before", async () => {
    const s = await demoWithCharacter(t.app);
    const one = await say(s.token, s.characterId, "alpha one");
    const two = await say(s.token, s.characterId, "bravo two");
    const three = await say(s.token, s.characterId, "charlie three");
    const four = await say(s.token, s.characterId, "delta four");
    // Pictures of the entries (as a photo upload and a picture reply store them).
    const files: Record<string, string[]> = {};
    for (const [i, entry] of [one, two, three, four].entries()) {
      const photo = `photo-${i}-${dialect}.jpg`;
      const picture = `picture-${i}-${dialect}.jpg`;
      await t.storage.put(`${s.characterId}/user_photo/${photo}`, Buffer.from("jpeg"));
      await t.storage.put(`${s.characterId}/${picture}`, Buffer.from("jpeg"));
      await t.db.db
        .updateTable("chat_history")
        .set({ message_image: photo, reply_image: picture })
        .where("id", "=", entry.chatHistoryUUID)
        .execute();
      files[entry.chatHistoryUUID] = [`${s.characterId}/user_photo/${photo}`, `${s.characterId}/${picture}`];
    }
    t.caches.forgetAll();
    const stored = async () => new Set(await t.storage.list(s.characterId));

    const deleted = await post(s.token, "/api/chat/delete", { id: two.chatHistoryUUID });
    expect(deleted.status).toBe(200);
    expect(deleted.body.removed).toEqual([two.chatHistoryUUID]);
    let left = (await history(s.token, s.characterId)).map((e) => e.chatHistoryMessage);
    expect(left).toEqual([FIRST_MESSAGE_MARKER, "alpha one", "charlie three", "delta four"]);
    let keys = await stored();
    for (const key of files[two.chatHistoryUUID]!) expect(keys.has(key)).toBe(false);
    for (const key of files[one.chatHistoryUUID]!) expect(keys.has(key)).toBe(true);

    const rewound = await post(s.token, "/api/chat/rewind", { id: one.chatHistoryUUID });
    expect(rewound.status).toBe(200);
    expect(rewound.body.removed).toEqual([three.chatHistoryUUID, four.chatHistoryUUID]);
    left = (await history(s.token, s.characterId)).map((e) => e.chatHistoryMessage);
    expect(left).toEqual([FIRST_MESSAGE_MARKER, "alpha one"]);
    keys = await stored();
    for (const entry of [three, four])
      for (const key of files[entry.chatHistoryUUID]!) expect(keys.has(key)).toBe(false);
    for (const key of files[one.chatHistoryUUID]!) expect(keys.has(key)).toBe(true);
    // The model sees what is left.
    await say(s.token, s.characterId, "echo five");
    expect(promptText()).toContain("alpha one");
    expect(promptText()).not.toContain("delta four");
    expect(promptText()).not.toContain("bravo two");
    // Rewinding to the newest removes nothing.
    const none = await post(s.token, "/api/chat/rewind", {
      id: (await history(s.token, s.characterId)).at(-1)!.chatHistoryUUID,
    });
    expect(none.body.removed).toEqual([]);
  });

  it("every route answers 404 for another user's entry and changes nothing", async () => {
    const s = await demoWithCharacter(t.app);
    const entry = await say(s.token, s.characterId, "mine only");
    const other = await demoLogin(t.app);
    const id = entry.chatHistoryUUID;
    for (const [url, form] of [
      ["/api/chat/regenerate", { id }],
      ["/api/chat/swipe", { id, index: "0" }],
      ["/api/chat/edit", { id, part: "message", text: "hacked" }],
      ["/api/chat/edit", { id, part: "reply", text: "hacked" }],
      ["/api/chat/delete", { id }],
      ["/api/chat/rewind", { id }],
    ] as const) {
      const res = await post(other.token, url, form);
      expect(res.status, url).toBe(404);
      expect(res.body.message).toBe("Message not found.");
    }
    const after = (await history(s.token, s.characterId)).find((e) => e.chatHistoryUUID === id)!;
    expect(after.chatHistoryMessage).toBe("mine only");
    expect(after.chatHistoryReplyMessage).toBe(entry.chatHistoryReplyMessage);
  });
});
