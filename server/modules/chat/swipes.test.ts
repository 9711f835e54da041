import { afterAll, beforeAll, expect, it } from "vitest";
import type { ChatHistoryEntry, MessageReply } from "../../../common/api";
import { FIRST_MESSAGE_MARKER, REPLY_SWIPES_MAX } from "../../../common/constants";
import { call, callMultipart, demoLogin, demoWithCharacter, describeEachDatabase } from "../../testing/api";
import { ScriptedLlm, StreamingLlm } from "../../testing/fake-llm";
import { createTestApp, type TestApp } from "../../testing/server";

/**
 * Swipes / regenerate: a reply regenerated is kept as a further swipe and
 * chosen; the user swipes between them and the chosen one is what the model sees next; each
 * regeneration counts one message; a card's alternate greetings are swipes of the greeting.
 */
describeEachDatabase("swipes and regenerate", (dialect) => {
  let t: TestApp;
  let replies = 0;
  /** Each reply is numbered, so every swipe differs ("Reply 3."). */
  /** The next reply fails (the model is down). */
  let failNext = false;
  const llm = new ScriptedLlm((request) => {
    const speaker = /^You are (\w+)/.exec(request.messages[0]!.content)?.[1] ?? "Someone";
    if (failNext) {
      failNext = false;
      throw new Error("model down");
    }
    replies += 1;
    return `${speaker} reply number ${replies}.`;
  });
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
  const promptText = (index: number) =>
    llm.requests
      .at(index)!
      .messages.map((m) => m.content)
      .join("\n");
  const chatCount = async (userId: string) =>
    (
      await t.db.db
        .selectFrom("users")
        .select("chat_count")
        .where("id", "=", userId)
        .executeTakeFirstOrThrow()
    ).chat_count;

  it("regenerates the newest reply: kept as a swipe, chosen, one message each; the old reply is not in its prompt; a swipe chooses what the model sees next", async () => {
    const s = await demoWithCharacter(t.app);
    const sent = await post(s.token, "/api/chat/message", { message: "tell me a story", id: s.characterId });
    expect(sent.body.success).toBe(1);
    const first = (sent.body as unknown as MessageReply).history![0]!;
    const firstReply = first.chatHistoryReplyMessage;
    const counted = await chatCount(s.userId);

    const again = await post(s.token, "/api/chat/regenerate", { id: first.chatHistoryUUID, mute: "1" });
    expect(again.status).toBe(200);
    const regenerated = (again.body as unknown as MessageReply).history![0]!;
    expect(regenerated.chatHistoryReplyMessage).not.toBe(firstReply);
    expect(regenerated.chatHistorySwipes).toEqual([firstReply, regenerated.chatHistoryReplyMessage]);
    expect(regenerated.chatHistorySwipeIndex).toBe(1);
    expect(await chatCount(s.userId)).toBe(counted + 1);
    // The regeneration's prompt ends with the user's message, without the old reply.
    const regeneratePrompt = promptText(-1);
    expect(regeneratePrompt).toContain("tell me a story");
    expect(regeneratePrompt).not.toContain(firstReply);

    const third = await post(s.token, "/api/chat/regenerate", { id: first.chatHistoryUUID, mute: "1" });
    const thirdReply = (third.body as unknown as MessageReply).history![0]!.chatHistoryReplyMessage;
    expect(promptText(-1)).not.toContain(regenerated.chatHistoryReplyMessage);
    expect(await chatCount(s.userId)).toBe(counted + 2);

    // The history page carries the swipes.
    const shown = (await history(s.token, s.characterId)).find(
      (e) => e.chatHistoryUUID === first.chatHistoryUUID,
    )!;
    expect(shown.chatHistorySwipes).toEqual([firstReply, regenerated.chatHistoryReplyMessage, thirdReply]);
    expect(shown.chatHistorySwipeIndex).toBe(2);
    expect(shown.chatHistoryReplyMessage).toBe(thirdReply);

    // Swipe back to the second: free, and it is what the model sees next.
    const swiped = await post(s.token, "/api/chat/swipe", { id: first.chatHistoryUUID, index: "1" });
    expect(swiped.status).toBe(200);
    const chosen = (swiped.body.history as ChatHistoryEntry[])[0]!;
    expect(chosen.chatHistoryReplyMessage).toBe(regenerated.chatHistoryReplyMessage);
    expect(chosen.chatHistorySwipeIndex).toBe(1);
    expect(await chatCount(s.userId)).toBe(counted + 2);
    expect(
      (await post(s.token, "/api/chat/message", { message: "go on", id: s.characterId })).body.success,
    ).toBe(1);
    const next = promptText(-1);
    expect(next).toContain(regenerated.chatHistoryReplyMessage);
    expect(next).not.toContain(firstReply);
    expect(next).not.toContain(thirdReply);

    // A photo's reply and a check-in (no message in a single chat) are not regenerated.
    const last = (await history(s.token, s.characterId)).at(-1)!.chatHistoryUUID;
    await t.db.db
      .updateTable("chat_history")
      .set({ message_image: "x.jpg" })
      .where("id", "=", last)
      .execute();
    t.caches.forgetAll();
    const photo = await post(s.token, "/api/chat/regenerate", { id: last });
    expect(photo.body.message).toBe("A reply to a photo is not regenerated.");
    await t.db.db
      .updateTable("chat_history")
      .set({ message_image: "", message: "" })
      .where("id", "=", last)
      .execute();
    t.caches.forgetAll();
    const checkin = await post(s.token, "/api/chat/regenerate", { id: last });
    expect(checkin.body.message).toBe("A check-in is not regenerated.");

    // Not the newest any more.
    const old = await post(s.token, "/api/chat/regenerate", { id: first.chatHistoryUUID });
    expect(old.status).toBe(400);
    expect(old.body.message).toBe("Only the newest reply can be regenerated.");
    // An index it does not have.
    const missing = await post(s.token, "/api/chat/swipe", { id: first.chatHistoryUUID, index: "7" });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe("This reply has no such version.");
  });

  it("a failed reply is regenerated without keeping an empty swipe; a continuation stays with its swipe", async () => {
    const s = await demoWithCharacter(t.app);
    failNext = true;
    const sent = await post(s.token, "/api/chat/message", { message: "are you awake", id: s.characterId });
    const id = (sent.body as unknown as MessageReply).history![0]!.chatHistoryUUID;
    expect((await history(s.token, s.characterId)).at(-1)!.chatHistoryStatus).toBe("failed");
    const retried = await post(s.token, "/api/chat/regenerate", { id, mute: "1" });
    const entry = (retried.body as unknown as MessageReply).history![0]!;
    expect(entry.chatHistoryStatus).toBe("replied");
    expect(entry.chatHistorySwipes).toBeUndefined();
    const second = await post(s.token, "/api/chat/regenerate", { id, mute: "1" });
    const two = (second.body as unknown as MessageReply).history![0]!;
    expect(two.chatHistorySwipes).toEqual([entry.chatHistoryReplyMessage, two.chatHistoryReplyMessage]);
    // Continued, swiped away and back: the continuation is kept.
    const continued = await post(s.token, "/api/chat/continue-message", { id });
    const longer = (continued.body as unknown as MessageReply).history![0]!.chatHistoryReplyMessage;
    expect(longer.startsWith(two.chatHistoryReplyMessage)).toBe(true);
    await post(s.token, "/api/chat/swipe", { id, index: "0" });
    const back = await post(s.token, "/api/chat/swipe", { id, index: "1" });
    expect((back.body.history as ChatHistoryEntry[])[0]!.chatHistoryReplyMessage).toBe(longer);
  });

  it("at the quota's limit a regeneration is refused with 429 and the model is not called", async () => {
    const s = await demoWithCharacter(t.app);
    const sent = await post(s.token, "/api/chat/message", { message: "hello there", id: s.characterId });
    const entry = (sent.body as unknown as MessageReply).history![0]!;
    await t.db.db.updateTable("users").set({ chat_count: 15 }).where("id", "=", s.userId).execute();
    t.caches.forgetAll();
    const calls = llm.requests.length;
    const refused = await post(s.token, "/api/chat/regenerate", { id: entry.chatHistoryUUID });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe("quota_reached");
    expect(llm.requests.length).toBe(calls);
    expect(await chatCount(s.userId)).toBe(15);
  });

  it(`keeps at most ${REPLY_SWIPES_MAX} swipes`, async () => {
    const s = await demoWithCharacter(t.app);
    const sent = await post(s.token, "/api/chat/message", { message: "again and again", id: s.characterId });
    const id = (sent.body as unknown as MessageReply).history![0]!.chatHistoryUUID;
    for (let i = 1; i < REPLY_SWIPES_MAX; i++) {
      expect((await post(s.token, "/api/chat/regenerate", { id, mute: "1" })).status).toBe(200);
    }
    const calls = llm.requests.length;
    const refused = await post(s.token, "/api/chat/regenerate", { id, mute: "1" });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(
      `This reply has ${REPLY_SWIPES_MAX} versions already: choose one of them.`,
    );
    expect(llm.requests.length).toBe(calls);
    const shown = (await history(s.token, s.characterId)).find((e) => e.chatHistoryUUID === id)!;
    expect(shown.chatHistorySwipes).toHaveLength(REPLY_SWIPES_MAX);
  });

  it("a greeting is not regenerated; another user's entry is 404 on regenerate and swipe", async () => {
    const s = await demoWithCharacter(t.app);
    const greeting = (await history(s.token, s.characterId)).find(
      (e) => e.chatHistoryMessage === FIRST_MESSAGE_MARKER,
    )!;
    const refused = await post(s.token, "/api/chat/regenerate", { id: greeting.chatHistoryUUID });
    expect(refused.status).toBe(400);
    const other = await demoLogin(t.app);
    for (const url of ["/api/chat/regenerate", "/api/chat/swipe"]) {
      const res = await post(other.token, url, { id: greeting.chatHistoryUUID, index: "0" });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe("Message not found.");
    }
  });

  it("a picture reply is neither regenerated nor continued, a greeting is not continued; none of it is charged or runs the model", async () => {
    const s = await demoWithCharacter(t.app);
    const greeting = (await history(s.token, s.characterId)).find(
      (e) => e.chatHistoryMessage === FIRST_MESSAGE_MARKER,
    )!;
    const calls = llm.requests.length;
    const count = await chatCount(s.userId);
    const greetingContinued = await post(s.token, "/api/chat/continue-message", {
      id: greeting.chatHistoryUUID,
    });
    expect(greetingContinued.status).toBe(400);
    expect(greetingContinued.body.message).toBe("A greeting is not continued.");

    // A reply that is a picture, with words (a reply that sends one) or without (a picture asked for).
    const sent = await post(s.token, "/api/chat/message", {
      message: "send me a picture",
      id: s.characterId,
    });
    const id = (sent.body as unknown as MessageReply).history![0]!.chatHistoryUUID;
    const afterSend = await chatCount(s.userId);
    for (const [reply_message, reply_image, image_loading] of [
      ["Here you go.", "picture.jpg", 0],
      ["", "picture.jpg", 0],
      ["One moment.", "", 1],
    ] as const) {
      await t.db.db
        .updateTable("chat_history")
        .set({ reply_message, reply_image, image_loading })
        .where("id", "=", id)
        .execute();
      t.caches.forgetAll();
      const regenerated = await post(s.token, "/api/chat/regenerate", { id, mute: "1" });
      expect(regenerated.status).toBe(400);
      expect(regenerated.body.message).toBe("A picture is not regenerated.");
      const continued = await post(s.token, "/api/chat/continue-message", { id });
      expect(continued.status).toBe(400);
    }
    expect(await chatCount(s.userId)).toBe(afterSend);
    expect(afterSend).toBe(count + 1);
    expect(llm.requests.length).toBe(calls + 1);
  });

  it("in a group the newest entry of each member can be regenerated, an older one of a member cannot", async () => {
    const s = await demoWithCharacter(t.app);
    const presets = (await call(t.app, "GET", "/api/characters/selection", { token: s.token })).body
      .data as Array<{
      characterPreDefinedUUID: string;
    }>;
    await post(s.token, "/api/characters/create-preselect", { id: presets[4]!.characterPreDefinedUUID });
    const list = (await call(t.app, "GET", "/api/characters/list/", { token: s.token })).body.data as Array<{
      characterUUID: string;
      characterName: string;
    }>;
    const [a, b] = list as [(typeof list)[number], (typeof list)[number]];
    const group = await call(t.app, "GET", `/api/chat/group/new?cId=${a.characterUUID}`, { token: s.token });
    const groupId = group.body.page!.split("/").pop()!;
    await call(t.app, "GET", `/api/chat/group/member/add?gId=${groupId}&cId=${b.characterUUID}`, {
      token: s.token,
    });
    const say = (message: string) => post(s.token, "/api/chat/group/reply", { message, id: groupId });
    // Named first, both answer (the turn order puts named members first).
    expect((await say(`${a.characterName} and ${b.characterName}, hi both`)).body.success).toBe(1);
    expect((await say(`${a.characterName} and ${b.characterName}, how are you?`)).body.success).toBe(1);
    const entries = (await history(s.token, groupId)).filter(
      (e) => e.chatHistoryMessage !== FIRST_MESSAGE_MARKER,
    );
    const newestOf = (id: string) => entries.filter((e) => e.characterUUID === id).at(-1)!;
    const olderOf = (id: string) => entries.filter((e) => e.characterUUID === id).at(-2)!;
    for (const member of [a, b]) {
      const newest = newestOf(member.characterUUID);
      const res = await post(s.token, "/api/chat/regenerate", { id: newest.chatHistoryUUID, mute: "1" });
      expect(res.status).toBe(200);
      const entry = (res.body as unknown as MessageReply).history![0]!;
      expect(entry.chatHistorySwipes).toEqual([
        newest.chatHistoryReplyMessage,
        entry.chatHistoryReplyMessage,
      ]);
      // Its prompt is that member's, without its old reply.
      expect(promptText(-1)).toMatch(new RegExp(`^You are ${member.characterName}`));
      expect(promptText(-1)).not.toContain(newest.chatHistoryReplyMessage);
    }
    const older = await post(s.token, "/api/chat/regenerate", {
      id: olderOf(a.characterUUID).chatHistoryUUID,
    });
    expect(older.status).toBe(400);
    expect(older.body.message).toBe(`Only ${a.characterName}'s newest reply can be regenerated.`);
  });

  it("a card's alternate greetings are swipes of its greeting, free to swipe", async () => {
    const s = await demoLogin(t.app);
    const card = {
      spec: "chara_card_v2",
      spec_version: "2.0",
      data: {
        name: "Mira",
        description: "A lighthouse keeper.",
        first_mes: "Welcome to the lighthouse, {{user}}.",
        alternate_greetings: ["Oh! A visitor in this storm?", "   ", "You found the old stairs, {{user}}."],
      },
    };
    const imported = await callMultipart(t.app, "/api/characters/import", {
      token: s.token,
      files: {
        card: { bytes: Buffer.from(JSON.stringify(card)), filename: "mira.json", type: "application/json" },
      },
    });
    expect(imported.body.success).toBe(1);
    const characterId = (imported.body.data as { characterUUID: string }).characterUUID;
    const greeting = (await history(s.token, characterId)).find(
      (e) => e.chatHistoryMessage === FIRST_MESSAGE_MARKER,
    )!;
    expect(greeting.chatHistorySwipes).toHaveLength(3);
    expect(greeting.chatHistorySwipes![0]).toBe(greeting.chatHistoryReplyMessage);
    expect(greeting.chatHistorySwipes![1]).toBe("Oh! A visitor in this storm?");
    expect(greeting.chatHistorySwipes![2]).toMatch(/^You found the old stairs, (?!\{\{user\}\})/);
    expect(greeting.chatHistorySwipeIndex).toBe(0);
    const before = await chatCount(s.userId);
    const swiped = await post(s.token, "/api/chat/swipe", { id: greeting.chatHistoryUUID, index: "1" });
    expect((swiped.body.history as ChatHistoryEntry[])[0]!.chatHistoryReplyMessage).toBe(
      "Oh! A visitor in this storm?",
    );
    expect(await chatCount(s.userId)).toBe(before);
    const shown = (await history(s.token, characterId)).find(
      (e) => e.chatHistoryUUID === greeting.chatHistoryUUID,
    )!;
    expect(shown.chatHistoryReplyMessage).toBe("Oh! A visitor in this storm?");
    expect(shown.chatHistorySwipeIndex).toBe(1);
  });

  it("the character form takes alternate greetings (a JSON array), checked with sentences", async () => {
    const s = await demoLogin(t.app);
    const presets = (await call(t.app, "GET", "/api/characters/selection", { token: s.token })).body
      .data as Array<{ characterPreDefinedUUID: string }>;
    const created = await post(s.token, "/api/characters/create-preselect", {
      id: presets[0]!.characterPreDefinedUUID,
    });
    const id = (created.body.data as { characterUUID: string }).characterUUID;
    const detail = (await call(t.app, "GET", `/api/characters/?id=${id}`, { token: s.token })).body
      .data as Record<string, string>;
    const form = {
      id,
      name: detail.characterName!,
      sex: detail.characterSex!,
      voice: detail.characterVoice!,
      language: detail.languageUUID!,
      description: detail.characterDescription!,
      greeting: "Hello there, {{user}}.",
    };
    const update = (alternates: string) =>
      post(s.token, "/api/characters/update", { ...form, alternate_greetings: alternates });
    expect((await update("not json")).body.message).toBe(
      "The alternate greetings must be a JSON array of texts.",
    );
    expect((await update(JSON.stringify(Array(REPLY_SWIPES_MAX).fill("Hi")))).body.message).toBe(
      `A character has at most ${REPLY_SWIPES_MAX - 1} alternate greetings.`,
    );
    expect((await update(JSON.stringify(["x".repeat(801)]))).body.message).toBe(
      "Each alternate greeting must be at most 800 characters.",
    );
    expect((await update(JSON.stringify(["Good evening, {{user}}.", "  "]))).body.success).toBe(1);
    const after = (await call(t.app, "GET", `/api/characters/?id=${id}`, { token: s.token })).body.data as {
      characterAlternateGreetings: string[];
    };
    expect(after.characterAlternateGreetings).toEqual(["Good evening, {{user}}."]);
    const greeting = (await history(s.token, id)).find((e) => e.chatHistoryMessage === FIRST_MESSAGE_MARKER)!;
    expect(greeting.chatHistorySwipes).toHaveLength(2);
    expect(greeting.chatHistorySwipes![1]).toMatch(/^Good evening, (?!\{\{user\}\})/);
    // Without the field the stored ones are kept.
    expect((await post(s.token, "/api/characters/update", form)).body.success).toBe(1);
    const kept = (await call(t.app, "GET", `/api/characters/?id=${id}`, { token: s.token })).body.data as {
      characterAlternateGreetings: string[];
    };
    expect(kept.characterAlternateGreetings).toEqual(["Good evening, {{user}}."]);
  });
});

