import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, demoLogin, demoWithCharacter, describeEachDatabase } from "../../testing/api";
import { type CompletionsRequest, startScriptedCompletions } from "../../testing/completions-server";
import { createTestApp, type TestApp } from "../../testing/server";
import { CheckinsRepo } from "./checkins.repo";
import { CheckinsService, isAwake, isTimeZone, localHour, nextWakingTime } from "./checkins.service";

const HOUR = 3_600_000;
const CHECK_IN = "How did the interview go?";

/** A fixed-offset IANA zone ("Etc/GMT-3" is UTC+3) where `at` (epoch ms) is `hour` o'clock local time. */
function zoneWhere(at: number, hour: number): string {
  for (let offset = -12; offset <= 14; offset++) {
    const zone = offset === 0 ? "Etc/GMT" : `Etc/GMT${offset > 0 ? "-" : "+"}${Math.abs(offset)}`;
    if (localHour(at, zone) === hour) return zone;
  }
  throw new Error(`no zone has ${hour} o'clock at ${new Date(at).toISOString()}`);
}

describe("check-in waking hours", () => {
  it("knows IANA zones and the 09:00-21:00 window", () => {
    expect(isTimeZone("Europe/Berlin")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
    expect(isTimeZone("")).toBe(false);
    const at = Date.UTC(2026, 10, 26, 6, 0);
    expect(isAwake(at, "Europe/Berlin")).toBe(false); // 07:00
    expect(isAwake(at + 2 * HOUR, "Europe/Berlin")).toBe(true); // 09:00
    expect(isAwake(Date.UTC(2026, 10, 26, 20, 0), "Europe/Berlin")).toBe(false); // 21:00
    expect(nextWakingTime(at, "Europe/Berlin")).toBe(at + 2 * HOUR);
    // UTC+5:30: 07:30 local, the next 09:00 is at 03:30 UTC.
    expect(nextWakingTime(Date.UTC(2026, 10, 26, 2, 0), "Asia/Kolkata")).toBe(Date.UTC(2026, 10, 26, 3, 30));
  });
});

describeEachDatabase("check-ins: characters that write first", (dialect) => {
  let t: TestApp;
  let llm: Awaited<ReturnType<typeof startScriptedCompletions>>;
  const script = (request: CompletionsRequest) => {
    const last = request.messages.at(-1)!.content;
    if (last.includes("checks in on")) return CHECK_IN;
    return "[]";
  };
  beforeAll(async () => {
    llm = await startScriptedCompletions(script);
    t = await createTestApp({
      dialect,
      env: { LLM_PROVIDER: "openai", LLM_BASE_URL: llm.baseUrl, LLM_MODEL: "scripted" },
    });
    await t.llmReady;
  });
  afterAll(async () => {
    await t?.dispose();
    await llm?.close();
  });

  const choose = (token: string, id: string, enabled: boolean, timeZone: string) =>
    call(t.app, "POST", "/api/chat/checkins", {
      token,
      form: { id, enabled: enabled ? "1" : "0", timeZone },
    });

  /** The chat's entries, oldest first. */
  const entries = async (userId: string, characterId: string) =>
    t.db.db
      .selectFrom("chat_history as h")
      .innerJoin("chat_sessions as s", "s.id", "h.session_id")
      .select(["h.message", "h.reply_message", "h.status", "h.send_time", "h.reply_time"])
      .where("s.user_id", "=", userId)
      .where("s.chat_key", "=", characterId)
      .orderBy("h.seq")
      .execute();
  const checkIns = async (userId: string, characterId: string) =>
    (await entries(userId, characterId)).filter((e) => e.message === "" && e.reply_message === CHECK_IN);
  /** The time of the chat's last message (its send or reply time), epoch ms. */
  const lastAt = async (userId: string, characterId: string) =>
    Math.max(...(await entries(userId, characterId)).map((e) => Number(e.reply_time ?? e.send_time)));

  /** A user with a character, a fact it remembers, one exchange, opted in with `zone`. */
  async function chatting() {
    const s = await demoWithCharacter(t.app);
    await t.db.db
      .insertInto("memories")
      .values({
        id: randomUUID(),
        user_id: s.userId,
        character_id: s.characterId,
        fact: "Guest has a job interview on Thursday.",
        created_at: Date.now(),
      })
      .execute();
    const sent = await call(t.app, "POST", "/api/chat/message", {
      token: s.token,
      form: { id: s.characterId, message: "Wish me luck for Thursday!" },
    });
    expect(sent.body.success).toBe(1);
    return { ...s, last: await lastAt(s.userId, s.characterId) };
  }

  it("checks in once the quiet period is over, drawing on the facts, as a reply with no user message", async () => {
    const s = await chatting();
    const due = s.last + 8 * HOUR;
    const zone = zoneWhere(due, 12);
    expect((await choose(s.token, s.characterId, true, zone)).body.success).toBe(1);

    await t.checkins.sendDue(due - 60_000);
    expect(await checkIns(s.userId, s.characterId)).toHaveLength(0);

    llm.requests.length = 0;
    await t.checkins.sendDue(due);
    const sent = await checkIns(s.userId, s.characterId);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ message: "", status: "replied" });
    const prompt = llm.requests.find((r) => r.messages.at(-1)!.content.includes("checks in on"))!;
    expect(prompt.messages[0]!.content).toMatch(/^You are /);
    expect(prompt.messages[0]!.content).toContain("- Guest has a job interview on Thursday.");

    // The history shows it as the character's message (an empty user message, like the greeting).
    const history = await call(t.app, "GET", `/api/chat/history?id=${s.characterId}`, { token: s.token });
    const page = (
      history.body.data as { data: Array<{ chatHistoryMessage: string; chatHistoryReplyMessage: string }> }
    ).data;
    expect(page.at(-1)).toMatchObject({ chatHistoryMessage: "", chatHistoryReplyMessage: CHECK_IN });
  });

  it("recalls what the user last spoke of into the check-in's prompt, unless the chat's recall is off", async () => {
    const s = await chatting();
    const due = s.last + 8 * HOUR;
    expect((await choose(s.token, s.characterId, true, zoneWhere(due, 12))).body.success).toBe(1);
    llm.requests.length = 0;
    await t.checkins.sendDue(due);
    const prompt = llm.requests.find((r) => r.messages.at(-1)!.content.includes("checks in on"))!;
    const instruction = prompt.messages.at(-1)!.content;
    expect(instruction).toContain("\n\n[Earlier in this chat (recalled):\n");
    expect(instruction).toMatch(/\n\w+: Wish me luck for Thursday!\n/);

    const quiet = await chatting();
    await t.db.db
      .updateTable("chat_sessions")
      .set({ recall: 0 })
      .where("user_id", "=", quiet.userId)
      .execute();
    const later = quiet.last + 8 * HOUR;
    expect((await choose(quiet.token, quiet.characterId, true, zoneWhere(later, 12))).body.success).toBe(1);
    llm.requests.length = 0;
    await t.checkins.sendDue(later);
    const off = llm.requests.find((r) => r.messages.at(-1)!.content.includes("checks in on"))!;
    expect(off.messages.at(-1)!.content).not.toContain("Earlier in this chat");
  });

  it("waits for the user's waking hours in their time zone", async () => {
    const s = await chatting();
    const due = s.last + 9 * HOUR;
    const zone = zoneWhere(due, 3);
    await choose(s.token, s.characterId, true, zone);
    await t.checkins.sendDue(due);
    expect(await checkIns(s.userId, s.characterId)).toHaveLength(0);
    await t.checkins.sendDue(due + 5 * HOUR); // 08:00 there
    expect(await checkIns(s.userId, s.characterId)).toHaveLength(0);
    await t.checkins.sendDue(due + 6 * HOUR); // 09:00
    expect(await checkIns(s.userId, s.characterId)).toHaveLength(1);
  });

  it("sends exactly one per quiet period, even from two runs at once, and none while it is unanswered", async () => {
    const s = await chatting();
    const due = s.last + 8 * HOUR;
    await choose(s.token, s.characterId, true, zoneWhere(due, 10));
    await Promise.all([t.checkins.sendDue(due), t.checkins.sendDue(due)]);
    expect(await checkIns(s.userId, s.characterId)).toHaveLength(1);
    await t.checkins.sendDue(due + HOUR);
    await t.checkins.sendDue(due + 8 * HOUR + 60_000); // quiet again, but the check-in is unanswered
    await t.checkins.sendDue(due + 30 * HOUR);
    expect(await checkIns(s.userId, s.characterId)).toHaveLength(1);
  });

  it("resumes after the user answers", async () => {
    const s = await chatting();
    const due = s.last + 8 * HOUR;
    await choose(s.token, s.characterId, true, zoneWhere(due, 10));
    await t.checkins.sendDue(due);
    expect(await checkIns(s.userId, s.characterId)).toHaveLength(1);
    const answer = await call(t.app, "POST", "/api/chat/message", {
      token: s.token,
      form: { id: s.characterId, message: "It went well, thanks!" },
    });
    expect(answer.body.success).toBe(1);
    const next = (await lastAt(s.userId, s.characterId)) + 8 * HOUR;
    await t.checkins.sendDue(next - 60_000);
    expect(await checkIns(s.userId, s.characterId)).toHaveLength(1);
    await t.checkins.sendDue(next);
    expect(await checkIns(s.userId, s.characterId)).toHaveLength(2);
  });

  it("is not counted against the quota (sent even at the limit)", async () => {
    const s = await chatting();
    const user = await t.db.db
      .selectFrom("users")
      .selectAll()
      .where("id", "=", s.userId)
      .executeTakeFirstOrThrow();
    await t.db.db
      .updateTable("users")
      .set({ chat_count: user.chat_limit })
      .where("id", "=", s.userId)
      .execute();
    const due = s.last + 8 * HOUR;
    await choose(s.token, s.characterId, true, zoneWhere(due, 15));
    await t.checkins.sendDue(due);
    expect(await checkIns(s.userId, s.characterId)).toHaveLength(1);
    const after = await t.db.db
      .selectFrom("users")
      .selectAll()
      .where("id", "=", s.userId)
      .executeTakeFirstOrThrow();
    expect(after.chat_count).toBe(user.chat_limit);
    expect(after.extra_messages).toBe(user.extra_messages);
  });

  it("sends nothing while no model is ready", async () => {
    const s = await chatting();
    const due = s.last + 8 * HOUR;
    await choose(s.token, s.characterId, true, zoneWhere(due, 13));
    let asked = 0;
    const noModel = new CheckinsService(
      new CheckinsRepo(t.db.db),
      {
        findOwnedCharacter: async () => undefined,
        resolveChat: async () => {
          throw new Error("not used by the job");
        },
      },
      {
        status: () => ({ ready: false }) as never,
        generate: async () => {
          asked += 1;
          return { text: CHECK_IN, modelMs: 1 };
        },
      },
      async () => [],
      { quietHours: 8, maxReplyTokens: 48, temperature: 0.7 },
    );
    expect(await noModel.sendDue(due)).toBe(0);
    expect(asked).toBe(0);
    expect(await checkIns(s.userId, s.characterId)).toHaveLength(0);
  });

  it("stops when the user opts out", async () => {
    const s = await chatting();
    const due = s.last + 8 * HOUR;
    const zone = zoneWhere(due, 11);
    await choose(s.token, s.characterId, true, zone);
    const off = await choose(s.token, s.characterId, false, zone);
    expect(off.body.data).toMatchObject({ enabled: false, timeZone: zone });
    await t.checkins.sendDue(due + HOUR);
    expect(await checkIns(s.userId, s.characterId)).toHaveLength(0);
    const state = await call(t.app, "GET", `/api/chat/checkins?id=${s.characterId}`, { token: s.token });
    expect(state.body.data).toMatchObject({
      enabled: false,
      timeZone: zone,
      characterName: expect.any(String),
    });
  });

  it("counts the check-in unread until the chat is opened", async () => {
    const s = await chatting();
    const due = s.last + 8 * HOUR;
    await choose(s.token, s.characterId, true, zoneWhere(due, 18));
    await t.checkins.sendDue(due);
    const unread = await call(t.app, "GET", "/api/chat/checkins/unread", { token: s.token });
    expect(unread.body.data).toEqual([{ characterUUID: s.characterId, unreadCheckins: 1 }]);
    // An older page does not open the chat; the newest does.
    await call(t.app, "GET", `/api/chat/history/paginated?id=${s.characterId}&offset=10`, { token: s.token });
    expect(
      (await call(t.app, "GET", "/api/chat/checkins/unread", { token: s.token })).body.data,
    ).toHaveLength(1);
    await call(t.app, "GET", `/api/chat/history/paginated?id=${s.characterId}&offset=0`, { token: s.token });
    await expect
      .poll(async () => (await call(t.app, "GET", "/api/chat/checkins/unread", { token: s.token })).body.data)
      .toEqual([]);
  });

  /**
   * Gives the user a full name no other test's user has (the check-in prompt names the user),
   * so the model calls for this user's chats can be told apart. @returns the name.
   */
  async function uniqueName(userId: string): Promise<string> {
    const name = `Bea ${randomUUID().slice(0, 8)}`;
    await t.db.db.updateTable("users").set({ full_name: name }).where("id", "=", userId).execute();
    t.caches.forgetAll();
    return name;
  }
  /** The model calls that asked for a check-in on `name`. */
  const askedFor = (name: string) =>
    llm.requests.filter((r) => r.messages.at(-1)!.content.includes(`checks in on ${name}`)).length;
  const userRow = (userId: string) =>
    t.db.db.selectFrom("users").selectAll().where("id", "=", userId).executeTakeFirstOrThrow();

  it("skips a blocked user's chats; an unblock fires no backlog, turning check-ins on again does", async () => {
    const s = await chatting();
    const name = await uniqueName(s.userId);
    const due = s.last + 8 * HOUR;
    const zone = zoneWhere(due, 12);
    expect((await choose(s.token, s.characterId, true, zone)).body.success).toBe(1);
    const admin = await demoLogin(t.app);
    await t.db.db.updateTable("users").set({ role: "admin" }).where("id", "=", admin.userId).execute();
    t.caches.forgetAll();
    const block = async (blocked: boolean) =>
      (
        await call(t.app, "POST", `/api/admin/users/${s.userId}/block`, {
          token: admin.token,
          form: { blocked: blocked ? "1" : "0" },
        })
      ).body.success;

    expect(await block(true)).toBe(1);
    await t.checkins.sendDue(due);
    await t.checkins.sendDue(due + HOUR);
    expect(askedFor(name)).toBe(0);
    expect(await checkIns(s.userId, s.characterId)).toHaveLength(0);

    // Unblocked: the opt-in was turned off with the block, so the quiet chat does not write at once.
    expect(await block(false)).toBe(1);
    await t.checkins.sendDue(due + 2 * HOUR);
    expect(askedFor(name)).toBe(0);
    expect(await checkIns(s.userId, s.characterId)).toHaveLength(0);
    const user = await userRow(s.userId);
    expect(await t.checkins.state(user, s.characterId)).toMatchObject({ enabled: false, timeZone: zone });

    // The user (their sessions ended with the block) turns check-ins on again: the character writes.
    await t.checkins.choose(user, s.characterId, true, zone);
    await t.checkins.sendDue(due + 3 * HOUR);
    expect(askedFor(name)).toBe(1);
    expect(await checkIns(s.userId, s.characterId)).toHaveLength(1);
  });

  it("stores nothing for a user blocked while the model writes the check-in", async () => {
    const s = await chatting();
    const name = await uniqueName(s.userId);
    const due = s.last + 8 * HOUR;
    await choose(s.token, s.characterId, true, zoneWhere(due, 14));
    let asked = 0;
    const blockedMidway = new CheckinsService(
      new CheckinsRepo(t.db.db),
      {
        findOwnedCharacter: async () => undefined,
        resolveChat: async () => {
          throw new Error("not used by the job");
        },
      },
      {
        status: () => ({ ready: true }) as never,
        generate: async (request) => {
          if (request.messages.at(-1)!.content.includes(`checks in on ${name}`)) {
            asked += 1;
            // An admin blocks the user while the model writes.
            await t.db.db.updateTable("users").set({ blocked: 1 }).where("id", "=", s.userId).execute();
          }
          return { text: CHECK_IN, modelMs: 1 };
        },
      },
      async () => [],
      { quietHours: 8, maxReplyTokens: 48, temperature: 0.7 },
    );
    await blockedMidway.sendDue(due);
    expect(asked).toBe(1);
    expect(await checkIns(s.userId, s.characterId)).toHaveLength(0);
    const setting = await t.db.db
      .selectFrom("checkin_settings")
      .select("unread")
      .where("user_id", "=", s.userId)
      .executeTakeFirstOrThrow();
    expect(Number(setting.unread)).toBe(0);
  });

  it("answers 404 for another user's character and 400 for an unknown time zone", async () => {
    const owner = await demoWithCharacter(t.app);
    const other = await demoWithCharacter(t.app);
    const theirs = await choose(other.token, owner.characterId, true, "Europe/Berlin");
    expect(theirs.status).toBe(404);
    expect(
      (await call(t.app, "GET", `/api/chat/checkins?id=${owner.characterId}`, { token: other.token })).status,
    ).toBe(404);
    const rows = await t.db.db
      .selectFrom("checkin_settings")
      .selectAll()
      .where("user_id", "=", other.userId)
      .execute();
    expect(rows).toHaveLength(0);
    expect((await choose(owner.token, owner.characterId, true, "Mars/Olympus")).status).toBe(400);
    // Missing fields answer a sentence a person can read.
    const noId = await choose(owner.token, "", true, "Europe/Berlin");
    expect(noId.status).toBe(400);
    expect(noId.body.message).toBe("The character is required.");
    const badSwitch = await call(t.app, "POST", "/api/chat/checkins", {
      token: owner.token,
      form: { id: owner.characterId, enabled: "yes" },
    });
    expect(badSwitch.status).toBe(400);
    expect(badSwitch.body.message).toBe("Check-ins are turned on with 1 and off with 0.");
    expect(
      (await call(t.app, "POST", "/api/chat/checkins", { form: { id: owner.characterId, enabled: "1" } }))
        .status,
    ).toBe(401);
  });
});

describeEachDatabase("check-ins without a model", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect, env: { LLM_PROVIDER: "none" } });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it("refuses to let a character write first (409 checkins_no_model) and stores nothing; turning off is allowed", async () => {
    const s = await demoWithCharacter(t.app);
    const on = await call(t.app, "POST", "/api/chat/checkins", {
      token: s.token,
      form: { id: s.characterId, enabled: "1", timeZone: "Europe/Berlin" },
    });
    expect(on.status).toBe(409);
    expect(on.body).toMatchObject({
      success: 0,
      code: "checkins_no_model",
      message: "Characters cannot write first while no language model is connected.",
    });
    const rows = await t.db.db
      .selectFrom("checkin_settings")
      .selectAll()
      .where("user_id", "=", s.userId)
      .execute();
    expect(rows).toHaveLength(0);
    const off = await call(t.app, "POST", "/api/chat/checkins", {
      token: s.token,
      form: { id: s.characterId, enabled: "0", timeZone: "Europe/Berlin" },
    });
    expect(off.status).toBe(200);
    expect(off.body.data).toMatchObject({ enabled: false });
  });
});
