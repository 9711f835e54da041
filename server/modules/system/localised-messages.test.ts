import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { demoWithCharacter, describeEachDatabase } from "../../testing/api";
import { ScriptedLlm } from "../../testing/fake-llm";
import { createTestApp, type TestApp } from "../../testing/server";

/** The SPA's header for a German browser. */
const GERMAN = "de-DE,de;q=0.9,en;q=0.5";
/** French is the best supported language of this one (English has the lowest weight). */
const FRENCH_BEST = "en;q=0.4, fr-CA;q=0.9, de;q=0.7";

/**
 * Server messages in the request's language: the envelope's `message` of a 404, a
 * validation error and a 429, and the `error` event of a streamed send, read German with a German
 * Accept-Language, English without one, the best q-valued language otherwise, and the user's
 * stored UI language when the request names none.
 */
describeEachDatabase("server messages in the request's language", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ dialect, llm: new ScriptedLlm(() => "ok"), env: { RATE_LIMIT_ENABLED: "1" } });
  });
  afterAll(async () => {
    await t?.dispose();
  });

  const ask = async (
    method: "GET" | "POST" | "DELETE",
    url: string,
    options: { token?: string; form?: Record<string, string>; language?: string; accept?: string } = {},
  ) => {
    const response = await t.app.inject({
      method,
      url,
      headers: {
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
        ...(options.form ? { "content-type": "application/x-www-form-urlencoded" } : {}),
        ...(options.language ? { "accept-language": options.language } : {}),
        ...(options.accept ? { accept: options.accept } : {}),
      },
      payload: options.form ? new URLSearchParams(options.form).toString() : undefined,
    });
    return response;
  };
  const messageOf = async (...args: Parameters<typeof ask>) => {
    const response = await ask(...args);
    return { status: response.statusCode, ...(response.json() as { success: number; message: string }) };
  };

  it("a 404 reads German, English without the header, French when it is the best weight", async () => {
    const s = await demoWithCharacter(t.app);
    const url = `/api/chat/memories/?id=${randomUUID()}`;
    expect(await messageOf("DELETE", url, { token: s.token, language: GERMAN })).toMatchObject({
      status: 404,
      success: 0,
      message: "Erinnerung nicht gefunden.",
    });
    expect((await messageOf("DELETE", url, { token: s.token })).message).toBe("Memory not found.");
    expect((await messageOf("DELETE", url, { token: s.token, language: FRENCH_BEST })).message).toBe(
      "Souvenir introuvable.",
    );
    // Caches keep one answer per language.
    expect((await ask("DELETE", url, { token: s.token })).headers.vary).toMatch(/accept-language/i);
    // The not-found handler's own answer (a pattern with the path in it).
    expect((await messageOf("GET", "/api/nowhere", { language: GERMAN })).message).toBe(
      "Unbekannter API-Pfad: GET /api/nowhere",
    );
  });

  it("a validation error reads German, English without the header, French when it is the best weight", async () => {
    const s = await demoWithCharacter(t.app);
    const form = { message: "x".repeat(151), id: s.characterId };
    const german = await messageOf("POST", "/api/chat/message", { token: s.token, form, language: GERMAN });
    expect(german).toMatchObject({
      status: 400,
      message: "Die Nachricht darf höchstens 150 Zeichen lang sein.",
    });
    expect((await messageOf("POST", "/api/chat/message", { token: s.token, form })).message).toBe(
      "The message must be at most 150 characters.",
    );
    expect(
      (await messageOf("POST", "/api/chat/message", { token: s.token, form, language: FRENCH_BEST })).message,
    ).toBe("Le message doit contenir au maximum 150 caractères.");
    // A sentence built from a field in words no schema worded (server/http/validate.ts).
    expect(
      (await messageOf("DELETE", "/api/chat/memories/?id=nope", { token: s.token, language: GERMAN }))
        .message,
    ).toMatch(/ist ungültig\.$/);
  });

  it("a 429 of the message quota and of the rate limiter read in the request's language", async () => {
    const s = await demoWithCharacter(t.app);
    await t.db.db.updateTable("users").set({ chat_limit: 0 }).where("id", "=", s.userId).execute();
    t.caches.forgetAll();
    const form = { message: "hello", id: s.characterId };
    expect(
      await messageOf("POST", "/api/chat/message", { token: s.token, form, language: GERMAN }),
    ).toMatchObject({
      status: 429,
      message:
        "Du hast dein Limit von 0 Nachrichten für heute erreicht. Wechsle zu einem größeren Plan, um mehr zu chatten.",
    });
    expect((await messageOf("POST", "/api/chat/message", { token: s.token, form })).message).toBe(
      "You have reached your limit of 0 messages for today. Upgrade your plan to chat more.",
    );
    expect(
      (await messageOf("POST", "/api/chat/message", { token: s.token, form, language: FRENCH_BEST })).message,
    ).toBe(
      "Vous avez atteint votre limite de 0 messages pour aujourd'hui. Passez à une offre supérieure pour discuter davantage.",
    );

    // The contact form allows 5 per 10 minutes per address: the 6th to 8th are refused.
    const contact = { name: "A", email: "a@example.com", subject: "s", message: "m" };
    for (let i = 0; i < 5; i++) await ask("POST", "/api/contact", { form: contact });
    const limited = await messageOf("POST", "/api/contact", { form: contact, language: GERMAN });
    expect(limited.status).toBe(429);
    expect(limited.message).toMatch(
      /^Zu viele Versuche\. Bitte warte \d+ Minuten? und versuche es erneut\.$/,
    );
    expect((await messageOf("POST", "/api/contact", { form: contact })).message).toMatch(
      /^Too many attempts\. Please wait \d+ minutes? and try again\.$/,
    );
    expect(
      (await messageOf("POST", "/api/contact", { form: contact, language: FRENCH_BEST })).message,
    ).toMatch(/^Trop de tentatives\. Veuillez patienter \d+ minutes? et réessayer\.$/);
  });

  it("the error event of a streamed send reads in the request's language", async () => {
    const s = await demoWithCharacter(t.app);
    await t.db.db.updateTable("users").set({ chat_limit: 0 }).where("id", "=", s.userId).execute();
    t.caches.forgetAll();
    const streamed = async (language?: string) => {
      const response = await ask("POST", "/api/chat/message", {
        token: s.token,
        form: { message: "hello", id: s.characterId, stream: "1" },
        accept: "text/event-stream",
        language,
      });
      expect(response.headers["content-type"]).toContain("text/event-stream");
      const block = response.body.split("\n\n").find((b) => b.includes("event: error")) ?? "";
      return JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? "{}") as { message?: string; status?: number };
    };
    expect(await streamed(GERMAN)).toMatchObject({
      status: 429,
      message:
        "Du hast dein Limit von 0 Nachrichten für heute erreicht. Wechsle zu einem größeren Plan, um mehr zu chatten.",
    });
    expect((await streamed()).message).toBe(
      "You have reached your limit of 0 messages for today. Upgrade your plan to chat more.",
    );
  });

  it("without Accept-Language a signed-in user's stored UI language is used; the header wins over it", async () => {
    const s = await demoWithCharacter(t.app);
    await t.db.db.updateTable("users").set({ ui_language: "it" }).where("id", "=", s.userId).execute();
    t.caches.forgetAll();
    const url = `/api/chat/memories/?id=${randomUUID()}`;
    expect((await messageOf("DELETE", url, { token: s.token })).message).toBe("Ricordo non trovato.");
    expect((await messageOf("DELETE", url, { token: s.token, language: "pt-PT" })).message).toBe(
      "Memória não encontrada.",
    );
    // A success envelope too.
    expect((await messageOf("GET", "/api/characters/list/", { token: s.token })).message).toBe("Personaggi.");
  });
});
