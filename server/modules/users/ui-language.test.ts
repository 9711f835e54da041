import { afterAll, beforeAll, expect, it } from "vitest";
import type { SessionUser } from "../../../common/api";
import { call, describeEachDatabase } from "../../testing/api";
import { createTestApp, type TestApp } from "../../testing/server";

/** the UI language kept with the account (POST /api/users/ui-language). */
describeEachDatabase("UI language kept with the account", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  const login = async (email: string) => {
    const answer = await call(t.app, "POST", "/api/auth/login", {
      form: { email, password: "secret-pass-1" },
    });
    return answer.body.data as { token: string; user: SessionUser };
  };
  const stored = async (userId: string) =>
    (
      await t.db.db
        .selectFrom("users")
        .select("ui_language")
        .where("id", "=", userId)
        .executeTakeFirstOrThrow()
    ).ui_language;

  it("starts empty (the browser's), keeps a chosen language and answers it in every later sign-in", async () => {
    const user = await t.auth.createAccount({
      email: "lang@example.com",
      password: "secret-pass-1",
      fullName: "Lang",
      planName: "Free",
    });
    const first = await login("lang@example.com");
    expect(first.user.uiLanguage).toBe("");

    const saved = await call(t.app, "POST", "/api/users/ui-language", {
      token: first.token,
      form: { language: "de" },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.success).toBe(1);
    expect((saved.body.data as SessionUser).uiLanguage).toBe("de");
    expect((saved.body.data as SessionUser).id).toBe(user.id);
    expect(await stored(user.id)).toBe("de");

    const extended = await call(t.app, "POST", "/api/auth/extend", { token: first.token });
    expect((extended.body.data as { user: SessionUser }).user.uiLanguage).toBe("de");
    await call(t.app, "POST", "/api/auth/logout", { token: first.token, form: { token: first.token } });
    const again = await login("lang@example.com");
    expect(again.user.uiLanguage).toBe("de");
  });

  it("refuses a code that is not one of the six, changing nothing, and needs a session", async () => {
    await t.auth.createAccount({
      email: "lang2@example.com",
      password: "secret-pass-1",
      fullName: "Lang",
      planName: "Free",
    });
    const { token, user } = await login("lang2@example.com");
    await call(t.app, "POST", "/api/users/ui-language", { token, form: { language: "it" } });
    for (const language of ["xx", "EN", "de-DE", ""]) {
      const refused = await call(t.app, "POST", "/api/users/ui-language", { token, form: { language } });
      expect(refused.status, language).toBe(400);
      expect(refused.body.success).toBe(0);
    }
    expect((await call(t.app, "POST", "/api/users/ui-language", { token, form: {} })).status).toBe(400);
    expect(await stored(user.id)).toBe("it");
    expect((await call(t.app, "POST", "/api/users/ui-language", { form: { language: "fr" } })).status).toBe(
      401,
    );
  });
});
