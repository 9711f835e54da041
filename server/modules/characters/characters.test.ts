import { afterAll, beforeAll, expect, it } from "vitest";
import type { PresetCharacter } from "../../../common/api";
import { call, demoLogin, describeEachDatabase } from "../../testing/api";
import { createTestApp, type TestApp } from "../../testing/server";

describeEachDatabase("characters API", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it("lists at least 8 seeded presets of both sexes, each with its own card and a JPEG avatar", async () => {
    const { token } = await demoLogin(t.app);
    const res = await call(t.app, "GET", "/api/characters/selection", { token });
    const presets = res.body.data as PresetCharacter[];
    expect(presets.length).toBeGreaterThanOrEqual(8);
    expect(new Set(presets.map((p) => p.characterSex))).toEqual(new Set(["0", "1"]));
    expect(new Set(presets.map((p) => p.characterDescription)).size).toBe(presets.length);
    for (const preset of presets) {
      const photo = await t.app.inject({
        method: "GET",
        url: `/content/predefined-characters/${preset.characterPhoto}`,
      });
      expect(photo.statusCode).toBe(200);
      expect(photo.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    }
  });

  it("creates the user's own character from a preset, with its photo, then lands on the list", async () => {
    const { token, userId } = await demoLogin(t.app);
    const presets = (await call(t.app, "GET", "/api/characters/selection", { token })).body
      .data as PresetCharacter[];
    const preset = presets[1]!;
    const created = await call(t.app, "POST", "/api/characters/create-preselect", {
      token,
      form: { id: preset.characterPreDefinedUUID },
    });
    expect(created.body).toMatchObject({ success: 1, page: "/characters/list" });
    const list = await call(t.app, "GET", `/api/characters/list/?id=${userId}`, { token });
    const characters = list.body.data as Array<Record<string, string>>;
    expect(characters).toHaveLength(1);
    expect(characters[0]).toMatchObject({
      characterName: preset.characterName,
      characterDescription: preset.characterDescription,
    });
    const photo = await t.app.inject({
      method: "GET",
      url: `/content/characters/${characters[0]!.characterPhoto}`,
    });
    expect(photo.headers["content-type"]).toBe("image/jpeg");
    const chatList = await call(t.app, "GET", "/api/characters/list/chat", { token });
    const chatCharacters = chatList.body.characters as Array<{ characterGreeting: string }>;
    expect(chatCharacters).toHaveLength(1);
    expect(chatCharacters[0]!.characterGreeting).not.toContain("{{user}}");
  });

  it("refuses an unknown or malformed preset id and stores nothing", async () => {
    const { token, userId } = await demoLogin(t.app);
    const unknown = await call(t.app, "POST", "/api/characters/create-preselect", {
      token,
      form: { id: "00000000-0000-4000-8000-000000000000" },
    });
    expect(unknown.status).toBe(404);
    const malformed = await call(t.app, "POST", "/api/characters/create-preselect", {
      token,
      form: { id: "x" },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toBe("The preset character id is not valid.");
    const list = await call(t.app, "GET", `/api/characters/list/?id=${userId}`, { token });
    expect(list.body.data).toEqual([]);
  });

  it("enforces the creation limit cl on the server", async () => {
    const { token, userId } = await demoLogin(t.app);
    const presets = (await call(t.app, "GET", "/api/characters/selection", { token })).body
      .data as PresetCharacter[];
    const results = await Promise.all(
      presets.slice(0, 5).map((p) =>
        call(t.app, "POST", "/api/characters/create-preselect", {
          token,
          form: { id: p.characterPreDefinedUUID },
        }),
      ),
    );
    expect(results.filter((r) => r.body.success === 1)).toHaveLength(3);
    expect(results.filter((r) => r.status === 403)).toHaveLength(2);
    const list = await call(t.app, "GET", `/api/characters/list/?id=${userId}`, { token });
    expect(list.body.data).toHaveLength(3);
  });

  it("does not show one user's characters to another", async () => {
    const a = await demoLogin(t.app);
    const b = await demoLogin(t.app);
    const res = await call(t.app, "GET", `/api/characters/list/?id=${a.userId}`, { token: b.token });
    expect(res.status).toBe(404);
    const groups = await call(t.app, "GET", `/api/characters/group/list/?id=${b.userId}`, { token: b.token });
    expect(groups.body).toMatchObject({ success: 1, data: [] });
  });
});
