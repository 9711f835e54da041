// Audio checks for tests: reading MP3 frames, decoding MP3, loudness and median pitch, and writing a WAV file.
import { MPEGDecoder } from "mpg123-decoder";

/**
 * Audio checks for the voice tests: MP3 frame headers read by hand, decoding by a
 * pure WebAssembly mpg123 (`mpg123-decoder`, no ffmpeg here), level and pitch of PCM, and WAV
 * files for Chromium's fake microphone.
 */

/** One MPEG audio frame header. */
export interface Mp3Frame {
  /** 1 (MPEG-1), 2 (MPEG-2) or 2.5. */
  version: number;
  layer: number;
  bitrateKbps: number;
  sampleRate: number;
  /** Samples per frame (1152 for MPEG-1 layer III, 576 for MPEG-2/2.5). */
  samples: number;
  bytes: number;
}

const BITRATES_V1_L3 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const BITRATES_V2_L3 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const RATES: Record<number, number[]> = {
  1: [44100, 48000, 32000],
  2: [22050, 24000, 16000],
  2.5: [11025, 12000, 8000],
};

/**
 * Walks the MP3 frames of `bytes` (an ID3v2 tag at the start is skipped).
 * @throws Error at the first byte that is not a valid layer III frame header.
 */
export function readMp3Frames(bytes: Uint8Array): Mp3Frame[] {
  let at = 0;
  if (bytes[0] === 0x49 && bytes[1] === 0x44 && bytes[2] === 0x33) {
    at = 10 + ((bytes[6]! << 21) | (bytes[7]! << 14) | (bytes[8]! << 7) | bytes[9]!);
  }
  const frames: Mp3Frame[] = [];
  while (at + 4 <= bytes.length) {
    const b1 = bytes[at + 1]!;
    const b2 = bytes[at + 2]!;
    if (bytes[at] !== 0xff || (b1 & 0xe0) !== 0xe0) throw new Error(`no frame sync at byte ${at}`);
    const versionBits = (b1 >> 3) & 3;
    const version = versionBits === 3 ? 1 : versionBits === 2 ? 2 : versionBits === 0 ? 2.5 : 0;
    const layer = 4 - ((b1 >> 1) & 3);
    if (!version || layer !== 3) throw new Error(`not MPEG layer III at byte ${at}`);
    const bitrateKbps = (version === 1 ? BITRATES_V1_L3 : BITRATES_V2_L3)[(b2 >> 4) & 15] ?? 0;
    const sampleRate = RATES[version]![(b2 >> 2) & 3] ?? 0;
    if (!bitrateKbps || !sampleRate) throw new Error(`bad bitrate or sample rate at byte ${at}`);
    const padding = (b2 >> 1) & 1;
    const samples = version === 1 ? 1152 : 576;
    const size = Math.floor(((samples / 8) * bitrateKbps * 1000) / sampleRate) + padding;
    frames.push({ version, layer, bitrateKbps, sampleRate, samples, bytes: size });
    at += size;
  }
  return frames;
}

/** Decodes MP3 bytes to mono float samples (-1..1). */
export async function decodeMp3(bytes: Uint8Array): Promise<{ sampleRate: number; samples: Float32Array }> {
  const decoder = new MPEGDecoder();
  await decoder.ready;
  try {
    const out = decoder.decode(bytes);
    if (out.errors.length)
      throw new Error(`MP3 decoding errors: ${out.errors.map((e) => e.message).join("; ")}`);
    return { sampleRate: out.sampleRate, samples: out.channelData[0]!.slice(0, out.samplesDecoded) };
  } finally {
    decoder.free();
  }
}

/** Root mean square level of float samples (0 for silence, about 0.1 to 0.3 for speech). */
export function rms(samples: Float32Array): number {
  let sum = 0;
  for (const s of samples) sum += s * s;
  return Math.sqrt(sum / Math.max(1, samples.length));
}

/**
 * Median fundamental frequency (Hz) of the voiced parts, by normalised autocorrelation over
 * 40 ms frames (search range 60 to 400 Hz; frames quieter than a fifth of the loudest skipped).
 */
export function medianPitch(samples: Float32Array, sampleRate: number): number {
  const frame = Math.round(sampleRate * 0.04);
  const minLag = Math.floor(sampleRate / 400);
  const maxLag = Math.ceil(sampleRate / 60);
  const levels: number[] = [];
  for (let start = 0; start + frame + maxLag < samples.length; start += frame)
    levels.push(rms(samples.subarray(start, start + frame)));
  const loudest = Math.max(...levels, 0);
  const pitches: number[] = [];
  for (let f = 0, start = 0; start + frame + maxLag < samples.length; f++, start += frame) {
    if (levels[f]! < loudest / 5) continue;
    let best = 0;
    let bestLag = 0;
    for (let lag = minLag; lag <= maxLag; lag++) {
      let num = 0;
      let e1 = 0;
      let e2 = 0;
      for (let i = start; i < start + frame; i++) {
        num += samples[i]! * samples[i + lag]!;
        e1 += samples[i]! * samples[i]!;
        e2 += samples[i + lag]! * samples[i + lag]!;
      }
      const r = num / Math.sqrt(e1 * e2 + 1e-12);
      if (r > best) {
        best = r;
        bestLag = lag;
      }
    }
    if (best > 0.5 && bestLag) pitches.push(sampleRate / bestLag);
  }
  pitches.sort((a, b) => a - b);
  return pitches[Math.floor(pitches.length / 2)] ?? 0;
}

/** A 16-bit mono PCM WAV file. @param pcm little-endian 16-bit samples. */
export function wavFile(pcm: Buffer, sampleRate: number): Buffer {
  const header = Buffer.alloc(44);
  header.write("RIFF", 0, "latin1");
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write("WAVE", 8, "latin1");
  header.write("fmt ", 12, "latin1");
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36, "latin1");
  header.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([header, pcm]);
}
