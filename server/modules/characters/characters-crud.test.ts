import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, expect, it } from "vitest";
import { call, callMultipart, demoLogin, demoWithCharacter, describeEachDatabase } from "../../testing/api";
import { createTestApp, type TestApp } from "../../testing/server";

describeEachDatabase("character form, delete, random, voices and plan rules", (dialect) => {
  let t: TestApp;
  let languageId = "";
  beforeAll(async () => {
    t = await createTestApp({ dialect });
    const { token } = await demoLogin(t.app);
    const res = await call(t.app, "GET", "/api/characters/languages", { token });
    languageId = (res.body.languages as Array<{ languageUUID: string }>)[0]!.languageUUID;
  });
  afterAll(async () => {
    await t?.dispose();
  });

  const form = (extra: Record<string, string> = {}) => ({
    name: "Nova",
    sex: "0",
    voice: "English Female",
    language: languageId,
    description: "A starship pilot who loves jazz.",
    greeting: "Hi {{user}}!",
    ...extra,
  });
  const setFlags = (
    userId: string,
    flags: { photo_upload?: number; image_generation?: number; character_limit?: number },
  ) => t.db.db.updateTable("users").set(flags).where("id", "=", userId).execute();

  it("lists languages and voices, a female and a male voice for every language", async () => {
    const { token } = await demoLogin(t.app);
    const languages = (await call(t.app, "GET", "/api/characters/languages", { token })).body
      .languages as unknown[];
    const voices = (await call(t.app, "GET", "/api/characters/voices", { token })).body.voices as Array<{
      voiceName: string;
      voiceSex: string;
      languageCode: string;
    }>;
    expect(languages.length).toBeGreaterThanOrEqual(6);
    for (const code of new Set(voices.map((v) => v.languageCode))) {
      expect(new Set(voices.filter((v) => v.languageCode === code).map((v) => v.voiceSex))).toEqual(
        new Set(["0", "1"]),
      );
    }
  });

  it("creates, reads and updates a character with the form's fields", async () => {
    const { token } = await demoLogin(t.app);
    const created = await callMultipart(t.app, "/api/characters/create", { token, fields: form() });
    expect(created.body).toMatchObject({ success: 1, page: "/characters/list" });
    const id = (created.body.data as { characterUUID: string }).characterUUID;
    const detail = await call(t.app, "GET", `/api/characters/?id=${id}`, { token });
    expect(detail.body.data).toMatchObject({
      characterName: "Nova",
      characterSex: "0",
      characterVoice: "English Female",
      languageUUID: languageId,
      characterDescription: "A starship pilot who loves jazz.",
      characterGreeting: "Hi {{user}}!",
      characterAppearance: "",
    });
    const updated = await callMultipart(t.app, "/api/characters/update", {
      token,
      fields: { ...form({ name: "Nova Prime", sex: "1", voice: "English Male" }), id },
    });
    expect(updated.body.success).toBe(1);
    const after = await call(t.app, "GET", `/api/characters/?id=${id}`, { token });
    expect(after.body.data).toMatchObject({ characterName: "Nova Prime", characterSex: "1" });
  });

  it("enforces the form's rules on the server", async () => {
    const { token } = await demoLogin(t.app);
    const cases: Array<[Record<string, string>, string]> = [
      [{ name: " " }, "Please fill in all required fields!"],
      [{ sex: "2" }, "The sex must be female or male."],
      [{ description: "" }, "Please fill in all required fields!"],
      [{ description: "x".repeat(2001) }, "The backstory must be at most 2000 characters."],
      [{ greeting: "x".repeat(801) }, "The greeting must be at most 800 characters."],
      [{ appearance: "x".repeat(101) }, "The appearance must be at most 100 characters."],
      [{ voice: "Klingon Deep" }, "Please choose a voice from the list."],
      [{ language: "00000000-0000-4000-8000-000000000000" }, "Please choose a language from the list."],
      [
        { description: "A naked schoolgirl who flirts." },
        "Character refused: sexual content involving minors is not allowed.",
      ],
    ];
    for (const [change, message] of cases) {
      const res = await callMultipart(t.app, "/api/characters/create", { token, fields: form(change) });
      expect(res.status, message).toBe(400);
      expect(res.body.message).toBe(message);
    }
    expect((await call(t.app, "GET", "/api/characters/list/", { token })).body.data).toEqual([]);
  });

  it("allows the appearance only with il and a photo only with pl", async () => {
    const { token, userId } = await demoLogin(t.app);
    const photo = {
      bytes: await sharp({ create: { width: 40, height: 40, channels: 3, background: "#c70039" } })
        .png()
        .toBuffer(),
      filename: "p.png",
    };
    const noIl = await callMultipart(t.app, "/api/characters/create", {
      token,
      fields: form({ appearance: "Tall" }),
    });
    expect(noIl.status).toBe(403);
    const noPl = await callMultipart(t.app, "/api/characters/create", {
      token,
      fields: form(),
      files: { photo },
    });
    expect(noPl.status).toBe(403);
    await setFlags(userId, { photo_upload: 1, image_generation: 1 });
    const ok = await callMultipart(t.app, "/api/characters/create", {
      token,
      fields: form({ appearance: "Tall" }),
      files: { photo },
    });
    expect(ok.body.success).toBe(1);
  });

  it("keeps the appearance when a user without il edits the character", async () => {
    const { token, userId } = await demoLogin(t.app);
    await setFlags(userId, { image_generation: 1 });
    const created = await callMultipart(t.app, "/api/characters/create", {
      token,
      fields: form({ appearance: "Silver hair, green eyes" }),
    });
    const id = (created.body.data as { characterUUID: string }).characterUUID;
    // The plan loses il (a downgrade): the form no longer shows the field and sends it empty.
    await setFlags(userId, { image_generation: 0 });
    const edited = await callMultipart(t.app, "/api/characters/update", {
      token,
      fields: { ...form({ name: "Nova Two", appearance: "" }), id },
    });
    expect(edited.body.success).toBe(1);
    const sameAgain = await callMultipart(t.app, "/api/characters/update", {
      token,
      fields: { ...form({ appearance: "Silver hair, green eyes" }), id },
    });
    expect(sameAgain.body.success).toBe(1);
    const detail = await call(t.app, "GET", `/api/characters/?id=${id}`, { token });
    expect(detail.body.data).toMatchObject({
      characterName: "Nova",
      characterAppearance: "Silver hair, green eyes",
    });
    const changed = await callMultipart(t.app, "/api/characters/update", {
      token,
      fields: { ...form({ appearance: "Short red hair" }), id },
    });
    expect(changed.status).toBe(403);
    expect(changed.body.message).toBe(
      "Your plan does not include the appearance field. Upgrade to Premium Plus.",
    );
  });

  it("enforces the creation limit cl and never deletes the last character", async () => {
    const s = await demoWithCharacter(t.app);
    await setFlags(s.userId, { character_limit: 2 });
    expect(
      (await call(t.app, "POST", "/api/characters/create-random", { token: s.token })).body.success,
    ).toBe(1);
    const third = await callMultipart(t.app, "/api/characters/create", { token: s.token, fields: form() });
    expect(third.status).toBe(403);
    const list = (await call(t.app, "GET", "/api/characters/list/", { token: s.token })).body.data as Array<{
      characterUUID: string;
    }>;
    expect(list).toHaveLength(2);
    const del = await call(t.app, "DELETE", `/api/characters/delete/?id=${list[1]!.characterUUID}`, {
      token: s.token,
    });
    expect(del.body).toEqual({ success: 1, message: "Character deleted." });
    const last = await call(t.app, "DELETE", `/api/characters/delete/?id=${list[0]!.characterUUID}`, {
      token: s.token,
    });
    expect(last.status).toBe(403);
    expect(last.body.message).toBe("You cannot delete your only character.");
  });

  it("creates a random character from curated parts when no model is ready", async () => {
    const { token } = await demoLogin(t.app);
    const res = await call(t.app, "POST", "/api/characters/create-random", { token });
    expect(res.body.success).toBe(1);
    const item = res.body.data as {
      characterName: string;
      characterDescription: string;
      characterPhoto: string;
    };
    expect(item.characterDescription).toContain(item.characterName);
    const photo = await t.app.inject({ method: "GET", url: `/content/characters/${item.characterPhoto}` });
    expect(photo.headers["content-type"]).toBe("image/jpeg");
  });

  it("answers voice preview with a clear message while no voice engine exists", async () => {
    const { token } = await demoLogin(t.app);
    const res = await call(t.app, "GET", "/api/characters/voice/preview/?v=English%20Female", { token });
    expect(res.body).toEqual({
      success: 0,
      message: "Voices are not available yet: no text-to-speech engine is configured on this server.",
      code: "tts_unavailable",
    });
    expect((await call(t.app, "GET", "/api/characters/voice/preview/?v=Nope", { token })).status).toBe(404);
  });

  it("answers 404 and changes nothing for another user's character or group", async () => {
    const owner = await demoWithCharacter(t.app);
    await call(t.app, "POST", "/api/characters/create-random", { token: owner.token });
    const intruder = await demoWithCharacter(t.app);
    const id = owner.characterId;
    expect((await call(t.app, "GET", `/api/characters/?id=${id}`, { token: intruder.token })).status).toBe(
      404,
    );
    const upd = await callMultipart(t.app, "/api/characters/update", {
      token: intruder.token,
      fields: { ...form(), id },
    });
    expect(upd.status).toBe(404);
    expect(
      (await call(t.app, "DELETE", `/api/characters/delete/?id=${id}`, { token: intruder.token })).status,
    ).toBe(404);
    const exp = await t.app.inject({
      method: "GET",
      url: `/api/characters/export/?id=${id}`,
      headers: { authorization: `Bearer ${intruder.token}` },
    });
    expect(exp.statusCode).toBe(404);
    const groupId = crypto.randomUUID();
    await t.db.db
      .insertInto("chat_groups")
      .values({ id: groupId, user_id: owner.userId, created_at: Date.now() })
      .execute();
    expect(
      (await call(t.app, "DELETE", `/api/characters/group/delete/?id=${groupId}`, { token: intruder.token }))
        .status,
    ).toBe(404);
    const still = await call(t.app, "GET", `/api/characters/?id=${id}`, { token: owner.token });
    expect(still.body.data).toMatchObject({ characterUUID: id });
    expect(
      await t.db.db.selectFrom("chat_groups").select("id").where("id", "=", groupId).execute(),
    ).toHaveLength(1);
    expect(
      (await call(t.app, "DELETE", `/api/characters/group/delete/?id=${groupId}`, { token: owner.token }))
        .body.success,
    ).toBe(1);
  });

  it("keeps uploads inside the content area whatever the file name says", async () => {
    const { token, userId } = await demoLogin(t.app);
    await setFlags(userId, { photo_upload: 1 });
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: "#123456" } })
      .png()
      .toBuffer();
    const res = await callMultipart(t.app, "/api/characters/create", {
      token,
      fields: form(),
      files: { photo: { bytes: png, filename: "../../../evil.jpg", type: "image/jpeg" } },
    });
    expect(res.body.success).toBe(1);
    const name = (res.body.data as { characterPhoto: string }).characterPhoto;
    expect(name).toMatch(/^[0-9a-f-]{36}\.jpg$/);
    expect(fs.existsSync(path.join(t.dataDir, "evil.jpg"))).toBe(false);
    // On disk or in S3: stored under its own name, no key named after the upload.
    expect(await t.storage.exists(`characters/${name}`)).toBe(true);
    expect((await t.storage.list("")).filter((key) => key.includes("evil"))).toEqual([]);
  });
});

