import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { wavFile } from "../../testing/audio";
import { startTranscriptionDouble, type TranscriptionCall } from "../../testing/voice-servers";
import { EspeakTts } from "../tts/espeak";
import { createStt } from "./index";
import { OpenAiStt } from "./openai";

/**
 * The transcription client against a local server speaking the OpenAI transcription wire format
 * (multipart `file` + `model`, JSON `{ text }`), fed with audio our own TTS produced.
 * The double "hears" by checking it received that very recording: a WAV whose PCM equals what
 * eSpeak made for the sentence, so a mangled upload can never pass.
 */
const SENTENCE = "I would like a cup of tea.";
const espeak = new EspeakTts();
let spoken: Buffer;
let double: Awaited<ReturnType<typeof startTranscriptionDouble>>;

beforeAll(async () => {
  const pcm = await espeak.run(SENTENCE, "en+m3", "pcm");
  spoken = wavFile(pcm.audio, pcm.sampleRate);
  double = await startTranscriptionDouble((call: TranscriptionCall) =>
    call.file.equals(spoken) ? SENTENCE : "",
  );
});
afterAll(async () => {
  await double.close();
  await espeak.close();
});

describe("OpenAI-compatible transcription (/v1/audio/transcriptions)", () => {
  it("sends the recording as multipart file with model and language and reads { text }", async () => {
    const stt = new OpenAiStt({
      baseUrl: `${double.url}/v1`,
      apiKey: "k",
      model: "whisper-1",
      timeoutMs: 10_000,
    });
    const text = await stt.transcribe({ bytes: spoken, type: "audio/wav", filename: "speech.wav" }, "en");
    expect(text).toBe(SENTENCE);
    const call = double.calls.at(-1)!;
    expect(call).toMatchObject({
      model: "whisper-1",
      filename: "speech.wav",
      type: "audio/wav",
      language: "en",
    });
    expect(double.requests.at(-1)!.headers.authorization).toBe("Bearer k");
  });

  it("a recording that is not ours is not heard", async () => {
    const stt = new OpenAiStt({
      baseUrl: `${double.url}/v1`,
      apiKey: "",
      model: "whisper-1",
      timeoutMs: 10_000,
    });
    const other = Buffer.from(spoken);
    other[100] = (other[100]! + 1) % 256;
    expect(await stt.transcribe({ bytes: other, type: "audio/wav", filename: "speech.wav" })).toBe("");
  });

  it("an endpoint error is a 502 and no endpoint means speech input through the server is off", async () => {
    const broken = new OpenAiStt({
      baseUrl: `${double.url}/nope`,
      apiKey: "",
      model: "m",
      timeoutMs: 10_000,
    });
    await expect(
      broken.transcribe({ bytes: spoken, type: "audio/wav", filename: "a.wav" }),
    ).rejects.toMatchObject({
      status: 502,
    });
    const none = createStt({ STT_BASE_URL: "", STT_API_KEY: "", STT_MODEL: "whisper-1", STT_TIMEOUT_MS: 1 });
    expect(none.name).toBe("none");
    await expect(
      none.transcribe({ bytes: spoken, type: "audio/wav", filename: "a.wav" }),
    ).rejects.toMatchObject({
      code: "stt_unavailable",
    });
  });
});
