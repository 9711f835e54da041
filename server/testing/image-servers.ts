// Local doubles of the three image APIs (OpenAI, AUTOMATIC1111, ComfyUI) answering real pictures made with sharp, for tests.
import http from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";

/** The three image APIs the app speaks. */
export type ImageWire = "openai" | "automatic1111" | "comfyui";

export interface RecordedImageRequest {
  method: string;
  path: string;
  /** Parsed JSON body of a POST, else null. */
  body: Record<string, unknown> | null;
}

export interface ImageDouble {
  /** IMAGE_BASE_URL for the app (…/v1 for openai). */
  baseUrl: string;
  requests: RecordedImageRequest[];
  /** The prompts/sizes/seeds the double was asked to draw, in order, as the provider sent them. */
  drawn: Array<{
    prompt: string;
    negativePrompt: string;
    width: number;
    height: number;
    seed: number | undefined;
  }>;
  /**
   * ComfyUI: the prompt ids taken off the server by the app, in order: removed from the queue
   * (POST /queue `{delete: [id]}`) or stopped while running (POST /interrupt `{prompt_id}`).
   */
  cancelled: string[];
  /** Answers are held until this is called (set `hold: true`); requests wait meanwhile. */
  release(): void;
  /** Resolves when the double has received its `n`th drawing request. */
  received(n?: number): Promise<void>;
  close(): Promise<void>;
}

/** A real picture made here: a gradient of the asked size with a colour from the seed. */
export async function makeImage(
  width: number,
  height: number,
  format: "png" | "jpeg",
  seed = 0,
): Promise<Buffer> {
  const image = sharp({
    create: {
      width,
      height,
      channels: 3,
      background: { r: seed % 256, g: (seed >> 8) % 256, b: 120 },
    },
  });
  return format === "png" ? image.png().toBuffer() : image.jpeg({ quality: 80 }).toBuffer();
}

/**
 * A local HTTP server speaking one image API's wire protocol, returning real PNG or JPEG bytes made
 * with sharp at the requested size:
 * - `openai`: POST /v1/images/generations → `{data: [{b64_json}]}` (or `{data: [{url}]}` with
 *   `answer: "url"`, the file then served at /files/…);
 * - `automatic1111`: POST /sdapi/v1/txt2img → `{images: [base64 PNG], parameters, info}`;
 * - `comfyui`: POST /prompt → `{prompt_id}`; GET /history/{id} → `{}` for the first two looks,
 *   then the outputs; GET /view?filename=… → the PNG. Like ComfyUI it runs one prompt at a time:
 *   GET /queue → `{queue_running, queue_pending}` (items `[number, prompt_id, …]`); POST /queue
 *   `{delete: [ids]}` drops pending ones; POST /interrupt (optionally `{prompt_id}`) stops the
 *   running one, whose history then says `status_str: "error"`; both land in `cancelled`.
 * `fail: true` answers 500 to drawing requests; `hold: true` holds answers until `release()`.
 */
