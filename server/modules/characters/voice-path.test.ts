import { afterAll, beforeAll, expect, it } from "vitest";
import { call, demoLogin, describeEachDatabase } from "../../testing/api";
import { createTestApp, type TestApp } from "../../testing/server";

/** product.md §7.29: `GET /characters/voice`, the older name of the voice list, answers as `voices` does. */
describeEachDatabase("GET /api/characters/voice", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  it("lists the seeded voices (name, sex, language) exactly as /characters/voices, signed in only", async () => {
    const { token } = await demoLogin(t.app);
    const single = await call(t.app, "GET", "/api/characters/voice", { token });
    expect(single.status).toBe(200);
    expect(single.body).toMatchObject({ success: 1 });
    const voices = single.body.voices as Array<{ voiceName: string; voiceSex: string; languageCode: string }>;
    expect(voices.length).toBeGreaterThan(0);
    for (const voice of voices) {
      expect(voice.voiceName).toMatch(/\S/);
      expect(["0", "1"]).toContain(voice.voiceSex);
      expect(voice.languageCode).toMatch(/\S/);
    }
    // Both sexes are offered (product.md §9: a female and a male voice per seeded language).
    expect(new Set(voices.map((voice) => voice.voiceSex))).toEqual(new Set(["0", "1"]));
    const plural = await call(t.app, "GET", "/api/characters/voices", { token });
    expect(single.body.voices).toEqual(plural.body.voices);

    const anonymous = await call(t.app, "GET", "/api/characters/voice");
    expect(anonymous.status).toBe(401);
  });
});
