// Model connections without a restart: a second instance follows a change; the environment seeds the first connection; keys need a shared secret.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ModelConnection, ModelsOverview } from "../../../common/models-api";
import type { App } from "../../app";
import { loadConfig } from "../../env";
import { NOT_CONFIGURED_MESSAGE } from "../../providers/llm/llm";
import { demoWithCharacter, describeEachDatabase } from "../../testing/api";
import { ScriptedLlm } from "../../testing/fake-llm";
import { createTestStack, type TestApp, type TestStack, TINY_MODEL_PATH } from "../../testing/server";
import { KEY_UNREADABLE, keyBoxFor, SECRET_NEEDED } from "./models.keys";
import { MODELS_POLL_MS } from "./models.registry";
import { adminToken, api, chat, type FakeEndpoint, startFakeEndpoint } from "./models.testing";

const SECRET = "a test secret of the model keys";

/** An App as the helpers take it (the stack's apps have no dispose of their own). */
const asTest = (app: App) => app as TestApp;

describeEachDatabase("model connections across instances and at start", (dialect) => {
  let alpha: FakeEndpoint;
  const stacks: TestStack[] = [];
  const apps: App[] = [];
  beforeAll(async () => {
    alpha = await startFakeEndpoint("Alpha answers.", ["m-a"]);
  });
  afterAll(async () => {
    for (const app of apps) await app.close().catch(() => {});
    for (const stack of stacks) await stack.dispose();
    await alpha?.close();
  });
  async function stack(options: Parameters<typeof createTestStack>[0]) {
    const made = await createTestStack({ dialect, ...options });
    stacks.push(made);
    return made;
  }
  async function start(made: TestStack) {
    const app = await made.start();
    apps.push(app);
    return app;
  }

  it("a change on one instance answers on another sharing the database within about two seconds", async () => {
    const injected = new ScriptedLlm(async () => "Injected reply.");
    const shared = await stack({ llm: injected, env: { MODEL_KEYS_SECRET: SECRET } });
    const one = asTest(await start(shared));
    const two = asTest(await start(shared));
    const admin = await adminToken(one, "owner@example.com");
    const s = await demoWithCharacter(two.app);
    expect((await chat(two, s.token, s.characterId, "before")).text).toBe("Injected reply.");

    const created = await api(one, admin, "/create", {
      name: "Alpha",
      kind: "openai",
      preset: "custom",
      baseUrl: alpha.baseUrl,
      model: "m-a",
      apiKey: "sk-shared",
      maxTokens: 100,
      temperature: 0.7,
      contextSize: 4096,
    });
    const id = (created.body.data as ModelConnection).id;
    await api(one, admin, "/assign", { scope: "default", connectionId: id });
    const changed = performance.now();
    let text = "";
    while (performance.now() - changed < 5_000) {
      text = (await chat(two, s.token, s.characterId, "after")).text;
      if (text === "Alpha answers.") break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(text).toBe("Alpha answers.");
    expect(performance.now() - changed).toBeLessThan(2 * MODELS_POLL_MS + 1_500);
    // The other instance decrypted the key with the shared secret.
    expect(alpha.authorizations.at(-1)).toBe("Bearer sk-shared");
  });

  it("seeds the environment's endpoint as the first connection and default, once; deleting it leaves no model", async () => {
    const env = {
      LLM_PROVIDER: "openai",
      LLM_BASE_URL: alpha.baseUrl,
      LLM_MODEL: "m-a",
      LLM_API_KEY: "sk-from-env",
      MODEL_KEYS_SECRET: SECRET,
    };
    const made = await stack({ env });
    const first = asTest(await start(made));
    const admin = await adminToken(first, "owner@example.com");
    const overview = await api(first, admin, "");
    expect(overview.raw).not.toContain("sk-from-env");
    const data = overview.body.data as ModelsOverview;
    expect(data.connections).toHaveLength(1);
    expect(data.connections[0]).toMatchObject({
      kind: "openai",
      model: "m-a",
      baseUrl: alpha.baseUrl,
      hasApiKey: true,
    });
    expect(data.assignments.defaultId).toBe(data.connections[0]!.id);
    const row = await first.db.db
      .selectFrom("model_connections")
      .select("api_key_encrypted")
      .executeTakeFirstOrThrow();
    expect(row.api_key_encrypted).not.toContain("sk-from-env");

    const s = await demoWithCharacter(first.app);
    expect((await chat(first, s.token, s.characterId, "hi")).text).toBe("Alpha answers.");
    expect(alpha.authorizations.at(-1)).toBe("Bearer sk-from-env");

    await api(first, admin, "/delete", { id: data.connections[0]!.id });
    const off = await chat(first, s.token, s.characterId, "anyone?");
    expect(off.body.success).toBe(0);
    expect(off.body.message).toBe(NOT_CONFIGURED_MESSAGE);
    await first.close();
    apps.splice(apps.indexOf(first), 1);

    // A restart does not bring the deleted connection back.
    const again = asTest(await start(made));
    const login = await adminToken(again, "second@example.com");
    expect(((await api(again, login, "")).body.data as ModelsOverview).connections).toEqual([]);
  });

  it("seeds LLM_MODEL_PATH as an embedded connection that reuses the loaded model; no model configured: no connection", async () => {
    const llama = asTest(
      await start(await stack({ env: { LLM_PROVIDER: "llama", LLM_MODEL_PATH: TINY_MODEL_PATH } })),
    );
    await llama.llmReady;
    const admin = await adminToken(llama, "owner@example.com");
    const data = (await api(llama, admin, "")).body.data as ModelsOverview;
    expect(data.connections).toMatchObject([{ kind: "embedded", model: TINY_MODEL_PATH, hasApiKey: false }]);
    expect(data.assignments.defaultId).toBe(data.connections[0]!.id);
    const router = (llama.llm as unknown as { router: { resolve(r: unknown): { provider: unknown } } })
      .router;
    expect(router.resolve(undefined).provider).toBe(llama.llm.base());
    expect(llama.llm.status().ready).toBe(true);

    const none = asTest(await start(await stack({})));
    const owner = await adminToken(none, "owner@example.com");
    expect(((await api(none, owner, "")).body.data as ModelsOverview).connections).toEqual([]);
    expect(none.llm.status()).toMatchObject({ ready: false, message: NOT_CONFIGURED_MESSAGE });
  }, 60_000);
});

describe("model API keys at rest", () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "model-keys-"));
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const config = (extra: Partial<Record<"MODEL_KEYS_SECRET" | "DATABASE_URL" | "S3_BUCKET", string>>) => ({
    MODEL_KEYS_SECRET: "",
    DATABASE_URL: "",
    S3_BUCKET: "",
    dataDir,
    ...extra,
  });

  it("round-trips with a fresh IV each time; another secret cannot read it", () => {
    const box = keyBoxFor(config({ MODEL_KEYS_SECRET: "one" }));
    const a = box.encrypt("sk-abc");
    expect(a).not.toBe(box.encrypt("sk-abc"));
    expect(box.decrypt(a)).toBe("sk-abc");
    expect(() => keyBoxFor(config({ MODEL_KEYS_SECRET: "two" })).decrypt(a)).toThrow(KEY_UNREADABLE);
    const tampered = `${a.slice(0, -4)}AAA=`;
    expect(() => box.decrypt(tampered)).toThrow(KEY_UNREADABLE);
  });

  it("a single instance keeps a random secret in its data directory; PostgreSQL or S3 without MODEL_KEYS_SECRET refuse keys", () => {
    const local = keyBoxFor(config({}));
    expect(keyBoxFor(config({})).decrypt(local.encrypt("sk-local"))).toBe("sk-local");
    expect(fs.statSync(path.join(dataDir, "model-keys-secret")).mode & 0o077).toBe(0);
    expect(() => keyBoxFor(config({ DATABASE_URL: "postgres://db/x" })).encrypt("sk")).toThrow(SECRET_NEEDED);
    expect(() => keyBoxFor(config({ S3_BUCKET: "b" })).encrypt("sk")).toThrow(SECRET_NEEDED);
    expect(keyBoxFor(config({ S3_BUCKET: "b" })).encrypt("")).toBe("");
  });

  it("the configuration refuses LLM_API_KEY with PostgreSQL but no MODEL_KEYS_SECRET", () => {
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: "postgres://db/x",
      LLM_BASE_URL: "http://127.0.0.1:1/v1",
      LLM_MODEL: "m",
      LLM_API_KEY: "sk",
    };
    expect(() => loadConfig(env)).toThrow(/MODEL_KEYS_SECRET: required with PostgreSQL/);
    expect(() => loadConfig({ ...env, MODEL_KEYS_SECRET: "s" })).not.toThrow();
  });
});
