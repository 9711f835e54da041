import { afterAll, beforeAll, expect, it } from "vitest";
import type { MessageReply } from "../../../common/api";
import { callMultipart, demoWithCharacter, describeEachDatabase } from "../../testing/api";
import { ScriptedLlm } from "../../testing/fake-llm";
import { type ImageDouble, startImageDouble } from "../../testing/image-servers";
import { allowPictures } from "../../testing/images";
import { createTestApp, type TestApp } from "../../testing/server";

/**
 * A picture reply is spoken like any reply (product.md §7 chat/request-photo `mute`, product.md §3
 * "Message reply" `audioUrl`), with the embedded eSpeak NG engine and an image engine double.
 */
describeEachDatabase("chat/request-photo audio", (dialect) => {
  let t: TestApp;
  let double: ImageDouble;
  beforeAll(async () => {
    double = await startImageDouble("automatic1111");
    t = await createTestApp({
      dialect,
      llm: new ScriptedLlm(),
      env: { IMAGE_PROVIDER: "automatic1111", IMAGE_BASE_URL: double.baseUrl, TTS_PROVIDER: "espeak" },
    });
  });
  afterAll(async () => {
    await t?.dispose();
    await double?.close();
  });

  const request = async (mute: string) => {
    const session = await demoWithCharacter(t.app);
    await allowPictures(t, session.userId);
    const answer = await callMultipart(t.app, "/api/chat/request-photo", {
      token: session.token,
      fields: {
        message: "Send a portrait photo",
        id: session.characterId,
        cid: session.characterId,
        mute,
        type: "1",
      },
    });
    expect(answer.status).toBe(200);
    return answer.body as unknown as MessageReply;
  };

  it("answers with the reply's audio unless muted, recorded on the entry", async () => {
    const spoken = await request("0");
    expect(spoken.genimage).toBe(1);
    expect(spoken.audioUrl).toMatch(/^\/content\/voice\/.+\.mp3$/);
    expect(spoken.history?.[0]?.chatHistoryReplyAudioUrl).toBe(spoken.audioUrl);
    const bytes = await t.storage.read((spoken.audioUrl ?? "").replace(/^\/content\//, ""));
    expect(bytes?.length ?? 0).toBeGreaterThan(500);

    const muted = await request("1");
    expect(muted.genimage).toBe(1);
    expect(muted.audioUrl).toBe("");
  });
});
