// The model connections' API: CRUD, validation, admin only, keys encrypted, lists, tests and which connection answers a chat.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import type {
  ModelAssignments,
  ModelConnection,
  ModelsOverview,
  ModelTestResult,
} from "../../../common/models-api";
import { demoWithCharacter, describeEachDatabase } from "../../testing/api";
import { ScriptedLlm } from "../../testing/fake-llm";
import { createTestApp, type TestApp, TINY_MODEL_PATH } from "../../testing/server";
import { MODEL_ROUTE_LIST } from "./models.routes";
import { adminToken, api, chat, type FakeEndpoint, startFakeEndpoint } from "./models.testing";

const input = (baseUrl: string, extra: Record<string, unknown> = {}) => ({
  name: "Endpoint",
  kind: "openai",
  preset: "custom",
  baseUrl,
  model: "m-a",
  maxTokens: 200,
  temperature: 0.5,
  contextSize: 4096,
  ...extra,
});

describeEachDatabase("model connections API", (dialect) => {
  let t: TestApp;
  let admin: string;
  let alpha: FakeEndpoint;
  let beta: FakeEndpoint;
  const injected = new ScriptedLlm(async () => "Injected reply.");

  beforeAll(async () => {
    alpha = await startFakeEndpoint("Alpha answers.", ["m-b", "m-a"]);
    beta = await startFakeEndpoint("Beta answers.", ["z"]);
    t = await createTestApp({
      dialect,
      llm: injected,
      env: { LLM_MODEL_PATH: TINY_MODEL_PATH, MODEL_KEYS_SECRET: "a test secret of the model keys" },
    });
    admin = await adminToken(t, "owner@example.com");
  }, 120_000);
  afterAll(async () => {
    await t?.dispose();
    await alpha?.close();
    await beta?.close();
  });

  it("answers 401 without a session and 403 to a non-admin on every route (list and test included)", async () => {
    const member = await demoWithCharacter(t.app);
    for (const route of MODEL_ROUTE_LIST) {
      const url = route.url.replace("/api/admin/models", "");
      const body = route.method === "POST" ? { id: "x", kind: "openai", baseUrl: alpha.baseUrl } : undefined;
      expect((await api(t, undefined, url, body)).status, route.url).toBe(401);
      const denied = await api(t, member.token, url, body);
      expect(denied.status, route.url).toBe(403);
      expect(denied.body).toMatchObject({ success: 0, message: "This area is for administrators only." });
    }
    expect(alpha.authorizations).toEqual([]);
  });

  it("creates, lists, updates and deletes a connection; the key is stored encrypted and never answered", async () => {
    const created = await api(t, admin, "/create", input(alpha.baseUrl, { apiKey: "sk-very-secret-1" }));
    expect(created.status).toBe(200);
    const connection = created.body.data as ModelConnection;
    expect(connection).toMatchObject({ name: "Endpoint", kind: "openai", hasApiKey: true, maxTokens: 200 });
    expect(connection.temperature).toBeCloseTo(0.5);
    const row = await t.db.db
      .selectFrom("model_connections")
      .selectAll()
      .where("id", "=", connection.id)
      .executeTakeFirstOrThrow();
    expect(row.api_key_encrypted).toMatch(/^v1:/);
    expect(row.api_key_encrypted).not.toContain("sk-very-secret-1");
    expect(Buffer.from(row.api_key_encrypted.slice(3), "base64").toString("latin1")).not.toContain(
      "very-secret",
    );

    const overview = await api(t, admin, "");
    expect(overview.raw).not.toContain("sk-very-secret-1");
    const data = overview.body.data as ModelsOverview;
    expect(data.connections.map((c) => c.id)).toContain(connection.id);
    expect(data.presets.find((p) => p.preset === "ollama")?.baseUrl).toBe("http://127.0.0.1:11434/v1");
    expect(data.embeddedFiles).toContain(TINY_MODEL_PATH);
    expect(data.assignments.plans.length).toBeGreaterThan(0);

    // Absent key: kept; the stored key goes to the endpoint when listing its models.
    const updated = await api(t, admin, "/update", {
      id: connection.id,
      ...input(alpha.baseUrl, { name: "Renamed" }),
    });
    expect(updated.body.data).toMatchObject({ name: "Renamed", hasApiKey: true });
    expect(updated.raw).not.toContain("sk-very-secret-1");
    const listed = await api(t, admin, "/list", { id: connection.id });
    expect(listed.body.data).toEqual({ models: ["m-a", "m-b"] });
    expect(alpha.authorizations.at(-1)).toBe("Bearer sk-very-secret-1");
    // "" removes the key.
    const cleared = await api(t, admin, "/update", {
      id: connection.id,
      ...input(alpha.baseUrl, { apiKey: "" }),
    });
    expect(cleared.body.data).toMatchObject({ hasApiKey: false });

    // The audit log names each change, never the key.
    const audit = await t.db.db
      .selectFrom("admin_audit")
      .select(["action", "details"])
      .where("target", "=", connection.id)
      .execute();
    expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(["model.create", "model.update"]));
    expect(JSON.stringify(audit)).not.toContain("sk-very-secret-1");
    expect((await api(t, admin, "/delete", { id: connection.id })).body).toMatchObject({
      success: 1,
      data: null,
    });
    expect((await api(t, admin, "/delete", { id: connection.id })).status).toBe(404);
  });

  it("refuses invalid input with a sentence, unknown ids with 404, and any embedded path outside the server's GGUF files", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: "" }, "The name must be 1 to 60 characters."],
      [{ name: "x".repeat(61) }, "The name must be 1 to 60 characters."],
      [
        { baseUrl: "ftp://127.0.0.1/v1" },
        "The base URL must be an http:// or https:// address of at most 500 characters.",
      ],
      [
        { baseUrl: `http://h/${"a".repeat(500)}` },
        "The base URL must be an http:// or https:// address of at most 500 characters.",
      ],
      [{ model: "" }, "The model must be 1 to 200 characters."],
      [{ maxTokens: 0 }, "The longest reply must be a whole number from 1 to 8192 tokens."],
      [{ maxTokens: 9000 }, "The longest reply must be a whole number from 1 to 8192 tokens."],
      [{ temperature: 2.5 }, "The temperature must be a number from 0 to 2."],
      [{ contextSize: 100 }, "The context size must be a whole number from 512 to 262144 tokens."],
      [{ kind: "shell" }, "The kind must be 'openai' or 'embedded'."],
      [{ preset: "mine" }, "The preset is not one of the offered ones."],
      [{ kind: "embedded", model: "/etc/passwd" }, "The model file must be one of the server's GGUF files."],
      [
        { kind: "embedded", model: `${TINY_MODEL_PATH}/../stories260K.gguf` },
        "The model file must be one of the server's GGUF files.",
      ],
    ];
    for (const [fields, sentence] of cases) {
      const res = await api(t, admin, "/create", input(alpha.baseUrl, fields));
      expect(res.status, JSON.stringify(fields)).toBe(400);
      expect(res.body.message).toBe(sentence);
    }
    const embedded = await api(t, admin, "/create", input("", { kind: "embedded", model: TINY_MODEL_PATH }));
    expect(embedded.body.data).toMatchObject({
      kind: "embedded",
      model: TINY_MODEL_PATH,
      baseUrl: "",
      hasApiKey: false,
    });
    const unknown = "00000000-0000-4000-8000-000000000000";
    expect((await api(t, admin, "/update", { id: unknown, ...input(alpha.baseUrl) })).status).toBe(404);
    expect((await api(t, admin, "/test", { id: unknown })).status).toBe(404);
    expect((await api(t, admin, "/list", { id: unknown })).status).toBe(404);
    expect((await api(t, admin, "/assign", { scope: "default", connectionId: unknown })).status).toBe(404);
    const id = (embedded.body.data as ModelConnection).id;
    const plan = await api(t, admin, "/assign", { scope: "plan", targetId: unknown, connectionId: id });
    expect(plan).toMatchObject({ status: 400, body: { message: "This plan does not exist." } });
    const s = await demoWithCharacter(t.app);
    // A user's own character is no preset: refused.
    const own = await api(t, admin, "/assign", {
      scope: "character",
      targetId: s.characterId,
      connectionId: id,
    });
    expect(own).toMatchObject({ status: 400, body: { message: "This preset character does not exist." } });
    expect((await api(t, admin, "/assign", { scope: "plan", connectionId: id })).status).toBe(400);
    await api(t, admin, "/delete", { id });
  });

  it("lists an address's models (bounded), the server's GGUF files for embedded, and tests a connection with timings", async () => {
    const listed = await api(t, admin, "/list", {
      kind: "openai",
      baseUrl: alpha.baseUrl,
      apiKey: "sk-form",
    });
    expect(listed.body.data).toEqual({ models: ["m-a", "m-b"] });
    expect(alpha.authorizations.at(-1)).toBe("Bearer sk-form");
    expect((await api(t, admin, "/list", { kind: "embedded", baseUrl: "" })).body.data).toEqual({
      models: expect.arrayContaining([TINY_MODEL_PATH]),
    });
    // An endpoint answering without end is cut at the size bound (the admin is trusted with the
    // address; every fetch is bounded in time and size).
    const huge = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json" });
      res.write('{"data":[');
      const piece = '{"id":"x"},'.repeat(10_000);
      const more = () => {
        while (res.write(piece)) if (res.writableLength > 8 * 1024 * 1024) return;
        res.once("drain", more);
      };
      more();
    });
    await new Promise<void>((resolve) => huge.listen(0, "127.0.0.1", resolve));
    const hugeUrl = `http://127.0.0.1:${(huge.address() as AddressInfo).port}/v1`;
    const bounded = await api(t, admin, "/list", { kind: "openai", baseUrl: hugeUrl });
    huge.closeAllConnections();
    huge.close();
    expect(bounded).toMatchObject({
      status: 400,
      body: { message: "The server did not answer with a list of models." },
    });
    const closed = await api(t, admin, "/list", { kind: "openai", baseUrl: "http://127.0.0.1:9/v1" });
    expect(closed).toMatchObject({
      status: 400,
      body: { message: "The server did not answer with a list of models." },
    });

    const created = (await api(t, admin, "/create", input(beta.baseUrl))).body.data as ModelConnection;
    const tested = (await api(t, admin, "/test", { id: created.id })).body.data as ModelTestResult;
    expect(tested).toMatchObject({ ok: true, text: "Beta answers." });
    expect(tested.timeToFirstTokenMs).toEqual(expect.any(Number));
    expect(tested.totalMs).toBeGreaterThanOrEqual(tested.timeToFirstTokenMs!);
    const dead = (await api(t, admin, "/create", input("http://127.0.0.1:9/v1"))).body
      .data as ModelConnection;
    const failed = (await api(t, admin, "/test", { id: dead.id })).body.data as ModelTestResult;
    expect(failed).toMatchObject({
      ok: false,
      timeToFirstTokenMs: null,
      error: "The model could not be reached or refused the request.",
    });
    await api(t, admin, "/delete", { id: created.id });
    await api(t, admin, "/delete", { id: dead.id });
  });

  it("answers a chat with the character's connection, else the plan's, else the default; the injected model where none is assigned", async () => {
    const s = await demoWithCharacter(t.app);
    const user = await t.db.db
      .selectFrom("users")
      .select("plan_id")
      .where("id", "=", s.userId)
      .executeTakeFirstOrThrow();
    const character = await t.db.db
      .selectFrom("characters")
      .select("preset_id")
      .where("id", "=", s.characterId)
      .executeTakeFirstOrThrow();
    expect((await chat(t, s.token, s.characterId, "hello")).text).toBe("Injected reply.");

    const a = (
      await api(t, admin, "/create", input(alpha.baseUrl, { name: "A", maxTokens: 77, temperature: 0.3 }))
    ).body.data as ModelConnection;
    const b = (await api(t, admin, "/create", input(beta.baseUrl, { name: "B" }))).body
      .data as ModelConnection;
    const assign = async (scope: string, targetId: string, connectionId: string | null) =>
      (await api(t, admin, "/assign", { scope, targetId, connectionId })).body.data as ModelAssignments;

    expect((await assign("default", "", a.id)).defaultId).toBe(a.id);
    expect((await chat(t, s.token, s.characterId, "one")).text).toBe("Alpha answers.");
    // The connection's settings apply to the reply.
    expect(alpha.chats.at(-1)).toMatchObject({ model: "m-a", max_tokens: 77 });
    expect(alpha.chats.at(-1)?.temperature).toBeCloseTo(0.3);

    const afterPlan = await assign("plan", user.plan_id, b.id);
    expect(afterPlan.plans.find((p) => p.planId === user.plan_id)?.connectionId).toBe(b.id);
    expect((await chat(t, s.token, s.characterId, "two")).text).toBe("Beta answers.");

    await assign("character", character.preset_id!, a.id);
    expect((await chat(t, s.token, s.characterId, "three")).text).toBe("Alpha answers.");

    await assign("character", character.preset_id!, null);
    expect((await chat(t, s.token, s.characterId, "four")).text).toBe("Beta answers.");

    // Deleting a connection clears its assignments: the plan's goes, the default answers.
    await api(t, admin, "/delete", { id: b.id });
    const overview = (await api(t, admin, "")).body.data as ModelsOverview;
    expect(overview.assignments.plans.every((p) => p.connectionId === null)).toBe(true);
    expect((await chat(t, s.token, s.characterId, "five")).text).toBe("Alpha answers.");

    await assign("default", "", null);
    expect((await chat(t, s.token, s.characterId, "six")).text).toBe("Injected reply.");
    await api(t, admin, "/delete", { id: a.id });
  });

  it("makes the first connection saved the default, with its chosen model; a later one leaves the default alone", async () => {
    const s = await demoWithCharacter(t.app);
    const before = (await api(t, admin, "")).body.data as ModelsOverview;
    expect(before.assignments.defaultId).toBeNull();
    expect((await chat(t, s.token, s.characterId, "before")).text).toBe("Injected reply.");

    const first = (await api(t, admin, "/create", input(beta.baseUrl, { name: "First", model: "z" }))).body
      .data as ModelConnection;
    const after = (await api(t, admin, "")).body.data as ModelsOverview;
    expect(after.assignments.defaultId).toBe(first.id);
    expect((await chat(t, s.token, s.characterId, "first")).text).toBe("Beta answers.");
    expect(beta.chats.at(-1)).toMatchObject({ model: "z" });

    const second = (await api(t, admin, "/create", input(alpha.baseUrl, { name: "Second" }))).body
      .data as ModelConnection;
    expect(((await api(t, admin, "")).body.data as ModelsOverview).assignments.defaultId).toBe(first.id);
    const audit = await t.db.db
      .selectFrom("admin_audit")
      .select(["action", "target"])
      .where("action", "=", "model.assign")
      .execute();
    expect(audit.filter((a) => a.target === first.id)).toHaveLength(1);
    expect(audit.filter((a) => a.target === second.id)).toHaveLength(0);
    await api(t, admin, "/delete", { id: first.id });
    await api(t, admin, "/delete", { id: second.id });
  });
});
