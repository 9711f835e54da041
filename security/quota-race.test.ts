import { afterAll, beforeAll, expect, it } from "vitest";
import type { ChatHistoryEntry } from "../common/api";
import { describeEachDatabase } from "../server/testing/api";
import { ScriptedLlm } from "../server/testing/fake-llm";
import {
  addPresetCharacter,
  createGroup,
  http,
  jpegOf,
  type Session,
  sendAllAtOnce,
  setUser,
  signIn,
} from "./support/fixtures";
import type { RawResponse } from "./support/raw-http";
import { type ListeningApp, startListening } from "./support/server";

/** Whether one answer is a message that went through (JSON or a server-sent event stream). */
function outcome(answer: RawResponse): "sent" | "limit" | string {
  const text = answer.body.toString();
  if ((answer.headers["content-type"] ?? "").startsWith("text/event-stream")) {
    if (/event: done\ndata: \{"success":1/.test(text)) return "sent";
    if (/event: error\ndata: \{[^\n]*"status":429/.test(text)) return "limit";
    return `stream ${text.slice(0, 160)}`;
  }
  let json: { success?: number } = {};
  try {
    json = JSON.parse(text);
  } catch {}
  if (answer.status === 200 && json.success === 1) return "sent";
  if (answer.status === 429 && json.success === 0) return "limit";
  return `${answer.status} ${text.slice(0, 160)}`;
}

/*
 * The requests are released together (sendAllAtOnce). On SQLite the driver is synchronous, so a
 * read-then-write quota check only races when something truly waits between the two; PostgreSQL
 * answers over a socket, so there a non-atomic check lets several sends through at once.
 */
describeEachDatabase("the quota race, many sends at once over real connections", (dialect) => {
  let t: ListeningApp;
  const llm = new ScriptedLlm(() => "Sure!");
  beforeAll(async () => {
    t = await startListening({ dialect, llm });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  /** A Free user with two characters and a group of them, at `count` of 15 for today. */
  const freeUserAt = async (count: number, extra = 0) => {
    const user = await signIn(t.url);
    const first = await addPresetCharacter(t.url, user.token, 0);
    const second = await addPresetCharacter(t.url, user.token, 1);
    const group = await createGroup(t.url, user.token, [first, second]);
    // Greetings are stored once on first sight of a chat: done here, not inside the race.
    for (const id of [first, group])
      await http(t.url, "GET", `/api/chat/history?id=${id}`, { token: user.token });
    await setUser(t, user.userId, { chat_count: count, image_generation: 1 });
    await t.db.db.updateTable("users").set({ extra_messages: extra }).where("id", "=", user.userId).execute();
    return { ...user, first, group };
  };
  const counters = (user: Session) =>
    t.db.db
      .selectFrom("users")
      .select(["chat_count", "extra_messages", "chat_limit"])
      .where("id", "=", user.userId)
      .executeTakeFirstOrThrow();
  const sentMessages = async (user: Session & { first: string; group: string }) => {
    const texts: string[] = [];
    for (const id of [user.first, user.group]) {
      const page = await http(t.url, "GET", `/api/chat/history/paginated?id=${id}&limit=100`, {
        token: user.token,
      });
      texts.push(...(page.json.data as ChatHistoryEntry[]).map((e) => e.chatHistoryMessage));
    }
    return texts.filter((m) => m.startsWith("race "));
  };

  it("a Free user at 14/15 sending 20 messages at once: exactly one goes through, the count ends at 15", async () => {
    const user = await freeUserAt(14);
    expect((await counters(user)).chat_limit).toBe(15);
    const answers = await sendAllAtOnce(
      t.url,
      Array.from({ length: 20 }, (_, i) => ({
        method: "POST",
        target: "/api/chat/message",
        token: user.token,
        form: { message: `race ${i}`, id: user.first, mute: "1" },
      })),
    );
    const outcomes = answers.map(outcome);
    expect(outcomes.filter((o) => o === "sent")).toHaveLength(1);
    expect(outcomes.filter((o) => o !== "sent")).toEqual(Array(19).fill("limit"));
    expect((await counters(user)).chat_count).toBe(15);
    expect(await sentMessages(user)).toHaveLength(1);
  });

  it("20 at once across every route that spends a message (plain, streamed, group, voice, photo): one goes through", async () => {
    const user = await freeUserAt(14);
    const photo = await jpegOf(16, 16);
    const senders = [
      (i: number) => ({
        target: "/api/chat/message",
        form: { message: `race ${i}`, id: user.first, mute: "1" },
      }),
      (i: number) => ({
        target: "/api/chat/message",
        form: { message: `race ${i}`, id: user.first, mute: "1", stream: "1" },
      }),
      (i: number) => ({
        target: "/api/chat/group/reply",
        form: { message: `race ${i}`, id: user.group, mute: "1" },
      }),
      (i: number) => ({
        target: "/api/chat/audio-message",
        form: { message: `race ${i}`, id: user.first, mute: "1" },
      }),
      (i: number) => ({
        target: "/api/chat/photo-process",
        parts: [
          { name: "id", value: user.first },
          { name: "message", value: `race ${i}` },
          { name: "photo", value: photo, filename: "p.jpg", type: "image/jpeg" },
        ],
      }),
    ];
    const answers = await sendAllAtOnce(
      t.url,
      Array.from({ length: 20 }, (_, i) => ({
        method: "POST",
        token: user.token,
        ...senders[i % senders.length]!(i),
      })),
    );
    const outcomes = answers.map(outcome);
    expect(
      outcomes.filter((o) => o === "sent"),
      outcomes.join("\n"),
    ).toHaveLength(1);
    expect(outcomes.filter((o) => o !== "sent")).toEqual(Array(19).fill("limit"));
    expect((await counters(user)).chat_count).toBe(15);
    expect(await sentMessages(user)).toHaveLength(1);
  });

  it("at 14/15 with one add-on message, 20 at once: exactly two go through and both buckets end empty", async () => {
    const user = await freeUserAt(14, 1);
    const answers = await sendAllAtOnce(
      t.url,
      Array.from({ length: 20 }, (_, i) => ({
        method: "POST",
        target: "/api/chat/message",
        token: user.token,
        form: { message: `race ${i}`, id: user.first, mute: "1" },
      })),
    );
    const outcomes = answers.map(outcome);
    expect(outcomes.filter((o) => o === "sent")).toHaveLength(2);
    expect(outcomes.filter((o) => o !== "sent")).toEqual(Array(18).fill("limit"));
    expect(await counters(user)).toMatchObject({ chat_count: 15, extra_messages: 0 });
    expect(await sentMessages(user)).toHaveLength(2);
  });
});
