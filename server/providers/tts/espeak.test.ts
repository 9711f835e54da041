import { afterAll, describe, expect, it } from "vitest";
import { SEED_LANGUAGES, SEED_VOICES } from "../../db/seed-data";
import { decodeMp3, medianPitch, readMp3Frames, rms } from "../../testing/audio";
import { EspeakTts } from "./espeak";

/**
 * The embedded engine speaks every seeded voice: real MP3, duration that
 * grows with the text, not silent, female and male voices of a language differ in pitch.
 */
const SHORT: Record<string, string> = {
  en: "Hello there.",
  es: "Hola, amigo.",
  fr: "Bonjour, mon ami.",
  de: "Hallo, mein Freund.",
  it: "Ciao, amico mio.",
  pt: "Olá, meu amigo.",
};
const LONG: Record<string, string> = {
  en: "Hello there. I was thinking about you all day, and I would love to hear how your week went.",
  es: "Hola, amigo. Estuve pensando en ti todo el día y me encantaría saber cómo te fue la semana.",
  fr: "Bonjour, mon ami. J'ai pensé à toi toute la journée et j'aimerais savoir comment s'est passée ta semaine.",
  de: "Hallo, mein Freund. Ich habe den ganzen Tag an dich gedacht und möchte hören, wie deine Woche war.",
  it: "Ciao, amico mio. Ho pensato a te tutto il giorno e vorrei sapere com'è andata la tua settimana.",
  pt: "Olá, meu amigo. Pensei em ti o dia todo e gostaria de saber como correu a tua semana.",
};

const tts = new EspeakTts();
afterAll(() => tts.close());

describe("eSpeak NG (embedded) voices", () => {
  it("has a female and a male voice in every seeded language", () => {
    for (const language of SEED_LANGUAGES) {
      const voices = SEED_VOICES.filter((v) => v.language_code === language.code);
      expect(voices.map((v) => v.sex).sort()).toEqual(["0", "1"]);
      for (const v of voices) expect(v.provider).toBe("espeak");
    }
  });

  for (const voice of SEED_VOICES) {
    it(`speaks ${voice.name} (${voice.provider_voice}) as MP3 that grows with the text and is not silent`, async () => {
      const short = await tts.synthesize(SHORT[voice.language_code]!, voice.provider_voice);
      const long = await tts.synthesize(LONG[voice.language_code]!, voice.provider_voice);
      expect(short.extension).toBe("mp3");

      const frames = readMp3Frames(long.audio);
      expect(frames.length).toBeGreaterThan(10);
      expect(new Set(frames.map((f) => `${f.version}/${f.sampleRate}/${f.bitrateKbps}`))).toEqual(
        new Set(["2/22050/32"]),
      );

      const a = await decodeMp3(short.audio);
      const b = await decodeMp3(long.audio);
      expect(a.sampleRate).toBe(22050);
      const shortSeconds = a.samples.length / a.sampleRate;
      const longSeconds = b.samples.length / b.sampleRate;
      expect(shortSeconds).toBeGreaterThan(0.4);
      expect(longSeconds).toBeGreaterThan(shortSeconds * 2.5);
      // Frame headers and the decoder agree on the length (576 samples per MPEG-2 frame).
      const frameSeconds = frames.reduce((n, f) => n + f.samples, 0) / 22050;
      expect(Math.abs(frameSeconds - longSeconds)).toBeLessThan(0.1);

      expect(rms(a.samples)).toBeGreaterThan(0.02);
      expect(rms(b.samples)).toBeGreaterThan(0.02);

      // At most a fifth of the same audio as 16-bit PCM WAV.
      const wavBytes = 44 + b.samples.length * 2;
      expect(long.audio.length).toBeLessThanOrEqual(wavBytes / 5);
    });
  }

  for (const language of SEED_LANGUAGES) {
    it(`${language.name}: the female voice is higher than the male voice`, async () => {
      const [female, male] = ["0", "1"].map(
        (sex) => SEED_VOICES.find((v) => v.language_code === language.code && v.sex === sex)!,
      );
      const text = LONG[language.code]!;
      const f = await decodeMp3((await tts.synthesize(text, female!.provider_voice)).audio);
      const m = await decodeMp3((await tts.synthesize(text, male!.provider_voice)).audio);
      const femalePitch = medianPitch(f.samples, f.sampleRate);
      const malePitch = medianPitch(m.samples, m.sampleRate);
      expect(malePitch).toBeGreaterThan(60);
      expect(femalePitch).toBeGreaterThan(malePitch * 1.3);
    });
  }

  it("answers the raw samples too, and refuses a voice eSpeak does not have", async () => {
    const pcm = await tts.run("Hello there.", "en+m3", "pcm");
    expect(pcm.sampleRate).toBe(22050);
    expect(pcm.audio.length).toBe(pcm.samples * 2);
    await expect(tts.run("Hello", "xx-nope", "mp3")).rejects.toThrow(/no voice/);
  });
});
