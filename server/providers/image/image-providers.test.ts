import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import type { ChatHistoryEntry, MessageReply } from "../../../common/api";
import { seedFor } from "../../modules/images/image-prompt";
import { IMAGE_FAILED_TEXT } from "../../modules/images/image-worker";
import { call, callMultipart, demoWithCharacter } from "../../testing/api";
import { ScriptedLlm } from "../../testing/fake-llm";
import { type ImageDouble, type ImageWire, startImageDouble } from "../../testing/image-servers";
import { allowPictures, contentCookie } from "../../testing/images";
import { createTestApp, type TestApp } from "../../testing/server";
import { fillWorkflow } from "./comfyui";

/**
 * Each image provider against a local server speaking its wire protocol:
 * the prompt, the size of the type (1 portrait, 2 landscape) and the character's seed reach the
 * provider; the picture lands in content/{character id}/ as a JPEG of that size; the entry's
 * chatHistoryImageLoading goes 1 → 0.
 */

let app: TestApp | undefined;
let double: ImageDouble | undefined;
afterEach(async () => {
  await app?.dispose();
  await double?.close();
  app = undefined;
  double = undefined;
});

async function setup(wire: ImageWire, options: Parameters<typeof startImageDouble>[1] = {}) {
  double = await startImageDouble(wire, options);
  app = await createTestApp({
    llm: new ScriptedLlm(),
    env: {
      IMAGE_PROVIDER: wire,
      IMAGE_BASE_URL: double.baseUrl,
      IMAGE_MODEL: wire === "openai" ? "sd-turbo" : "",
      COMFYUI_POLL_MS: "20",
      IMAGE_PORTRAIT_SIZE: "512x768",
      IMAGE_LANDSCAPE_SIZE: "768x512",
    },
  });
  const session = await demoWithCharacter(app.app);
  await allowPictures(app, session.userId);
  const character = await app.db.db
    .selectFrom("characters")
    .selectAll()
    .where("id", "=", session.characterId)
    .executeTakeFirstOrThrow();
  return { app, double, session, character };
}

async function entryOf(testApp: TestApp, token: string, chatId: string, entryId: string) {
  const history = await call(testApp.app, "GET", `/api/chat/history?id=${chatId}`, { token });
  const entries = (history.body.data as { data: ChatHistoryEntry[] }).data;
  return entries.find((e) => e.chatHistoryUUID === entryId);
}

const wires: Array<{ wire: ImageWire; options?: Parameters<typeof startImageDouble>[1] }> = [
  { wire: "openai" },
  { wire: "openai", options: { answer: "url", format: "jpeg" } },
  { wire: "automatic1111" },
  { wire: "comfyui" },
];

