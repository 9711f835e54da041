// eSpeak NG (WebAssembly, @echogarden/espeak-ng-emscripten, GPL-3.0) and the MP3 encoder
// (@breezystack/lamejs) run in this worker thread so that synthesis never blocks the server's
// event loop. Plain JavaScript: worker threads load it without a TypeScript loader (tsx, vitest).
//
// Messages in:  { id, text, voice, pitch?, rate?, format: "mp3" | "pcm" }
// Messages out: { id, sampleRate, samples, audio } where `audio` is MP3 bytes (format "mp3") or
//               16-bit little-endian mono PCM (format "pcm"), or { id, error }.
import { parentPort } from "node:worker_threads";
import { Mp3Encoder } from "@breezystack/lamejs";
import createModule from "@echogarden/espeak-ng-emscripten";

/** 32 kbit/s mono: about a eleventh of 16-bit PCM at 22 050 Hz (352.8 kbit/s). */
const MP3_KBPS = 32;
const FRAME = 1152;

const module = await createModule();
const engine = new module.eSpeakNGWorker();
const sampleRate = engine.get_samplerate();

function synthesize(text, voice, pitch, rate) {
  const status = engine.set_voice(voice);
  if (status !== 0) throw new Error(`eSpeak NG has no voice "${voice}" (status ${status}).`);
  // Parameters persist between calls: always set them (eSpeak's defaults are 50 and 175).
  engine.set_pitch(pitch ?? 50);
  engine.set_rate(rate ?? 175);
  const chunks = [];
  let total = 0;
  engine.synthesize(text, (samples) => {
    if (samples.length) {
      chunks.push(samples);
      total += samples.length;
    }
    return false;
  });
  const pcm = new Int16Array(total);
  let at = 0;
  for (const chunk of chunks) {
    pcm.set(chunk, at);
    at += chunk.length;
  }
  return pcm;
}

function encodeMp3(pcm) {
  const encoder = new Mp3Encoder(1, sampleRate, MP3_KBPS);
  const parts = [];
  for (let i = 0; i < pcm.length; i += FRAME) {
    const out = encoder.encodeBuffer(pcm.subarray(i, i + FRAME));
    if (out.length) parts.push(Buffer.from(out.buffer, out.byteOffset, out.length));
  }
  const tail = encoder.flush();
  if (tail.length) parts.push(Buffer.from(tail.buffer, tail.byteOffset, tail.length));
  return Buffer.concat(parts);
}

parentPort.on("message", (request) => {
  try {
    const pcm = synthesize(request.text, request.voice, request.pitch, request.rate);
    const audio =
      request.format === "pcm" ? Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength) : encodeMp3(pcm);
    parentPort.postMessage({ id: request.id, sampleRate, samples: pcm.length, audio });
  } catch (error) {
    parentPort.postMessage({ id: request.id, error: error instanceof Error ? error.message : String(error) });
  }
});
parentPort.postMessage({ ready: true, sampleRate });