export async function startImageDouble(
  wire: ImageWire,
  options: { hold?: boolean; fail?: boolean; answer?: "b64_json" | "url"; format?: "png" | "jpeg" } = {},
): Promise<ImageDouble> {
  const requests: RecordedImageRequest[] = [];
  const drawn: ImageDouble["drawn"] = [];
  const files = new Map<string, Buffer>();
  const comfy = new Map<
    string,
    { looks: number; file: string; number: number; state: "pending" | "running" | "done" | "cancelled" }
  >();
  const cancelled: string[] = [];
  /** ComfyUI runs one prompt at a time: the oldest pending one starts when none runs. */
  const startNext = () => {
    if ([...comfy.values()].some((item) => item.state === "running")) return;
    const next = [...comfy.values()].find((item) => item.state === "pending");
    if (next) next.state = "running";
  };
  let release: () => void = () => {};
  const gate = options.hold ? new Promise<void>((resolve) => (release = resolve)) : Promise.resolve();
  const waiters: Array<{ n: number; resolve: () => void }> = [];
  const format = options.format ?? "png";
  const noteDrawn = (entry: ImageDouble["drawn"][number]) => {
    drawn.push(entry);
    for (const w of waiters.filter((w) => drawn.length >= w.n)) w.resolve();
  };

  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://double");
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
      requests.push({ method: req.method ?? "GET", path: url.pathname + url.search, body });
      void handle(req.method ?? "GET", url, body, res).catch((error: unknown) => {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: String(error) }));
      });
    });
  });

  const sendJson = (res: http.ServerResponse, status: number, value: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(value));
  };

  async function handle(
    method: string,
    url: URL,
    body: Record<string, unknown> | null,
    res: http.ServerResponse,
  ) {
    const path = url.pathname;
    if (path.startsWith("/files/") || path === "/view") {
      const name = path === "/view" ? (url.searchParams.get("filename") ?? "") : path.slice("/files/".length);
      const bytes = files.get(name);
      if (!bytes) return sendJson(res, 404, { error: "no such file" });
      res.writeHead(200, { "content-type": format === "png" ? "image/png" : "image/jpeg" });
      return res.end(bytes);
    }
    if (wire === "openai" && path === "/v1/images/generations" && body) {
      const [width, height] = String(body.size).split("x").map(Number);
      noteDrawn({
        prompt: String(body.prompt),
        negativePrompt: String(body.negative_prompt ?? ""),
        width: width!,
        height: height!,
        seed: body.seed as number | undefined,
      });
      await gate;
      if (options.fail) return sendJson(res, 500, { error: { message: "the model is on fire" } });
      const bytes = await makeImage(width!, height!, format, Number(body.seed ?? 0));
      if (options.answer === "url") {
        const name = `image-${drawn.length}.${format}`;
        files.set(name, bytes);
        return sendJson(res, 200, { created: 1, data: [{ url: `${origin}/files/${name}` }] });
      }
      return sendJson(res, 200, { created: 1, data: [{ b64_json: bytes.toString("base64") }] });
    }
    if (wire === "automatic1111" && path === "/sdapi/v1/txt2img" && body) {
      noteDrawn({
        prompt: String(body.prompt),
        negativePrompt: String(body.negative_prompt ?? ""),
        width: Number(body.width),
        height: Number(body.height),
        seed: body.seed as number | undefined,
      });
      await gate;
      if (options.fail)
        return sendJson(res, 500, { error: "OutOfMemoryError", detail: "CUDA out of memory" });
      const bytes = await makeImage(Number(body.width), Number(body.height), "png", Number(body.seed ?? 0));
      return sendJson(res, 200, { images: [bytes.toString("base64")], parameters: body, info: "{}" });
    }
    if (wire === "comfyui" && path === "/prompt" && body) {
      const graph = body.prompt as Record<string, { class_type: string; inputs: Record<string, unknown> }>;
      const nodes = Object.values(graph);
      const texts = nodes.filter((n) => n.class_type === "CLIPTextEncode").map((n) => String(n.inputs.text));
      const latent = nodes.find((n) => n.class_type === "EmptyLatentImage")?.inputs ?? {};
      const sampler = nodes.find((n) => n.class_type === "KSampler")?.inputs ?? {};
      const width = Number(latent.width);
      const height = Number(latent.height);
      noteDrawn({
        prompt: texts[0] ?? "",
        negativePrompt: texts[1] ?? "",
        width,
        height,
        seed: typeof sampler.seed === "number" ? sampler.seed : undefined,
      });
      if (options.fail) return sendJson(res, 400, { error: { message: "invalid prompt" }, node_errors: {} });
      const id = `prompt-${drawn.length}`;
      const file = `companion_${drawn.length}.png`;
      const item = { looks: 0, file, number: drawn.length, state: "pending" as const };
      comfy.set(id, item);
      startNext();
      void gate.then(async () => {
        const current = comfy.get(id);
        if (current?.state === "cancelled") return;
        files.set(file, await makeImage(width, height, "png", Number(sampler.seed ?? 0)));
        if (current) current.state = "done";
        startNext();
      });
      return sendJson(res, 200, { prompt_id: id, number: drawn.length, node_errors: {} });
    }
    if (wire === "comfyui" && path === "/queue") {
      if (method === "POST") {
        const ids = Array.isArray(body?.delete) ? body.delete : [];
        for (const id of ids.map(String)) {
          const item = comfy.get(id);
          if (item?.state !== "pending") continue;
          item.state = "cancelled";
          cancelled.push(id);
        }
        return sendJson(res, 200, {});
      }
      const listed = (state: "pending" | "running") =>
        [...comfy.entries()]
          .filter(([, item]) => item.state === state)
          .map(([id, item]) => [item.number, id, {}, {}, ["9"]]);
      return sendJson(res, 200, { queue_running: listed("running"), queue_pending: listed("pending") });
    }
    if (wire === "comfyui" && path === "/interrupt" && method === "POST") {
      const wanted = typeof body?.prompt_id === "string" ? body.prompt_id : undefined;
      const running = [...comfy.entries()].find(([, item]) => item.state === "running");
      if (running && (wanted === undefined || wanted === running[0])) {
        running[1].state = "cancelled";
        cancelled.push(running[0]);
        startNext();
      }
      return sendJson(res, 200, {});
    }
    if (wire === "comfyui" && path.startsWith("/history/")) {
      const id = decodeURIComponent(path.slice("/history/".length));
      const item = comfy.get(id);
      if (!item) return sendJson(res, 200, {});
      if (item.state === "cancelled") {
        return sendJson(res, 200, {
          [id]: {
            prompt: [],
            outputs: {},
            status: { status_str: "error", completed: false, messages: [["execution_interrupted", {}]] },
          },
        });
      }
      item.looks += 1;
      if (item.looks < 3 || !files.has(item.file)) return sendJson(res, 200, {});
      return sendJson(res, 200, {
        [id]: {
          prompt: [],
          outputs: { "9": { images: [{ filename: item.file, subfolder: "", type: "output" }] } },
          status: { status_str: "success", completed: true, messages: [] },
        },
      });
    }
    return sendJson(res, 404, { error: `unknown path ${path}` });
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    baseUrl: wire === "openai" ? `${origin}/v1` : origin,
    requests,
    drawn,
    cancelled,
    release: () => release(),
    received: (n = 1) =>
      drawn.length >= n ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ n, resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        release();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