/** Posts a form and reads the server-sent events; `onEvent` may act while the stream runs. */
async function streamed(
  url: string,
  token: string,
  form: Record<string, string>,
  onEvent?: (event: string, data: Record<string, unknown>) => Promise<void> | void,
) {
  const response = await fetch(url, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
    body: new URLSearchParams(form),
  });
  const events: Array<{ event: string; data: Record<string, unknown> }> = [];
  const decoder = new TextDecoder();
  let buffer = "";
  const reader = response.body!.getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let cut = buffer.indexOf("\n\n");
    while (cut >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      if (event) {
        const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? "{}") as Record<string, unknown>;
        events.push({ event, data });
        await onEvent?.(event, data);
      }
      cut = buffer.indexOf("\n\n");
    }
  }
  return events;
}

/**
 * A streamed regeneration is a live reply like any (Stop and the follow route reach
 * it); nothing changes an entry while its reply is generated; a model that gives nothing gives
 * the message back and leaves the reply as it was.
 */
describeEachDatabase("swipes: streamed regeneration", (dialect) => {
  let t: TestApp;
  let base = "";
  const llm = new StreamingLlm();
  beforeAll(async () => {
    t = await createTestApp({ dialect, llm });
    base = await t.app.listen({ port: 0, host: "127.0.0.1" });
  });
  afterAll(async () => {
    await t?.dispose();
  });
  const post = (token: string, url: string, form: Record<string, string>) =>
    call(t.app, "POST", url, { token, form });
  const chatCount = async (userId: string) =>
    (
      await t.db.db
        .selectFrom("users")
        .select("chat_count")
        .where("id", "=", userId)
        .executeTakeFirstOrThrow()
    ).chat_count;

  it("streams entry, tokens and done; while it runs edits are refused and a rewind stops nothing; Stop keeps the part as the new swipe", async () => {
    const s = await demoWithCharacter(t.app);
    llm.reply = "The old reply.";
    const sent = await post(s.token, "/api/chat/message", { message: "hello you", id: s.characterId });
    const id = (sent.body as unknown as MessageReply).history![0]!.chatHistoryUUID;
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    llm.reply = "A brand new reply that goes on and on.";
    llm.gate = async (sent) => {
      if (sent === "A brand ") await held;
    };
    const whileRunning: Record<string, { status: number; message: string }> = {};
    const events = await streamed(
      `${base}/api/chat/regenerate`,
      s.token,
      { id, stream: "1", mute: "1" },
      async (event, data) => {
        if (event !== "token" || data.text !== "brand ") return;
        try {
          for (const [name, url, form] of [
            ["swipe", "/api/chat/swipe", { id, index: "0" }],
            ["edit", "/api/chat/edit", { id, part: "reply", text: "mine" }],
            ["regenerate", "/api/chat/regenerate", { id }],
          ] as const) {
            const res = await post(s.token, url, form);
            whileRunning[name] = { status: res.status, message: res.body.message };
          }
          // Rewinding to the entry removes nothing after it, and stops nothing (Stop below finds
          // the generation still running).
          const rewound = await post(s.token, "/api/chat/rewind", { id });
          expect(rewound.body.removed).toEqual([]);
          // The follow route replays this regeneration's live reply.
          const follow = await fetch(`${base}/api/chat/stream?id=${id}&after=0`, {
            headers: { authorization: `Bearer ${s.token}` },
          });
          const reader = follow.body!.getReader();
          const first = new TextDecoder().decode((await reader.read()).value);
          expect(first).toContain("event: entry");
          await reader.cancel();
          expect((await post(s.token, "/api/chat/stop", { id })).body.message).toBe("Stopped.");
        } finally {
          release();
        }
      },
    );
    llm.gate = async () => {};
    for (const name of ["swipe", "edit", "regenerate"]) {
      expect(whileRunning[name], name).toEqual({
        status: 400,
        message: "This reply is still being generated.",
      });
    }
    expect(events[0]!.event).toBe("entry");
    expect(events[0]!.data).toMatchObject({ chatHistoryUUID: id, chatHistoryReplyMessage: "" });
    const done = events.at(-1)!;
    expect(done.event).toBe("done");
    const entry = (done.data as unknown as MessageReply).history![0]!;
    expect(entry.chatHistoryStatus).toBe("stopped");
    expect(entry.chatHistoryReplyMessage).toMatch(/^A brand/);
    expect(entry.chatHistorySwipes).toEqual(["The old reply.", entry.chatHistoryReplyMessage]);
    expect(entry.chatHistorySwipeIndex).toBe(1);
  });

  it("a rewind that removes an entry being regenerated stops that generation, and gives its message back", async () => {
    const s = await demoWithCharacter(t.app);
    llm.reply = "Earlier reply.";
    const earlier = await post(s.token, "/api/chat/message", { message: "first words", id: s.characterId });
    const earlierId = (earlier.body as unknown as MessageReply).history![0]!.chatHistoryUUID;
    llm.reply = "The newest reply.";
    const newest = await post(s.token, "/api/chat/message", { message: "second words", id: s.characterId });
    const id = (newest.body as unknown as MessageReply).history![0]!.chatHistoryUUID;
    const counted = await chatCount(s.userId);
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    llm.reply = "Regenerated words that never finish.";
    llm.gate = async (sent) => {
      if (sent === "Regenerated ") await held;
    };
    let removed: unknown;
    const events = await streamed(
      `${base}/api/chat/regenerate`,
      s.token,
      { id, stream: "1", mute: "1" },
      async (event) => {
        if (event !== "token") return;
        try {
          removed = (await post(s.token, "/api/chat/rewind", { id: earlierId })).body.removed;
        } finally {
          release();
        }
      },
    );
    llm.gate = async () => {};
    expect(removed).toEqual([id]);
    // Stopped: the model's run was aborted.
    expect(llm.requests.at(-1)!.signal?.aborted).toBe(true);
    const done = events.at(-1)!;
    expect(done.event).toBe("done");
    expect(done.data).toMatchObject({ success: 0, message: "This message was deleted." });
    expect(await chatCount(s.userId)).toBe(counted);
    const rows = await t.db.db
      .selectFrom("chat_reply_swipes")
      .select("id")
      .where("entry_id", "=", id)
      .execute();
    expect(rows).toEqual([]);
  });

  it("a model that gives nothing gives the message back and leaves the reply as it was", async () => {
    const s = await demoWithCharacter(t.app);
    llm.reply = "Still here.";
    const sent = await post(s.token, "/api/chat/message", { message: "are you there", id: s.characterId });
    const id = (sent.body as unknown as MessageReply).history![0]!.chatHistoryUUID;
    const counted = await chatCount(s.userId);
    llm.reply = "";
    const res = await post(s.token, "/api/chat/regenerate", { id, mute: "1" });
    llm.reply = "Hi there!";
    expect(res.body.success).toBe(0);
    const entry = (res.body as unknown as MessageReply).history![0]!;
    expect(entry.chatHistoryReplyMessage).toBe("Still here.");
    expect(entry.chatHistorySwipes).toBeUndefined();
    expect(await chatCount(s.userId)).toBe(counted);
  });
});

