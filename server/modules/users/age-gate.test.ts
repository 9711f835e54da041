import { afterAll, beforeAll, expect, it } from "vitest";
import type { ChatHistoryEntry, SessionUser } from "../../../common/api";
import { call, demoLogin, describeEachDatabase } from "../../testing/api";
import { ScriptedLlm } from "../../testing/fake-llm";
import { createTestApp, type TestApp } from "../../testing/server";

describeEachDatabase("18+ confirmation", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect, llm: new ScriptedLlm(async () => "Hi there!") });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it("refuses chat until the person confirms being 18 or older, storing nothing; then chat works", async () => {
    const s = await demoLogin(t.app, { adult: false });
    const login = await call(t.app, "POST", "/api/auth/extend", { token: s.token });
    expect(login.status).toBe(200);
    const presets = (await call(t.app, "GET", "/api/characters/selection", { token: s.token })).body
      .data as Array<{ characterPreDefinedUUID: string }>;
    const created = await call(t.app, "POST", "/api/characters/create-preselect", {
      token: s.token,
      form: { id: presets[0]!.characterPreDefinedUUID },
    });
    const characterId = (created.body.data as { characterUUID: string }).characterUUID;

    const refused = await call(t.app, "POST", "/api/chat/message", {
      token: s.token,
      form: { message: "Hello", id: characterId },
    });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({
      success: 0,
      message: "Please confirm that you are 18 or older to chat.",
    });
    const user = await t.db.db
      .selectFrom("users")
      .select(["chat_count", "adult_confirmed_at"])
      .where("id", "=", s.userId)
      .executeTakeFirstOrThrow();
    expect(user).toEqual({ chat_count: 0, adult_confirmed_at: null });
    const before = await call(
      t.app,
      "GET",
      `/api/chat/history/paginated?id=${characterId}&offset=0&limit=10`,
      {
        token: s.token,
      },
    );
    expect((before.body.data as ChatHistoryEntry[]).filter((e) => e.chatHistoryMessage === "Hello")).toEqual(
      [],
    );

    const bad = await call(t.app, "POST", "/api/users/confirm-age", {
      token: s.token,
      form: { confirm: "0" },
    });
    expect(bad.status).toBe(400);
    const confirmed = await call(t.app, "POST", "/api/users/confirm-age", {
      token: s.token,
      form: { confirm: "1" },
    });
    expect(confirmed.body.success).toBe(1);
    expect((confirmed.body.data as SessionUser).adult).toBe("1");
    const stored = await t.db.db
      .selectFrom("users")
      .select("adult_confirmed_at")
      .where("id", "=", s.userId)
      .executeTakeFirstOrThrow();
    expect(stored.adult_confirmed_at).toBeGreaterThan(0);

    const sent = await call(t.app, "POST", "/api/chat/message", {
      token: s.token,
      form: { message: "Hello", id: characterId },
    });
    expect(sent.body.success).toBe(1);
  });

  it("answers the flag in every sign-in: '0' for a new visitor", async () => {
    const { body } = await call(t.app, "POST", "/api/auth/demo-login", { form: { id: "demo" } });
    expect((body.data as { user: SessionUser }).user.adult).toBe("0");
  });

  it("needs a signed-in user", async () => {
    const res = await call(t.app, "POST", "/api/users/confirm-age", { form: { confirm: "1" } });
    expect(res.status).toBe(401);
  });
});
