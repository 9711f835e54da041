import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeMp3, rms } from "../../testing/audio";
import { startSpeechDouble } from "../../testing/voice-servers";
import { ElevenLabsTts } from "./elevenlabs";
import { EspeakTts } from "./espeak";
import { createTts } from "./index";
import { OpenAiTts } from "./openai";

/**
 * The OpenAI-compatible and ElevenLabs clients against a local server speaking their wire
 * formats. The double answers real MP3 made by the embedded engine.
 */
const espeak = new EspeakTts();
let double: Awaited<ReturnType<typeof startSpeechDouble>>;

beforeAll(async () => {
  double = await startSpeechDouble({
    apiKey: "sk-test",
    speak: async (text, voice) => (await espeak.synthesize(text, voice === "onyx" ? "en+m3" : "en+f3")).audio,
  });
});
afterAll(async () => {
  await double.close();
  await espeak.close();
});

const openAiOptions = () => ({
  baseUrl: `${double.url}/v1`,
  apiKey: "sk-test",
  model: "tts-1",
  femaleVoice: "nova",
  maleVoice: "onyx",
  timeoutMs: 10_000,
});

describe("OpenAI-compatible speech (/v1/audio/speech)", () => {
  it("posts model, input, voice and mp3 with the bearer key and answers the MP3", async () => {
    const tts = new OpenAiTts(openAiOptions());
    const voice = tts.voiceFor({ provider: "espeak", provider_voice: "en+m3", sex: "1" });
    expect(voice).toBe("onyx");
    const { audio, extension } = await tts.synthesize("Nice to meet you.", voice);
    expect(extension).toBe("mp3");
    const request = double.requests.at(-1)!;
    expect(request.url).toBe("/v1/audio/speech");
    expect(request.headers.authorization).toBe("Bearer sk-test");
    expect(JSON.parse(request.body.toString())).toEqual({
      model: "tts-1",
      input: "Nice to meet you.",
      voice: "onyx",
      response_format: "mp3",
    });
    const decoded = await decodeMp3(audio);
    expect(decoded.samples.length / decoded.sampleRate).toBeGreaterThan(0.5);
    expect(rms(decoded.samples)).toBeGreaterThan(0.02);
  });

  it("uses an entry's own voice when it was written for this provider", () => {
    const tts = new OpenAiTts(openAiOptions());
    expect(tts.voiceFor({ provider: "openai", provider_voice: "shimmer", sex: "0" })).toBe("shimmer");
    expect(tts.voiceFor({ provider: "espeak", provider_voice: "fr+f3", sex: "0" })).toBe("nova");
  });

  it("turns a refused key into a 502 error naming the provider", async () => {
    const tts = new OpenAiTts({ ...openAiOptions(), apiKey: "wrong" });
    await expect(tts.synthesize("Hello", "nova")).rejects.toMatchObject({ status: 502, code: "tts_failed" });
  });
});

describe("ElevenLabs (/v1/text-to-speech/{voice_id})", () => {
  it("posts text and model_id with xi-api-key for the voice and answers the MP3", async () => {
    const tts = new ElevenLabsTts({
      baseUrl: double.url,
      apiKey: "sk-test",
      model: "eleven_multilingual_v2",
      femaleVoice: "21m00Tcm4TlvDq8ikWAM",
      maleVoice: "pNInz6obpgDQGcFmaJgB",
      timeoutMs: 10_000,
    });
    const voice = tts.voiceFor({ provider: "espeak", provider_voice: "en+f3", sex: "0" });
    const { audio } = await tts.synthesize("How was your day?", voice);
    const request = double.requests.at(-1)!;
    expect(request.url).toBe("/v1/text-to-speech/21m00Tcm4TlvDq8ikWAM?output_format=mp3_22050_32");
    expect(request.headers["xi-api-key"]).toBe("sk-test");
    expect(JSON.parse(request.body.toString())).toEqual({
      text: "How was your day?",
      model_id: "eleven_multilingual_v2",
    });
    expect(rms((await decodeMp3(audio)).samples)).toBeGreaterThan(0.02);
  });
});

describe("createTts: the one place that chooses the engine", () => {
  const base = {
    TTS_PROVIDER: "auto" as const,
    TTS_BASE_URL: "",
    TTS_API_KEY: "",
    TTS_MODEL: "tts-1",
    TTS_VOICE_FEMALE: "nova",
    TTS_VOICE_MALE: "onyx",
    TTS_TIMEOUT_MS: 1000,
    ELEVENLABS_API_KEY: "",
    ELEVENLABS_BASE_URL: "https://api.elevenlabs.io",
    ELEVENLABS_MODEL: "eleven_multilingual_v2",
    ELEVENLABS_VOICE_FEMALE: "f",
    ELEVENLABS_VOICE_MALE: "m",
  };
  it("defaults to the embedded engine and follows TTS_BASE_URL, ELEVENLABS_API_KEY and none", () => {
    expect(createTts(base).name).toBe("espeak");
    expect(createTts({ ...base, TTS_BASE_URL: "http://x/v1" }).name).toBe("openai");
    expect(createTts({ ...base, ELEVENLABS_API_KEY: "k" }).name).toBe("elevenlabs");
    expect(createTts({ ...base, TTS_PROVIDER: "none" }).name).toBe("none");
    expect(() => createTts({ ...base, TTS_PROVIDER: "openai" })).toThrow(/TTS_BASE_URL/);
  });
});
