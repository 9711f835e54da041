import { afterAll, beforeAll, expect, it } from "vitest";
import type { ChatHistoryEntry, MessageReply } from "../../../common/api";
import { FIRST_MESSAGE_MARKER, REPLY_EDIT_MAX_LENGTH } from "../../../common/constants";
import { call, demoLogin, demoWithCharacter, describeEachDatabase } from "../../testing/api";
import { ScriptedLlm, StreamingLlm } from "../../testing/fake-llm";
import { createTestApp, type TestApp } from "../../testing/server";

/**
 * Edit, delete and rewind: the user edits their message or a reply's text, deletes an
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

  it("an edited regenerated reply replaces the chosen swipe", async () => {
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
      chatHistorySwipes: ["First version.", "My own words."],
      chatHistorySwipeIndex: 1,
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

/**
 * Edits, deletes and rewinds refresh the memory. Facts record the chat and the newest
 * message they were drawn from; the facts of removed messages go, the rest are drawn again; a
 * summary that covers a changed entry is cleared and rewritten from what is left.
 */
describeEachDatabase("edit, delete and rewind: memory drawn again", (dialect) => {
  let t: TestApp;
  let summaries = 0;
  /** Summary requests' transcripts. */
  const transcripts: string[] = [];
  const llm = new ScriptedLlm((request) => {
    const system = request.messages[0]!.content;
    const last = request.messages.at(-1)!.content;
    if (system.startsWith("Extract lasting facts")) {
      // One fact per "my pet is <Name>" line.
      const names = [...last.matchAll(/my pet is (\w+)/g)].map((m) => `Guest has a pet called ${m[1]}.`);
      return JSON.stringify(names);
    }
    if (system.startsWith("You keep the memory")) {
      summaries += 1;
      transcripts.push(last);
      return `Summary ${summaries}.`;
    }
    return "Okay!";
  });
  beforeAll(async () => {
    t = await createTestApp({ dialect, llm });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  const post = (token: string, url: string, form: Record<string, string>) =>
    call(t.app, "POST", url, { token, form });
  const say = async (token: string, chatId: string, message: string) => {
    const res = await post(token, "/api/chat/message", { message, id: chatId });
    expect(res.body.success).toBe(1);
    return (res.body as unknown as MessageReply).history![0]!;
  };
  const facts = async (userId: string) =>
    (await t.db.db.selectFrom("memories").select("fact").where("user_id", "=", userId).execute())
      .map((r) => r.fact)
      .sort();
  const session = (userId: string) =>
    t.db.db
      .selectFrom("chat_sessions")
      .select(["summary", "summary_until_seq", "facts_until_seq"])
      .where("user_id", "=", userId)
      .executeTakeFirstOrThrow();

  it("a rewind drops the facts drawn from the removed messages and draws the rest again", async () => {
    const s = await demoWithCharacter(t.app);
    // One extraction takes FACTS_BATCH messages and keeps at most 5 facts: the fourth tells none.
    const names = ["Amber", "Basil", "Cedar", "", "Ember", "Fern"];
    const entries: ChatHistoryEntry[] = [];
    for (const name of names) {
      const words = name ? `I think my pet is ${name} today` : "I think my garden is lovely today";
      entries.push(await say(s.token, s.characterId, words));
    }
    await t.jobs.idle();
    expect(await facts(s.userId)).toEqual(names.filter(Boolean).map((n) => `Guest has a pet called ${n}.`));
    const stored = await t.db.db
      .selectFrom("memories")
      .select(["session_id", "source_seq"])
      .where("user_id", "=", s.userId)
      .execute();
    expect(stored.every((f) => f.session_id !== "" && Number(f.source_seq) > 0)).toBe(true);

    // Rewind to the third: the fourth to sixth are gone, and so is what was drawn from them.
    const rewound = await post(s.token, "/api/chat/rewind", { id: entries[2]!.chatHistoryUUID });
    expect(rewound.body.removed).toHaveLength(3);
    await t.jobs.idle();
    expect(await facts(s.userId)).toEqual(names.slice(0, 3).map((n) => `Guest has a pet called ${n}.`));

    // Editing the second message draws its facts again from the new words.
    const edited = await post(s.token, "/api/chat/edit", {
      id: entries[1]!.chatHistoryUUID,
      part: "message",
      text: "I think my pet is Bramble today",
    });
    expect(edited.status).toBe(200);
    await t.jobs.idle();
    expect(await facts(s.userId)).toEqual(
      ["Amber", "Bramble", "Cedar"].map((n) => `Guest has a pet called ${n}.`),
    );
    // Deleting the first forgets it.
    await post(s.token, "/api/chat/delete", { id: entries[0]!.chatHistoryUUID });
    await t.jobs.idle();
    expect(await facts(s.userId)).toEqual(["Bramble", "Cedar"].map((n) => `Guest has a pet called ${n}.`));
  });

  it("a summary that covers a removed message is cleared and written again from what is left", async () => {
    const s = await demoWithCharacter(t.app);
    await t.db.db.updateTable("users").set({ chat_limit: 1000 }).where("id", "=", s.userId).execute();
    t.caches.forgetAll();
    const entries: ChatHistoryEntry[] = [];
    for (let i = 0; i < 32; i++)
      entries.push(await say(s.token, s.characterId, `small talk number ${i} here`));
    await t.jobs.idle();
    const first = await session(s.userId);
    expect(first.summary).toMatch(/^Summary \d+\.$/);
    expect(Number(first.summary_until_seq)).toBeGreaterThan(0);
    expect(transcripts.at(-1)).toContain("small talk number 5 here");
    const written = summaries;

    // A message the summary covers is deleted: cleared, then rewritten without it.
    await post(s.token, "/api/chat/delete", { id: entries[5]!.chatHistoryUUID });
    await t.jobs.idle();
    const after = await session(s.userId);
    expect(summaries).toBe(written + 1);
    expect(after.summary).toBe(`Summary ${summaries}.`);
    expect(transcripts.at(-1)).not.toContain("small talk number 5 here");
    expect(transcripts.at(-1)).toContain("small talk number 4 here");

    // A change after what the summary covers leaves it as it is.
    await post(s.token, "/api/chat/edit", { id: entries[31]!.chatHistoryUUID, part: "reply", text: "Fine." });
    await t.jobs.idle();
    expect((await session(s.userId)).summary).toBe(after.summary);
    expect(summaries).toBe(written + 1);
  });
});