/** A regenerated reply is spoken unless muted, its audio kept per swipe. */
describeEachDatabase("swipes: spoken swipes", (dialect) => {
  let t: TestApp;
  let replies = 0;
  const llm = new ScriptedLlm(() => {
    replies += 1;
    return replies % 2 ? "Sunny skies all day." : "Rain is coming soon.";
  });
  beforeAll(async () => {
    t = await createTestApp({ dialect, llm, env: { TTS_PROVIDER: "espeak" } });
  });
  afterAll(async () => {
    await t?.dispose();
  });
  const post = (token: string, url: string, form: Record<string, string>) =>
    call(t.app, "POST", url, { token, form });

  it("each swipe keeps its own audio, and a swipe brings it back", async () => {
    const s = await demoWithCharacter(t.app);
    const sent = await post(s.token, "/api/chat/message", { message: "the weather?", id: s.characterId });
    const first = (sent.body as unknown as MessageReply).history![0]!;
    expect(first.chatHistoryReplyAudioUrl).toMatch(/^\/content\/voice\//);
    const again = await post(s.token, "/api/chat/regenerate", { id: first.chatHistoryUUID });
    const reply = again.body as unknown as MessageReply;
    expect(reply.audioUrl).toMatch(/^\/content\/voice\//);
    expect(reply.audioUrl).not.toBe(first.chatHistoryReplyAudioUrl);
    expect(reply.history![0]!.chatHistoryReplyAudioUrl).toBe(reply.audioUrl);
    const back = await post(s.token, "/api/chat/swipe", { id: first.chatHistoryUUID, index: "0" });
    expect((back.body.history as ChatHistoryEntry[])[0]!.chatHistoryReplyAudioUrl).toBe(
      first.chatHistoryReplyAudioUrl,
    );
    const forth = await post(s.token, "/api/chat/swipe", { id: first.chatHistoryUUID, index: "1" });
    expect((forth.body.history as ChatHistoryEntry[])[0]!.chatHistoryReplyAudioUrl).toBe(reply.audioUrl);
    // Muted: nothing spoken.
    const muted = await post(s.token, "/api/chat/regenerate", { id: first.chatHistoryUUID, mute: "1" });
    expect((muted.body as unknown as MessageReply).audioUrl).toBe("");
  });
});