describe.each(wires)("image provider $wire $options", ({ wire, options }) => {
  it("draws the character with the request's words, the type's size and the character's seed", async () => {
    const { app, double, session, character } = await setup(wire, { ...options, hold: true });
    const landscape = await callMultipart(app.app, "/api/chat/request-photo", {
      token: session.token,
      fields: {
        message: "Send a photo of.. you reading in a cafe",
        id: character.id,
        cid: character.id,
        mute: "1",
        type: "2",
      },
    });
    const reply = landscape.body as unknown as MessageReply;
    expect(landscape.status).toBe(200);
    expect(reply.success).toBe(1);
    expect(reply.genimage).toBe(1);
    expect(reply.options?.picDesc).toBe("you reading in a cafe");
    const first = reply.history?.[0];
    expect(first?.chatHistoryImageLoading).toBe(1);
    expect(first?.chatHistoryMessage).toBe("Send a photo of.. you reading in a cafe");
    // While the provider works, the stored entry says loading.
    expect(
      (await entryOf(app, session.token, character.id, first!.chatHistoryUUID))?.chatHistoryImageLoading,
    ).toBe(1);

    await double.received(1);
    expect(
      (await entryOf(app, session.token, character.id, first!.chatHistoryUUID))?.chatHistoryImageLoading,
    ).toBe(1);
    double.release();
    await app.images.idle();
    const drawn = double.drawn[0]!;
    expect(drawn.prompt).toContain(character.name);
    expect(drawn.prompt).toContain("reading in a cafe");
    if (character.appearance) expect(drawn.prompt).toContain(character.appearance);
    expect(drawn.prompt).toContain(character.sex === "1" ? "man" : "woman");
    expect({ width: drawn.width, height: drawn.height }).toEqual({ width: 768, height: 512 });
    if (wire !== "openai" || !double.baseUrl.includes("openai.com"))
      expect(drawn.seed).toBe(seedFor(character.id));

    const done = await entryOf(app, session.token, character.id, first!.chatHistoryUUID);
    expect(done?.chatHistoryImageLoading).toBe(0);
    expect(done?.chatHistoryReplyImage).toMatch(/^[0-9a-f-]{36}\.jpg$/);
    const file = path.join(app.dataDir, "content", character.id, done!.chatHistoryReplyImage);
    const meta = await sharp(fs.readFileSync(file)).metadata();
    expect(meta.format).toBe("jpeg");
    expect({ width: meta.width, height: meta.height }).toEqual({ width: 768, height: 512 });
    // Served under /content/{character id}/ to its owner's browser (the chat_content cookie).
    const url = `/content/${character.id}/${done!.chatHistoryReplyImage}`;
    const served = await app.app.inject({
      url,
      headers: { cookie: await contentCookie(app, session.token) },
    });
    expect(served.statusCode).toBe(200);
    expect((await app.app.inject({ url })).statusCode).toBe(404);
    expect(served.rawPayload.equals(fs.readFileSync(file))).toBe(true);

    // A portrait of the same character: portrait size, the same seed (the same face).
    const portrait = await callMultipart(app.app, "/api/chat/request-photo", {
      token: session.token,
      fields: { message: "Send a portrait photo", id: character.id, cid: character.id, mute: "1", type: "1" },
    });
    expect(portrait.body.success).toBe(1);
    await app.images.idle();
    const second = double.drawn[1]!;
    expect({ width: second.width, height: second.height }).toEqual({ width: 512, height: 768 });
    expect(second.seed).toBe(drawn.seed);
    expect(second.prompt).toContain("portrait");
  }, 30_000);

  it("a failing provider ends the job: loading back to 0, the reply says so, the message is given back", async () => {
    const { app, session, character } = await setup(wire, { ...options, fail: true });
    const before = await app.db.db
      .selectFrom("users")
      .select("chat_count")
      .where("id", "=", session.userId)
      .executeTakeFirstOrThrow();
    const answer = await callMultipart(app.app, "/api/chat/request-photo", {
      token: session.token,
      fields: { message: "Send a portrait photo", id: character.id, cid: character.id, type: "1" },
    });
    expect(answer.body.success).toBe(1);
    const entryId = (answer.body as unknown as MessageReply).history![0]!.chatHistoryUUID;
    await app.images.idle();
    const done = await entryOf(app, session.token, character.id, entryId);
    expect(done?.chatHistoryImageLoading).toBe(0);
    expect(done?.chatHistoryReplyImage).toBe("");
    expect(done?.chatHistoryReplyMessage).toBe(IMAGE_FAILED_TEXT);
    const after = await app.db.db
      .selectFrom("users")
      .select("chat_count")
      .where("id", "=", session.userId)
      .executeTakeFirstOrThrow();
    expect(after.chat_count).toBe(before.chat_count);
    const job = await app.db.db.selectFrom("image_jobs").selectAll().executeTakeFirstOrThrow();
    expect(job.status).toBe("failed");
  }, 30_000);
});

describe("ComfyUI workflow", () => {
  it("fills placeholders, or the first text encoders and the sampler's seed of a plain workflow", () => {
    const values = {
      prompt: "a cat",
      negativePrompt: "blurry",
      seed: 42,
      width: 512,
      height: 768,
      steps: 9,
      model: "m.safetensors",
    };
    const placeholders = fillWorkflow(
      {
        "1": { class_type: "CLIPTextEncode", inputs: { text: "{{prompt}}, photo" } },
        "2": { class_type: "KSampler", inputs: { seed: "{{seed}}", steps: "{{steps}}" } },
      },
      values,
    );
    expect(placeholders).toEqual({
      "1": { class_type: "CLIPTextEncode", inputs: { text: "a cat, photo" } },
      "2": { class_type: "KSampler", inputs: { seed: 42, steps: 9 } },
    });
    const plain = fillWorkflow(
      {
        "1": { class_type: "CLIPTextEncode", inputs: { text: "old" } },
        "2": { class_type: "CLIPTextEncode", inputs: { text: "old negative" } },
        "3": { class_type: "KSampler", inputs: { seed: 1 } },
        "4": { class_type: "EmptyLatentImage", inputs: { width: 1, height: 1, batch_size: 1 } },
      },
      values,
    ) as Record<string, { inputs: Record<string, unknown> }>;
    expect(plain["1"]!.inputs.text).toBe("a cat");
    expect(plain["2"]!.inputs.text).toBe("blurry");
    expect(plain["3"]!.inputs.seed).toBe(42);
    expect(plain["4"]!.inputs).toEqual({ width: 512, height: 768, batch_size: 1 });
  });
});
