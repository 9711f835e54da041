// Local doubles of the speech APIs for tests: OpenAI and ElevenLabs speech answering MP3, and OpenAI transcription.
import http from "node:http";
import type { AddressInfo } from "node:net";

/** A request as a voice double received it. */
export interface RecordedRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

async function listen(
  handle: (request: RecordedRequest, res: http.ServerResponse) => Promise<void>,
): Promise<{ url: string; requests: RecordedRequest[]; close(): Promise<void> }> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const recorded = {
        method: req.method ?? "",
        url: req.url ?? "",
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      requests.push(recorded);
      handle(recorded, res).catch((error: unknown) => {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: String(error) } }));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * A local server speaking two speech wire formats, answering MP3 bytes from `speak`:
 * - OpenAI: `POST /v1/audio/speech`, JSON `{ model, input, voice, response_format }`, bearer key;
 * - ElevenLabs: `POST /v1/text-to-speech/{voice_id}?output_format=...`, JSON `{ text, model_id }`,
 *   header `xi-api-key`.
 * Anything else (or a wrong key when `apiKey` is given) answers 401/404 as the real ones do.
 */
export function startSpeechDouble(options: {
  apiKey?: string;
  speak: (text: string, voice: string) => Promise<Buffer>;
}) {
  return listen(async (request, res) => {
    const path = request.url.split("?")[0] ?? "";
    const sendAudio = async (text: string, voice: string) => {
      const audio = await options.speak(text, voice);
      res.writeHead(200, { "content-type": "audio/mpeg" });
      res.end(audio);
    };
    if (request.method === "POST" && path === "/v1/audio/speech") {
      if (options.apiKey && request.headers.authorization !== `Bearer ${options.apiKey}`) {
        res.writeHead(401, { "content-type": "application/json" });
        return void res.end(JSON.stringify({ error: { message: "Incorrect API key provided" } }));
      }
      const body = JSON.parse(request.body.toString("utf8")) as { input: string; voice: string };
      return sendAudio(body.input, body.voice);
    }
    const eleven = /^\/v1\/text-to-speech\/([^/]+)$/.exec(path);
    if (request.method === "POST" && eleven) {
      if (options.apiKey && request.headers["xi-api-key"] !== options.apiKey) {
        res.writeHead(401, { "content-type": "application/json" });
        return void res.end(JSON.stringify({ detail: { status: "invalid_api_key" } }));
      }
      const body = JSON.parse(request.body.toString("utf8")) as { text: string };
      return sendAudio(body.text, decodeURIComponent(eleven[1]!));
    }
    res.writeHead(404, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: { message: "not found" } }));
  });
}

/** What the transcription double read from one multipart request. */
export interface TranscriptionCall {
  model: string;
  filename: string;
  type: string;
  language: string;
  file: Buffer;
}

/**
 * A local server speaking the OpenAI transcription wire format: `POST /v1/audio/transcriptions`,
 * multipart with `file` and `model` (optional `language`, `response_format`), answering JSON
 * `{ text }` from `transcribe`. A request without a file or model answers 400 as OpenAI does.
 */
export async function startTranscriptionDouble(
  transcribe: (call: TranscriptionCall) => string | Promise<string>,
) {
  const calls: TranscriptionCall[] = [];
  const server = await listen(async (request, res) => {
    if (request.method !== "POST" || request.url.split("?")[0] !== "/v1/audio/transcriptions") {
      res.writeHead(404, { "content-type": "application/json" });
      return void res.end(JSON.stringify({ error: { message: "not found" } }));
    }
    const form = await new Request("http://double/", {
      method: "POST",
      headers: { "content-type": String(request.headers["content-type"] ?? "") },
      body: new Uint8Array(request.body),
    }).formData();
    const file = form.get("file");
    const model = form.get("model");
    if (!(file instanceof Blob) || typeof model !== "string" || !model) {
      res.writeHead(400, { "content-type": "application/json" });
      return void res.end(JSON.stringify({ error: { message: "file and model are required" } }));
    }
    const call: TranscriptionCall = {
      model,
      filename: file instanceof File ? file.name : "",
      type: file.type,
      language: String(form.get("language") ?? ""),
      file: Buffer.from(await file.arrayBuffer()),
    };
    calls.push(call);
    const text = await transcribe(call);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ text }));
  });
  return { ...server, calls };
}
