import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatHistoryEntry, MessageReply } from "../../../common/api";
import { EspeakTts } from "../../providers/tts/espeak";
import { call, callMultipart, demoWithCharacter, describeEachDatabase } from "../../testing/api";
import { decodeMp3, rms, wavFile } from "../../testing/audio";
import { StreamingLlm } from "../../testing/fake-llm";
import { createTestApp, TEST_STACK, type TestApp } from "../../testing/server";
import { startTranscriptionDouble } from "../../testing/voice-servers";

/**
 * Spoken replies, voice preview, transcripts and the audio-message call through the API
 *, with the embedded eSpeak NG engine and a local OpenAI-compatible transcription double.
 */

describeEachDatabase("voice through the API", (dialect) => {
  const llm = new StreamingLlm();
  const espeak = new EspeakTts();
  let t: TestApp;
  let transcription: Awaited<ReturnType<typeof startTranscriptionDouble>>;
  let spokenWav: Buffer;
  let token = "";
  let characterId = "";

  /** The stored bytes behind a /content/ URL, through the app's storage (disk or S3). */
  const contentFile = async (url: string) => {
    const bytes = await t.storage.read(url.replace(/^\/content\//, ""));
    if (!bytes) throw new Error(`nothing stored for ${url}`);
    return bytes;
  };

  beforeAll(async () => {
    const pcm = await espeak.run("What the heck is that?", "en+m3", "pcm");
    spokenWav = wavFile(pcm.audio, pcm.sampleRate);
    // Like Chrome's recogniser, the double writes a swear word censored (product.md §5).
    transcription = await startTranscriptionDouble((c) =>
      c.file.equals(spokenWav) ? "What the f**k is that?" : "",
    );
    t = await createTestApp({
      dialect,
      llm,
      env: {
        TTS_PROVIDER: "espeak",
        STT_BASE_URL: `${transcription.url}/v1`,
        STT_MODEL: "whisper-test",
        STT_MAX_BYTES: String(200 * 1024),
      },
    });
    ({ token, characterId } = await demoWithCharacter(t.app));
  });
  afterAll(async () => {
    await t.dispose();
    await transcription.close();
    await espeak.close();
  });

  async function send(form: Record<string, string>): Promise<MessageReply> {
    const res = await call(t.app, "POST", "/api/chat/message", { token, form: { id: characterId, ...form } });
    expect(res.status).toBe(200);
    return res.body as MessageReply;
  }

  describe("spoken replies", () => {
    it("a reply comes with its MP3 (audioUrl and chatHistoryReplyAudioUrl), stored under content/voice/", async () => {
      llm.reply = "It is lovely to see you again. How was your day at work?";
      const reply = await send({ message: "Hello!" });
      expect(reply.success).toBe(1);
      expect(reply.audioUrl).toMatch(/^\/content\/voice\/[0-9a-f]{40}\.mp3$/);
      expect(reply.history?.[0]?.chatHistoryReplyAudioUrl).toBe(reply.audioUrl);
      const decoded = await decodeMp3(await contentFile(reply.audioUrl!));
      expect(decoded.samples.length / decoded.sampleRate).toBeGreaterThan(2);
      expect(rms(decoded.samples)).toBeGreaterThan(0.02);
      // Served under /content/ as audio.
      const served = await t.app.inject({ method: "GET", url: reply.audioUrl! });
      expect(served.statusCode).toBe(200);
      expect(served.headers["content-type"]).toContain("audio/mpeg");
      // The history keeps it.
      const history = await call(
        t.app,
        "GET",
        `/api/chat/history/paginated?id=${characterId}&offset=0&limit=10`,
        {
          token,
        },
      );
      const entries = history.body.data as ChatHistoryEntry[];
      expect(entries.at(-1)?.chatHistoryReplyAudioUrl).toBe(reply.audioUrl);
    });

    it("the same text in the same voice is the same file, not synthesized again", async () => {
      llm.reply = "It is lovely to see you again. How was your day at work?";
      const first = await send({ message: "Hi again" });
      const key = first.audioUrl!.replace(/^\/content\//, "");
      const before = (await t.storage.stat(key))?.lastModified.getTime();
      expect(before).toBeGreaterThan(0);
      // S3 keeps the date to the second: a rewrite would show only in the next one.
      if (TEST_STACK === "shared") await new Promise((resolve) => setTimeout(resolve, 1100));
      const second = await send({ message: "And again" });
      expect(second.audioUrl).toBe(first.audioUrl);
      expect((await t.storage.stat(key))?.lastModified.getTime()).toBe(before);
    });

    it("narration between asterisks is not read aloud: the audio is that of the spoken words alone", async () => {
      llm.reply = "It is lovely to see you again. How was your day at work?";
      const plain = await send({ message: "One" });
      llm.reply = "*smiles warmly* It is lovely to see you again. *leans closer* How was your day at work?";
      const narrated = await send({ message: "Two" });
      expect(narrated.text).toContain("*smiles warmly*");
      expect(narrated.audioUrl).toBe(plain.audioUrl);
      llm.reply = "*waves*";
      expect((await send({ message: "Three" })).audioUrl).toBe("");
    });

    it("mute=1 answers without audio", async () => {
      llm.reply = "A quiet answer that nobody will hear today.";
      const reply = await send({ message: "Shh", mute: "1" });
      expect(reply.success).toBe(1);
      expect(reply.audioUrl).toBe("");
      expect(reply.history?.[0]?.chatHistoryReplyAudioUrl).toBe("");
    });

    it("streamed: the first sentence's audio arrives (event audio) before the rest of the reply is written", async () => {
      llm.reply =
        "Good evening, my dear friend. The stars are bright tonight. Shall we count them together until dawn?";
      const address = await t.app.listen({ port: 0, host: "127.0.0.1" });
      const order: string[] = [];
      let firstAudio: () => void = () => {};
      const firstAudioSeen = new Promise<void>((resolve) => {
        firstAudio = resolve;
      });
      // The model holds the rest of its reply until the first sentence's audio reached the browser.
      llm.gate = async (sent) => {
        if (sent === "Good evening, my dear friend. ")
          await Promise.race([firstAudioSeen, new Promise((r) => setTimeout(r, 8000))]);
      };
      const response = await fetch(`${address}/api/chat/message`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
        body: new URLSearchParams({ message: "Look up!", id: characterId }),
      });
      const events: Array<{ event: string; data: Record<string, unknown> }> = [];
      let buffer = "";
      const decoder = new TextDecoder();
      const reader = response.body!.getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        for (let cut = buffer.indexOf("\n\n"); cut >= 0; cut = buffer.indexOf("\n\n")) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1] ?? "";
          const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? "{}") as Record<string, unknown>;
          events.push({ event, data });
          order.push(event === "token" ? `token:${String(data.text).trim()}` : event);
          if (event === "audio" && data.index === 0) firstAudio();
        }
      }
      llm.gate = async () => {};
      const audio = events.filter((e) => e.event === "audio").map((e) => e.data);
      expect(audio.map((a) => a.text)).toEqual([
        "Good evening, my dear friend.",
        "The stars are bright tonight.",
        "Shall we count them together until dawn?",
      ]);
      expect(audio.map((a) => a.index)).toEqual([0, 1, 2]);
      // The first sentence was spoken before the second was even written (tokens that arrive
      // together are sent as one event, so the second sentence's first event may carry more words).
      const secondWritten = order.findIndex((e) => e.startsWith("token:") && /\bThe\b/.test(e));
      expect(secondWritten).toBeGreaterThan(0);
      expect(order.indexOf("audio")).toBeLessThan(secondWritten);
      const done = events.find((e) => e.event === "done")!.data as unknown as MessageReply;
      expect(done.audioUrl).toMatch(/^\/content\/voice\/.+\.mp3$/);
      // The whole reply's audio is the sentences' audio joined, each found again in the cache.
      const whole = await contentFile(done.audioUrl!);
      const parts = await Promise.all(audio.map((a) => contentFile(String(a.audioUrl))));
      expect(whole.equals(Buffer.concat(parts))).toBe(true);
    });
  });

  describe("group replies", () => {
    it("each member's answer is spoken in its own voice, unless muted", async () => {
      const presets = (await call(t.app, "GET", "/api/characters/selection", { token })).body.data as Array<{
        characterPreDefinedUUID: string;
        characterSex: string;
      }>;
      const male = presets.find((p) => p.characterSex === "1")!;
      await call(t.app, "POST", "/api/characters/create-preselect", {
        token,
        form: { id: male.characterPreDefinedUUID },
      });
      const list = (await call(t.app, "GET", "/api/characters/list/", { token })).body.data as Array<{
        characterUUID: string;
        characterName: string;
      }>;
      const [first, second] = [
        list.find((c) => c.characterUUID === characterId)!,
        list.find((c) => c.characterUUID !== characterId)!,
      ];
      const group = await call(t.app, "GET", `/api/chat/group/new?cId=${first.characterUUID}`, { token });
      const groupId = group.body.page!.split("/").pop()!;
      await call(t.app, "GET", `/api/chat/group/member/add?gId=${groupId}&cId=${second.characterUUID}`, {
        token,
      });
      llm.replyFor = (request) => {
        const me = /^You are (\w+)/.exec(request.messages[0]?.content ?? "")?.[1] ?? "someone";
        return `Hello, this is ${me} speaking to you now.`;
      };
      try {
        const res = await call(t.app, "POST", "/api/chat/group/reply", {
          token,
          form: { message: `${first.characterName} and ${second.characterName}, hello!`, id: groupId },
        });
        const entries = res.body.history as ChatHistoryEntry[];
        expect(entries.length).toBe(2);
        const urls = entries.map((e) => e.chatHistoryReplyAudioUrl);
        for (const url of urls) expect(url).toMatch(/^\/content\/voice\/.+\.mp3$/);
        expect(new Set(urls).size).toBe(2);
        const muted = await call(t.app, "POST", "/api/chat/group/reply", {
          token,
          form: { message: `${first.characterName}, hello again!`, id: groupId, mute: "1" },
        });
        for (const e of muted.body.history as ChatHistoryEntry[]) expect(e.chatHistoryReplyAudioUrl).toBe("");
      } finally {
        llm.replyFor = undefined;
      }
    });
  });

  describe("voice preview", () => {
    it("answers audioUrl of a short MP3 sample in the voice's own language", async () => {
      const res = await call(t.app, "GET", "/api/characters/voice/preview/?v=Spanish%20Male", { token });
      expect(res.body).toMatchObject({ success: 1 });
      const url = String(res.body.audioUrl);
      expect(url).toMatch(/^\/content\/voice\/.+\.mp3$/);
      const decoded = await decodeMp3(await contentFile(url));
      expect(decoded.samples.length / decoded.sampleRate).toBeGreaterThan(1.5);
      const female = await call(t.app, "GET", "/api/characters/voice/preview/?v=Spanish%20Female", { token });
      expect(female.body.audioUrl).not.toBe(url);
      expect((await call(t.app, "GET", "/api/characters/voice/preview/?v=Nope", { token })).status).toBe(404);
    });
  });

  describe("speech to text (POST /api/chat/transcribe)", () => {
    it("transcribes a recording through the endpoint and writes censored words in full (product.md §5)", async () => {
      const res = await callMultipart(t.app, "/api/chat/transcribe", {
        token,
        fields: { language: "en" },
        files: { audio: { bytes: spokenWav, filename: "whatever.bin", type: "application/octet-stream" } },
      });
      expect(res.body).toMatchObject({ success: 1, text: "What the fuck is that?" });
      // Sent as what the bytes are, not what the client called them.
      expect(transcription.calls.at(-1)).toMatchObject({
        model: "whisper-test",
        filename: "speech.wav",
        language: "en",
      });
    });

    it("refuses what is not audio (400) and recordings above STT_MAX_BYTES (413)", async () => {
      const junk = await callMultipart(t.app, "/api/chat/transcribe", {
        token,
        files: { audio: { bytes: Buffer.from("not audio at all, just text"), filename: "a.webm" } },
      });
      expect(junk.status).toBe(400);
      const big = Buffer.concat([spokenWav, Buffer.alloc(210 * 1024)]);
      const tooBig = await callMultipart(t.app, "/api/chat/transcribe", {
        token,
        files: { audio: { bytes: big, filename: "a.wav" } },
      });
      expect(tooBig.status).toBe(413);
      const anonymous = await callMultipart(t.app, "/api/chat/transcribe", {
        files: { audio: { bytes: spokenWav, filename: "a.wav" } },
      });
      expect(anonymous.status).toBe(401);
    });
  });

  describe("audio-message call (POST /api/chat/audio-message)", () => {
    it("sends the spoken message and answers the message-reply shape with the reply's audio", async () => {
      llm.reply = "I heard you loud and clear, thank you.";
      const res = await call(t.app, "POST", "/api/chat/audio-message", {
        token,
        form: { message: "Can you hear me?", id: characterId, characterId, is_greeting: "0", mute: "0" },
      });
      const body = res.body as MessageReply;
      expect(body).toMatchObject({ success: 1, text: "I heard you loud and clear, thank you." });
      expect(body.audioUrl).toMatch(/\.mp3$/);
      expect(body.history?.[0]?.chatHistoryMessage).toBe("Can you hear me?");
      expect(body.options?.splitCount).toBeGreaterThan(0);
    });

    it("an empty message is sent as 'listening' (product.md §5)", async () => {
      llm.reply = "Take your time, I am here.";
      const res = await call(t.app, "POST", "/api/chat/audio-message", {
        token,
        form: { message: "", id: characterId, characterId, mute: "1" },
      });
      expect((res.body as MessageReply).history?.[0]?.chatHistoryMessage).toBe("listening");
      expect((res.body as MessageReply).audioUrl).toBe("");
    });

    it("is_greeting=1 speaks the character's greeting without sending anything", async () => {
      const before = llm.requests.length;
      const res = await call(t.app, "POST", "/api/chat/audio-message", {
        token,
        form: { message: "", id: characterId, characterId, is_greeting: "1" },
      });
      const body = res.body as MessageReply;
      expect(body.success).toBe(1);
      expect(body.history?.[0]?.chatHistoryMessage).toBe("##first-message##");
      expect(body.text).toBeTruthy();
      expect(body.audioUrl).toMatch(/\.mp3$/);
      expect(llm.requests.length).toBe(before);
    });
  });

  describe("capabilities", () => {
    it("voiceReplies and speechInput follow the configured engines", async () => {
      const on = await call(t.app, "GET", "/api/chat/capabilities", { token });
      expect(on.body.data).toMatchObject({ voiceReplies: { enabled: true }, speechInput: { enabled: true } });
      const off = await createTestApp({ llm, env: { TTS_PROVIDER: "none" } });
      try {
        const session = await demoWithCharacter(off.app);
        const res = await call(off.app, "GET", "/api/chat/capabilities", { token: session.token });
        expect(res.body.data).toMatchObject({
          voiceReplies: { enabled: false },
          speechInput: { enabled: false },
        });
        llm.reply = "No voice here.";
        const reply = await call(off.app, "POST", "/api/chat/message", {
          token: session.token,
          form: { message: "Hi", id: session.characterId },
        });
        expect(reply.body).toMatchObject({ success: 1, audioUrl: "" });
      } finally {
        await off.dispose();
      }
    });
  });
});