describeEachDatabase("deleting a character or a group removes its chat's files", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  /** Stores a file at `key` through the app's storage (disk or S3). @returns the key. */
  const plant = async (key: string) => {
    await t.storage.put(key, Buffer.from("x"));
    return key;
  };
  const present = (keys: string[]) => Promise.all(keys.map((key) => t.storage.exists(key)));

  it("removes {character id}/ and {group id}/ with the chat's pictures and photos, nothing else", async () => {
    const s = await demoWithCharacter(t.app);
    const second = await call(t.app, "POST", "/api/characters/create-random", { token: s.token });
    const secondId = (second.body.data as { characterUUID: string }).characterUUID;
    const group = await call(t.app, "GET", `/api/chat/group/new?cId=${s.characterId}`, { token: s.token });
    const groupId = /([0-9a-f-]{36})$/.exec(group.body.page!)![1]!;
    const picture = await plant(`${secondId}/picture.jpg`);
    const photo = await plant(`${secondId}/user_photo/mine.jpg`);
    const groupPicture = await plant(`${groupId}/picture.jpg`);
    const other = await plant(`${s.characterId}/picture.jpg`);
    expect(await present([picture, photo, groupPicture, other])).toEqual([true, true, true, true]);

    const deleted = await call(t.app, "DELETE", `/api/characters/delete/?id=${secondId}`, { token: s.token });
    expect(deleted.body.success).toBe(1);
    expect(await present([picture, photo, other])).toEqual([false, false, true]);

    const removed = await call(t.app, "DELETE", `/api/characters/group/delete/?id=${groupId}`, {
      token: s.token,
    });
    expect(removed.body.success).toBe(1);
    expect(await present([groupPicture, other])).toEqual([false, true]);
  });
});
