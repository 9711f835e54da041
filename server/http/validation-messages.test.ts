import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { FILL_REQUIRED_FIELDS, RULES } from "../../common/validation";
import { english } from "../i18n/messages";
import {
  type CallResult,
  call,
  callMultipart,
  demoWithCharacter,
  describeEachDatabase,
} from "../testing/api";
import { createTestApp, type TestApp } from "../testing/server";
import { parseInput } from "./validate";

/**
 * Every validated route family answers a bad input with a sentence for people — no
 * field-name prefix, a capital first, a full stop (or the spec's '!') last — the same sentence the
 * browser shows from common/validation.ts; status 400 and the spec's envelope stay.
 */
function expectSentence(answer: CallResult, sentence: string, what: string): void {
  expect(answer.status, what).toBe(400);
  expect(answer.body, what).toMatchObject({ success: 0, message: sentence });
  expect(answer.body.message, what).toMatch(/^[A-Z]/);
  expect(answer.body.message, what).toMatch(/[.!]$/);
  expect(answer.body.message, what).not.toMatch(/^[\w.]+: /);
}

describeEachDatabase("validation messages are sentences", (dialect) => {
  let t: TestApp;
  let user: { token: string; userId: string; characterId: string };
  let admin: { token: string; userId: string; characterId: string };
  let languageId = "";
  beforeAll(async () => {
    // The free subscription is offered only where its video is configured.
    t = await createTestApp({ dialect, env: { FREE_SUBSCRIBE_VIDEO_ID: "vid123" } });
    user = await demoWithCharacter(t.app);
    admin = await demoWithCharacter(t.app);
    await t.db.db.updateTable("users").set({ role: "admin" }).where("id", "=", admin.userId).execute();
    const res = await call(t.app, "GET", "/api/characters/languages", { token: user.token });
    languageId = (res.body.languages as Array<{ languageUUID: string }>)[0]!.languageUUID;
  }, 120_000);
  afterAll(async () => {
    await t?.dispose();
  });

  it("public pages: contact, free subscribe", async () => {
    const contact = (form: Record<string, string>) =>
      call(t.app, "POST", "/api/contact", {
        form: { name: "Ann", email: "ann@example.com", subject: "Hi", message: "Hello", ...form },
      });
    expectSentence(await contact({ email: "nope" }), "The e-mail address is not valid.", "contact e-mail");
    expectSentence(await contact({ name: "  " }), "Your name is required.", "contact name");
    expectSentence(
      await contact({ subject: "s".repeat(201) }),
      "The subject must be at most 200 characters.",
      "contact subject",
    );
    expectSentence(
      await call(t.app, "POST", "/api/users/free/subscribe/process", { form: { email: " " } }),
      "The e-mail address is required.",
      "subscribe",
    );
  });

  it("authentication: login, demo, device, forgot and reset password", async () => {
    expectSentence(
      await call(t.app, "POST", "/api/auth/login", { form: { email: "", password: "x" } }),
      "The e-mail address is required.",
      "login e-mail",
    );
    expectSentence(
      await call(t.app, "POST", "/api/auth/login", { form: { email: "a@example.com" } }),
      "The password is required.",
      "login password",
    );
    expectSentence(
      await call(t.app, "POST", "/api/auth/demo-login", { form: { id: " " } }),
      "The demo id is required.",
      "demo",
    );
    expectSentence(
      await call(t.app, "POST", "/api/auth/device-login", { form: { id: "short" } }),
      "The device id is not valid.",
      "device",
    );
    expectSentence(
      await call(t.app, "POST", "/api/auth/devices", { token: user.token, form: { name: "d".repeat(101) } }),
      "The device name must be at most 100 characters.",
      "device name",
    );
    expectSentence(
      await call(t.app, "POST", "/api/auth/forgot-password", { form: { email: "x@" } }),
      english(RULES.email.messages.format),
      "forgot",
    );
    expectSentence(
      await call(t.app, "PATCH", "/api/users/change-password", {
        form: { npassword: "short", rtpassword: "short", code: "c".repeat(30) },
      }),
      "The new password must be at least 8 characters.",
      "reset",
    );
  });

  it("profile: update, password change, age confirmation", async () => {
    const update = (fields: Record<string, string>) =>
      callMultipart(t.app, "/api/users/update", {
        token: user.token,
        fields: { fname: "Ann", name: "ann", ...fields },
      });
    expectSentence(await update({ fname: " " }), english(FILL_REQUIRED_FIELDS), "full name");
    expectSentence(
      await update({ name: "n".repeat(51) }),
      "The user name must be at most 50 characters.",
      "name",
    );
    const password = (form: Record<string, string>) =>
      call(t.app, "PATCH", "/api/users/update-password", {
        token: user.token,
        form: { cpassword: "old-secret", npassword: "new-secret", rtpassword: "new-secret", ...form },
      });
    expectSentence(await password({ cpassword: "" }), "The current password is required.", "current");
    expectSentence(
      await password({ npassword: "short", rtpassword: "short" }),
      "The new password must be at least 8 characters.",
      "new",
    );
    expectSentence(await password({ rtpassword: "" }), "The retyped password is required.", "retyped");
    expectSentence(
      await call(t.app, "POST", "/api/users/confirm-age", { token: user.token, form: { confirm: "0" } }),
      "Please confirm that you are 18 or older.",
      "age",
    );
  });

  it("characters: the form, ids, voice preview", async () => {
    const create = (fields: Record<string, string>) =>
      callMultipart(t.app, "/api/characters/create", {
        token: user.token,
        fields: {
          name: "Nova",
          sex: "0",
          voice: "English Female",
          language: languageId,
          description: "A pilot.",
          ...fields,
        },
      });
    expectSentence(await create({ name: "" }), "Please fill in all required fields!", "name");
    expectSentence(await create({ sex: "" }), "Please fill in all required fields!", "sex blank");
    expectSentence(await create({ sex: "7" }), "The sex must be female or male.", "sex");
    expectSentence(
      await create({ description: "d".repeat(2001) }),
      "The backstory must be at most 2000 characters.",
      "backstory",
    );
    expectSentence(
      await create({ appearance: "a".repeat(101) }),
      "The appearance must be at most 100 characters.",
      "appearance",
    );
    expectSentence(
      await call(t.app, "GET", "/api/characters/?id=nope", { token: user.token }),
      "The character id is not valid.",
      "id",
    );
    expectSentence(
      await call(t.app, "GET", "/api/characters/voice/preview/?v=", { token: user.token }),
      "The voice is required.",
      "voice preview",
    );
  });

  it("chat: message, history paging, groups, pictures, memories", async () => {
    const send = (fields: Record<string, string>) =>
      callMultipart(t.app, "/api/chat/message", {
        token: user.token,
        fields: { id: user.characterId, ...fields },
      });
    expectSentence(await send({ message: "   " }), "The message is empty.", "empty");
    expectSentence(
      await send({ message: "m".repeat(151) }),
      "The message must be at most 150 characters.",
      "long",
    );
    expectSentence(
      await send({ message: "hi", pname: "p".repeat(51) }),
      "The name you go by must be at most 50 characters.",
      "pname",
    );
    expectSentence(
      await call(t.app, "GET", "/api/chat/history?offset=-1", { token: user.token }),
      "The offset must be at least 0.",
      "offset",
    );
    expectSentence(
      await call(t.app, "GET", "/api/chat/history?limit=1000", { token: user.token }),
      "The page size must be at most 100.",
      "limit",
    );
    expectSentence(
      await call(t.app, "GET", "/api/chat/group/new?cId=bad", { token: user.token }),
      "The character id is not valid.",
      "group",
    );
    expectSentence(
      await call(t.app, "POST", "/api/chat/stop", { token: user.token, form: { id: "bad" } }),
      "The message id is not valid.",
      "stop",
    );
    expectSentence(
      await call(t.app, "POST", "/api/chat/image", { token: user.token, form: { id: "bad" } }),
      "The message id is not valid.",
      "image",
    );
    expectSentence(
      await callMultipart(t.app, "/api/chat/photo-process", {
        token: user.token,
        fields: { id: user.characterId },
      }),
      "The photo is required (a JPEG or PNG image).",
      "photo",
    );
    expectSentence(
      await call(t.app, "DELETE", "/api/chat/memories/?id=bad", { token: user.token }),
      "The memory id is not valid.",
      "memory",
    );
  });

  it("admin console: plans, presets, users", async () => {
    const plan = (await t.db.db.selectFrom("plans").select("id").executeTakeFirstOrThrow()).id;
    const post = (url: string, form: Record<string, string>) =>
      call(t.app, "POST", `/api/admin${url}`, { token: admin.token, form });
    expectSentence(
      await post(`/plans/${plan}`, { price: "free" }),
      "The price must be an amount in dollars, e.g. 9.99.",
      "price",
    );
    expectSentence(await post(`/plans/${plan}`, { name: " " }), "The plan name is required.", "plan name");
    expectSentence(
      await post(`/plans/${plan}`, { stripePriceId: "prod_1" }),
      "The Stripe price id must start with 'price_' or be empty.",
      "stripe",
    );
    expectSentence(await post("/plans/not-an-id", { name: "X" }), "The id is not valid.", "plan id");
    expectSentence(
      await post(`/users/${user.userId}/limits`, { chatLimit: "-1" }),
      "The chat limit must be at least 0.",
      "limits",
    );
    expectSentence(
      await post(`/users/${user.userId}/plan`, { plan: "x" }),
      "The plan is not valid.",
      "user plan",
    );
  });

  it("a wrong type from a non-browser client still reads as a sentence naming the field", async () => {
    const json = async (url: string, payload: unknown) => {
      const response = await t.app.inject({
        method: "POST",
        url,
        headers: { "content-type": "application/json" },
        payload: JSON.stringify(payload),
      });
      return { status: response.statusCode, body: response.json() } as CallResult;
    };
    expectSentence(
      await json("/api/contact", { name: 5, email: "a@example.com", subject: "s", message: "m" }),
      "Your name must be text.",
      "number for text",
    );
    expectSentence(
      await json("/api/auth/login", { email: ["a@example.com"], password: "x" }),
      "The e-mail address must be text.",
      "array for text",
    );
    expectSentence(
      await json("/api/contact", ["not", "an", "object"]),
      "The request is not valid.",
      "array body",
    );
  });
});

describe("parseInput sentences", () => {
  it("names an unknown field in words only as the last resort", () => {
    const attempt = (schema: z.ZodType, input: unknown) => {
      try {
        parseInput(schema, input);
        return "";
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(attempt(z.object({ extraMessages: z.coerce.number().int() }), { extraMessages: "x" })).toBe(
      "The number of extra messages is not valid.",
    );
    expect(attempt(z.object({ zz9: z.string() }), { zz9: 1 })).toBe("The field 'zz9' is not valid.");
    expect(
      attempt(z.object({ audio: z.instanceof(Buffer, { message: "is required (a recording)" }) }), {}),
    ).toBe("The recording is required (a recording).");
  });
});
