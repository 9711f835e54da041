import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { MessageReply } from "../common/api";
import { CONTINUE_MAX_PER_REPLY } from "../common/constants";
import { writePngTextChunks } from "../server/modules/characters/png-chunks";
import type { GenerateRequest } from "../server/providers/llm/llm";
import {
  call,
  callMultipart,
  demoLogin,
  demoWithCharacter,
  describeEachDatabase,
} from "../server/testing/api";
import { ScriptedLlm } from "../server/testing/fake-llm";
import { createTestApp, type TestApp } from "../server/testing/server";

/**
 * And the quota part of item 9, attacked through the API on both databases:
 * every model run is accounted (Continue at the limit, Continue without end), a refund goes back
 * to the period it was charged to, and the plan's photo flag (pl) holds for imported card pictures.
 */

/** What the scripted model does with the next chat reply (memory work is answered "[]"). */
type Mode = "reply" | "continue" | "silent" | "fail" | "fail-after-midnight";

const today = () => new Date().toISOString().slice(0, 10);
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);

describeEachDatabase("quota: every model run is accounted", (dialect) => {
  let t: TestApp;
  const state = { mode: "reply" as Mode, chatCalls: 0, userId: "" };
  const isChatReply = (request: GenerateRequest) => request.messages[0]!.content.startsWith("You are");
  const llm = new ScriptedLlm(async (request) => {
    if (!isChatReply(request)) return "[]";
    state.chatCalls += 1;
    switch (state.mode) {
      case "reply":
        return "Hello there, lovely to see you.";
      case "continue":
        return " And one more thing.";
      case "silent":
        return "";
      case "fail":
        throw new Error("the model fell over");
      case "fail-after-midnight":
        // The clock passed 00:00 UTC while the model ran, and the user sent a message of the new
        // day meanwhile: the new day has its own count.
        await t.db.db
          .updateTable("users")
          .set({ chat_period: tomorrow(), chat_count: 1 })
          .where("id", "=", state.userId)
          .execute();
        throw new Error("the model fell over after midnight");
    }
  });

  beforeAll(async () => {
    t = await createTestApp({ dialect, llm });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  const quota = (userId: string) =>
    t.db.db
      .selectFrom("users")
      .select(["chat_count", "chat_period", "chat_limit", "extra_messages"])
      .where("id", "=", userId)
      .executeTakeFirstOrThrow();
  const setQuota = (
    userId: string,
    values: { chat_count?: number; chat_period?: string; extra_messages?: number },
  ) => t.db.db.updateTable("users").set(values).where("id", "=", userId).execute();

  /** A demo user with one exchange; @returns the session and the replied entry's id. */
  async function withReply() {
    const s = await demoWithCharacter(t.app);
    state.mode = "reply";
    const sent = await call(t.app, "POST", "/api/chat/message", {
      token: s.token,
      form: { message: "Tell me about your day", id: s.characterId },
    });
    expect(sent.body.success).toBe(1);
    const entryId = (sent.body as unknown as MessageReply).history![0]!.chatHistoryUUID;
    await t.jobs.idle();
    return { ...s, entryId };
  }
  const continueReply = (token: string, id: string) =>
    call(t.app, "POST", "/api/chat/continue-message", { token, form: { id } });

  it("at the limit, continue-message is refused with the quota's 429 and the model is not run", async () => {
    const s = await withReply();
    const { chat_limit } = await quota(s.userId);
    await setQuota(s.userId, { chat_count: chat_limit });
    state.mode = "continue";
    const calls = state.chatCalls;
    for (let i = 0; i < 3; i++) {
      const refused = await continueReply(s.token, s.entryId);
      expect(refused.status).toBe(429);
      expect(refused.body).toEqual({
        success: 0,
        message: `You have reached your limit of ${chat_limit} messages for today. Upgrade your plan to chat more.`,
        code: "quota_reached",
        page: "/pricing",
      });
    }
    expect(state.chatCalls).toBe(calls);
    expect((await quota(s.userId)).chat_count).toBe(chat_limit);
  });

  it("a continuation counts one message of the quota", async () => {
    const s = await withReply();
    const before = (await quota(s.userId)).chat_count;
    state.mode = "continue";
    const calls = state.chatCalls;
    const continued = await continueReply(s.token, s.entryId);
    expect(continued.body).toMatchObject({ success: 1, text: expect.stringContaining("one more thing") });
    expect(state.chatCalls).toBe(calls + 1);
    expect((await quota(s.userId)).chat_count).toBe(before + 1);
  });

  it(`one reply can be continued ${CONTINUE_MAX_PER_REPLY} times; the next is refused and runs nothing`, async () => {
    const s = await withReply();
    state.mode = "continue";
    for (let i = 0; i < CONTINUE_MAX_PER_REPLY; i++) {
      expect((await continueReply(s.token, s.entryId)).body.success).toBe(1);
    }
    const count = (await quota(s.userId)).chat_count;
    const calls = state.chatCalls;
    const refused = await continueReply(s.token, s.entryId);
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      success: 0,
      message: "This reply cannot be continued any more.",
      code: "continue_limit",
    });
    expect(state.chatCalls).toBe(calls);
    expect((await quota(s.userId)).chat_count).toBe(count);
  });

  it("a continuation that produces nothing, or fails, gives its message back", async () => {
    const s = await withReply();
    const before = (await quota(s.userId)).chat_count;
    for (const mode of ["silent", "fail"] as const) {
      state.mode = mode;
      const answer = await continueReply(s.token, s.entryId);
      expect(answer.body.success).toBe(0);
      expect((await quota(s.userId)).chat_count).toBe(before);
    }
    // Nothing was added, so the reply can still be continued its full number of times.
    state.mode = "continue";
    for (let i = 0; i < CONTINUE_MAX_PER_REPLY; i++) {
      expect((await continueReply(s.token, s.entryId)).body.success).toBe(1);
    }
    expect((await quota(s.userId)).chat_count).toBe(before + CONTINUE_MAX_PER_REPLY);
  });

  it("a streamed continue at the limit ends with the 429 error event and runs nothing", async () => {
    const s = await withReply();
    const { chat_limit } = await quota(s.userId);
    await setQuota(s.userId, { chat_count: chat_limit });
    const calls = state.chatCalls;
    const response = await t.app.inject({
      method: "POST",
      url: "/api/chat/continue-message",
      headers: {
        authorization: `Bearer ${s.token}`,
        accept: "text/event-stream",
        "content-type": "application/x-www-form-urlencoded",
      },
      payload: new URLSearchParams({ id: s.entryId }).toString(),
    });
    expect(response.body).toContain("event: error");
    expect(response.body).toContain('"status":429');
    expect(state.chatCalls).toBe(calls);
  });

  it("a reply that fails after midnight is refunded to the day it was charged, not the new day", async () => {
    const s = await demoWithCharacter(t.app);
    state.userId = s.userId;
    await setQuota(s.userId, { chat_count: 4, chat_period: today() });
    state.mode = "fail-after-midnight";
    const sent = await call(t.app, "POST", "/api/chat/message", {
      token: s.token,
      form: { message: "Are you still awake?", id: s.characterId },
    });
    expect(sent.body.success).toBe(0);
    // The new day's one message stays counted.
    expect(await quota(s.userId)).toMatchObject({ chat_period: tomorrow(), chat_count: 1 });
  });

  it("an add-on message is given back even when the failure crosses midnight", async () => {
    const s = await demoWithCharacter(t.app);
    state.userId = s.userId;
    const { chat_limit } = await quota(s.userId);
    await setQuota(s.userId, { chat_count: chat_limit, chat_period: today(), extra_messages: 2 });
    state.mode = "fail-after-midnight";
    const sent = await call(t.app, "POST", "/api/chat/message", {
      token: s.token,
      form: { message: "Still there?", id: s.characterId },
    });
    expect(sent.body.success).toBe(0);
    expect(await quota(s.userId)).toMatchObject({ chat_count: 1, extra_messages: 2 });
  });
});

/** A Character Card V2 PNG as other tools make it: a plain picture with a base64 `chara` chunk. */
async function cardV2Png(name: string): Promise<Buffer> {
  const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#5b5f97" } })
    .png()
    .toBuffer();
  const card = {
    spec: "chara_card_v2",
    spec_version: "2.0",
    data: {
      name,
      description: "A lighthouse keeper who collects stories.",
      personality: "Calm",
      scenario: "",
      first_mes: "Welcome to the lighthouse, {{user}}.",
      mes_example: "",
    },
  };
  return writePngTextChunks(png, { chara: Buffer.from(JSON.stringify(card)).toString("base64") });
}

describeEachDatabase("plan flags hold for imported character cards", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  /** Imports a card as a fresh demo user (Free: pl 0); @returns the stored photo's mean colour and the character. */
  async function importAs(photoUpload: 0 | 1) {
    const s = await demoLogin(t.app);
    await t.db.db
      .updateTable("users")
      .set({ photo_upload: photoUpload })
      .where("id", "=", s.userId)
      .execute();
    const imported = await callMultipart(t.app, "/api/characters/import", {
      token: s.token,
      files: { card: { bytes: await cardV2Png("Keeper Ilse"), filename: "ilse.png", type: "image/png" } },
    });
    expect(imported.body.success).toBe(1);
    const id = (imported.body.data as { characterUUID: string }).characterUUID;
    const character = await t.db.db
      .selectFrom("characters")
      .selectAll()
      .where("id", "=", id)
      .executeTakeFirstOrThrow();
    // Through the app's storage: the local disk, or S3 on the shared stack.
    const file = await t.storage.read(`characters/${character.photo}`);
    if (!file) throw new Error(`no stored photo ${character.photo}`);
    const stats = await sharp(file).stats();
    const [r, g, b] = stats.channels.map((c) => c.mean);
    return { character, colour: { r: r!, g: g!, b: b! }, uniform: stats.channels[0]!.stdev < 2 };
  }
  const isCardPicture = (c: { r: number; g: number; b: number }) =>
    Math.abs(c.r - 0x5b) < 6 && Math.abs(c.g - 0x5f) < 6 && Math.abs(c.b - 0x97) < 6;

  it("a Free user (pl 0) importing a card PNG gets the default picture and everything else of the card", async () => {
    const { character, colour, uniform } = await importAs(0);
    expect(isCardPicture(colour)).toBe(false);
    // The default picture is a drawn avatar, not a flat colour.
    expect(uniform).toBe(false);
    expect(character).toMatchObject({
      name: "Keeper Ilse",
      description: expect.stringContaining("lighthouse keeper"),
      greeting: expect.stringContaining("Welcome to the lighthouse"),
    });
    expect(JSON.parse(character.card ?? "{}")).toMatchObject({ personality: "Calm" });
  });

  it("with pl 1 the card's picture becomes the photo", async () => {
    const { colour } = await importAs(1);
    expect(isCardPicture(colour)).toBe(true);
  });
});
