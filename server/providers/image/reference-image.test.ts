import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../env";
import { seedFor } from "../../modules/images/image-prompt";
import { ImageWorker } from "../../modules/images/image-worker";
import { ImagesRepo } from "../../modules/images/images.repo";
import { QuotaRepo } from "../../modules/quota/quota.repo";
import { QuotaService } from "../../modules/quota/quota.service";
import { callMultipart, demoWithCharacter } from "../../testing/api";
import { ScriptedLlm } from "../../testing/fake-llm";
import { makeImage } from "../../testing/image-servers";
import { allowPictures } from "../../testing/images";
import { createTestApp, type TestApp } from "../../testing/server";
import { Automatic1111Provider, REFERENCE_DENOISING_STRENGTH } from "./automatic1111";
import { ComfyUiProvider, DEFAULT_WORKFLOW_PATH, fillWorkflow, REFERENCE_WORKFLOW_PATH } from "./comfyui";
import type { ImageProvider, ImageRequest, ReferenceImage } from "./image";
import { OpenAiImageProvider } from "./openai";

/**
 * The same face: the character's photo reaches each engine in that engine's own request
 * shape — ComfyUI: POST /upload/image (multipart `image`) then the IP-Adapter workflow whose
 * LoadImage names the upload; AUTOMATIC1111: POST /sdapi/v1/img2img with `init_images`; OpenAI
 * (gpt-image): POST /v1/images/edits (multipart `image`) — and IMAGE_REFERENCE=seed (or no photo,
 * or an engine that refuses the reference) sends today's text-only request unchanged. The
 * doubles below are local HTTP servers that record every request, multipart files byte for byte.
 */

type Wire = "openai" | "automatic1111" | "comfyui";

interface Recorded {
  method: string;
  path: string;
  /** Parsed JSON body, else null. */
  json: Record<string, unknown> | null;
  /** Parsed multipart/form-data body, else null. */
  form: {
    fields: Record<string, string>;
    files: Record<string, { name: string; type: string; bytes: Buffer }>;
  } | null;
}

interface ReferenceDouble {
  baseUrl: string;
  requests: Recorded[];
  posted(path: string): Recorded[];
  close(): Promise<void>;
}

/**
 * A recording double of one engine with the reference routes. `refuse: true` answers the
 * reference request the way an engine without the feature does (OpenAI/A1111: 404 on the route;
 * ComfyUI: 400 from /prompt for a graph with IPAdapter nodes); `nodes: false` makes ComfyUI's
 * /object_info answer `{}` for the IP-Adapter classes (custom nodes not installed).
 */
async function startReferenceDouble(
  wire: Wire,
  options: { refuse?: boolean; nodes?: boolean } = {},
): Promise<ReferenceDouble> {
  const requests: Recorded[] = [];
  const uploads = new Set<string>();
  const prompts = new Map<string, { width: number; height: number }>();
  const png = (width: number, height: number) => makeImage(width, height, "png");
  const sendJson = (res: http.ServerResponse, status: number, value: unknown) => {
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(value));
  };

  async function parse(req: http.IncomingMessage, raw: Buffer): Promise<Recorded> {
    const url = new URL(req.url ?? "/", "http://double");
    const type = req.headers["content-type"] ?? "";
    const recorded: Recorded = {
      method: req.method ?? "GET",
      path: url.pathname + url.search,
      json: null,
      form: null,
    };
    if (type.startsWith("application/json") && raw.length > 0)
      recorded.json = JSON.parse(raw.toString("utf8"));
    if (type.startsWith("multipart/form-data")) {
      const data = await new Request("http://double/", {
        method: "POST",
        headers: { "content-type": type },
        body: new Uint8Array(raw),
      }).formData();
      const form: NonNullable<Recorded["form"]> = { fields: {}, files: {} };
      for (const [key, value] of data.entries()) {
        if (typeof value === "string") form.fields[key] = value;
        else
          form.files[key] = {
            name: value.name,
            type: value.type,
            bytes: Buffer.from(await value.arrayBuffer()),
          };
      }
      recorded.form = form;
    }
    return recorded;
  }

  async function handle(r: Recorded, res: http.ServerResponse) {
    const pathname = r.path.split("?")[0]!;
    if (wire === "openai" && r.method === "POST" && pathname === "/v1/images/generations" && r.json) {
      const [w, h] = String(r.json.size).split("x").map(Number);
      return sendJson(res, 200, { data: [{ b64_json: (await png(w!, h!)).toString("base64") }] });
    }
    if (wire === "openai" && r.method === "POST" && pathname === "/v1/images/edits") {
      if (options.refuse) return sendJson(res, 404, { error: { message: "Not found" } });
      if (!r.form?.files.image) return sendJson(res, 400, { error: { message: "image is required" } });
      const [w, h] = String(r.form.fields.size).split("x").map(Number);
      return sendJson(res, 200, { data: [{ b64_json: (await png(w!, h!)).toString("base64") }] });
    }
    if (wire === "automatic1111" && r.method === "POST" && pathname.startsWith("/sdapi/v1/") && r.json) {
      const route = pathname.slice("/sdapi/v1/".length);
      if (route === "img2img" && options.refuse) return sendJson(res, 404, { detail: "Not Found" });
      if (route === "img2img" && !Array.isArray(r.json.init_images))
        return sendJson(res, 404, { detail: "Init image not found" });
      if (route !== "txt2img" && route !== "img2img") return sendJson(res, 404, { detail: "Not Found" });
      const bytes = await png(Number(r.json.width), Number(r.json.height));
      return sendJson(res, 200, { images: [bytes.toString("base64")], parameters: {}, info: "{}" });
    }
    if (wire === "comfyui" && r.method === "GET" && pathname.startsWith("/object_info/")) {
      const name = decodeURIComponent(pathname.slice("/object_info/".length));
      const installed = options.nodes !== false || !name.startsWith("IPAdapter");
      return sendJson(res, 200, installed ? { [name]: { name, input: {} } } : {});
    }
    if (wire === "comfyui" && r.method === "POST" && pathname === "/upload/image") {
      const file = r.form?.files.image;
      if (!file?.name) return sendJson(res, 400, {});
      uploads.add(file.name);
      return sendJson(res, 200, { name: file.name, subfolder: "", type: r.form?.fields.type ?? "input" });
    }
    if (wire === "comfyui" && r.method === "POST" && pathname === "/prompt" && r.json) {
      const graph = r.json.prompt as Record<string, { class_type: string; inputs: Record<string, unknown> }>;
      const nodes = Object.values(graph);
      if (options.refuse && nodes.some((n) => n.class_type.startsWith("IPAdapter"))) {
        return sendJson(res, 400, {
          error: { type: "prompt_outputs_failed_validation", message: "Prompt outputs failed validation" },
          node_errors: { "10": { errors: [{ type: "value_not_in_list" }] } },
        });
      }
      for (const node of nodes.filter((n) => n.class_type === "LoadImage")) {
        if (!uploads.has(String(node.inputs.image))) {
          return sendJson(res, 400, { error: { message: `Invalid image file: ${node.inputs.image}` } });
        }
      }
      const latent = nodes.find((n) => n.class_type === "EmptyLatentImage")?.inputs ?? {};
      const id = `prompt-${prompts.size + 1}`;
      prompts.set(id, { width: Number(latent.width), height: Number(latent.height) });
      return sendJson(res, 200, { prompt_id: id, number: prompts.size, node_errors: {} });
    }
    if (wire === "comfyui" && r.method === "GET" && pathname.startsWith("/history/")) {
      const id = decodeURIComponent(pathname.slice("/history/".length));
      if (!prompts.has(id)) return sendJson(res, 200, {});
      return sendJson(res, 200, {
        [id]: {
          outputs: { "9": { images: [{ filename: `${id}.png`, subfolder: "", type: "output" }] } },
          status: { status_str: "success", completed: true, messages: [] },
        },
      });
    }
    if (wire === "comfyui" && r.method === "GET" && pathname === "/view") {
      const id = new URL(r.path, "http://double").searchParams.get("filename")?.replace(/\.png$/, "") ?? "";
      const size = prompts.get(id);
      if (!size) return sendJson(res, 404, {});
      res.writeHead(200, { "content-type": "image/png" });
      return res.end(await png(size.width, size.height));
    }
    return sendJson(res, 404, { error: `unknown ${r.method} ${pathname}` });
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      void parse(req, Buffer.concat(chunks))
        .then((recorded) => {
          requests.push(recorded);
          return handle(recorded, res);
        })
        .catch((error: unknown) => sendJson(res, 500, { error: String(error) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: wire === "openai" ? `${origin}/v1` : origin,
    requests,
    posted: (p) => requests.filter((r) => r.method === "POST" && r.path === p),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function double(wire: Wire, options?: { refuse?: boolean; nodes?: boolean }) {
  const started = await startReferenceDouble(wire, options);
  cleanups.push(() => started.close());
  return started;
}

/** A real JPEG standing for a character's photo. */
async function photo(): Promise<ReferenceImage> {
  return { bytes: await makeImage(96, 128, "jpeg", 4242), mimeType: "image/jpeg" };
}

function request(reference?: ReferenceImage): ImageRequest {
  return {
    prompt: "photo of Mia, a woman, reading in a cafe",
    negativePrompt: "blurry",
    width: 512,
    height: 768,
    seed: 12345,
    ...(reference ? { reference } : {}),
  };
}

describe("AUTOMATIC1111: img2img from the photo", () => {
  const provider = (baseUrl: string, reference: "photo" | "seed" = "photo") =>
    new Automatic1111Provider({ baseUrl, apiKey: "", model: "", steps: 20, reference });

  it("sends the photo as init_images of /sdapi/v1/img2img with the words, size and seed", async () => {
    const engine = await double("automatic1111");
    const reference = await photo();
    const image = await provider(engine.baseUrl).generate(request(reference));
    expect(image.referenced).toBe(true);
    expect(engine.posted("/sdapi/v1/txt2img")).toHaveLength(0);
    const [sent] = engine.posted("/sdapi/v1/img2img");
    const body = sent!.json!;
    expect(Buffer.from(String((body.init_images as string[])[0]), "base64").equals(reference.bytes)).toBe(
      true,
    );
    expect(body).toMatchObject({
      prompt: request().prompt,
      negative_prompt: "blurry",
      width: 512,
      height: 768,
      seed: 12345,
      steps: 20,
      denoising_strength: REFERENCE_DENOISING_STRENGTH,
      resize_mode: 1,
    });
  });

  it("IMAGE_REFERENCE=seed, no photo, or a refused img2img: today's txt2img request, unchanged", async () => {
    const engine = await double("automatic1111");
    const reference = await photo();
    const seedOnly = provider(engine.baseUrl, "seed");
    expect(seedOnly.takesReference).toBe(false);
    await seedOnly.generate(request(reference));
    await provider(engine.baseUrl).generate(request());
    const [fromSeedMode, withoutPhoto] = engine.posted("/sdapi/v1/txt2img");
    expect(fromSeedMode!.json).toEqual(withoutPhoto!.json);
    expect(fromSeedMode!.json).toEqual({
      prompt: request().prompt,
      negative_prompt: "blurry",
      width: 512,
      height: 768,
      seed: 12345,
      steps: 20,
      cfg_scale: 7,
      batch_size: 1,
      n_iter: 1,
      send_images: true,
      save_images: false,
    });
    expect(engine.posted("/sdapi/v1/img2img")).toHaveLength(0);

    const refusing = await double("automatic1111", { refuse: true });
    const image = await provider(refusing.baseUrl).generate(request(reference));
    expect(image.referenced).toBeFalsy();
    expect(refusing.posted("/sdapi/v1/img2img")).toHaveLength(1);
    expect(refusing.posted("/sdapi/v1/txt2img")[0]!.json).toEqual(fromSeedMode!.json);
  });
});

describe("OpenAI images: the edit endpoint with the photo", () => {
  const provider = (baseUrl: string, model: string, reference: "photo" | "seed" = "photo") =>
    new OpenAiImageProvider({ baseUrl, apiKey: "sk-test", model, reference });

  it("gpt-image models get POST /v1/images/edits, multipart, the photo as `image`", async () => {
    const engine = await double("openai");
    const reference = await photo();
    const image = await provider(engine.baseUrl, "gpt-image-1").generate(request(reference));
    expect(image.referenced).toBe(true);
    expect(engine.posted("/v1/images/generations")).toHaveLength(0);
    const [sent] = engine.posted("/v1/images/edits");
    const form = sent!.form!;
    expect(form.files.image!.bytes.equals(reference.bytes)).toBe(true);
    expect(form.files.image!.type).toBe("image/jpeg");
    expect(form.files.image!.name).toMatch(/\.jpg$/);
    expect(form.fields).toEqual({ prompt: request().prompt, model: "gpt-image-1", n: "1", size: "512x768" });
  });

  it("IMAGE_REFERENCE=seed, a model without edits, or a refused edit: today's generations request", async () => {
    const engine = await double("openai");
    const reference = await photo();
    const seedOnly = provider(engine.baseUrl, "gpt-image-1", "seed");
    expect(seedOnly.takesReference).toBe(false);
    await seedOnly.generate(request(reference));
    await provider(engine.baseUrl, "gpt-image-1").generate(request());
    const plainModel = provider(engine.baseUrl, "sd-turbo");
    expect(plainModel.takesReference).toBe(false);
    await plainModel.generate(request(reference));
    expect(engine.posted("/v1/images/edits")).toHaveLength(0);
    const [fromSeedMode, withoutPhoto, fromPlainModel] = engine.posted("/v1/images/generations");
    const today = {
      model: "gpt-image-1",
      prompt: request().prompt,
      n: 1,
      size: "512x768",
      seed: 12345,
      negative_prompt: "blurry",
    };
    expect(fromSeedMode!.json).toEqual(today);
    expect(withoutPhoto!.json).toEqual(today);
    expect(fromPlainModel!.json).toEqual({ ...today, model: "sd-turbo", response_format: "b64_json" });

    const refusing = await double("openai", { refuse: true });
    const image = await provider(refusing.baseUrl, "gpt-image-1").generate(request(reference));
    expect(image.referenced).toBeFalsy();
    expect(refusing.posted("/v1/images/edits")).toHaveLength(1);
    expect(refusing.posted("/v1/images/generations")[0]!.json).toEqual(today);
  });
});

describe("ComfyUI: the photo uploaded and fed to the IP-Adapter workflow", () => {
  const provider = (baseUrl: string, reference: "photo" | "seed" = "photo", workflowPath = "") =>
    new ComfyUiProvider({ baseUrl, apiKey: "", model: "", steps: 20, workflowPath, pollMs: 10, reference });
  type Graph = Record<string, { class_type: string; inputs: Record<string, unknown> }>;
  const graphOf = (r: { json: Record<string, unknown> | null }) => r.json!.prompt as Graph;
  const byClass = (graph: Graph, name: string) => Object.values(graph).filter((n) => n.class_type === name);

  it("uploads the photo with POST /upload/image and names it in LoadImage → IPAdapter → KSampler", async () => {
    const engine = await double("comfyui");
    const reference = await photo();
    const image = await provider(engine.baseUrl).generate(request(reference));
    expect(image.referenced).toBe(true);
    // The IP-Adapter nodes were looked up before anything was uploaded.
    const looked = engine.requests.filter((r) => r.path.startsWith("/object_info/")).map((r) => r.path);
    expect(looked).toEqual(
      expect.arrayContaining(["/object_info/IPAdapterUnifiedLoader", "/object_info/IPAdapter"]),
    );
    const [upload] = engine.posted("/upload/image");
    const form = upload!.form!;
    expect(form.files.image!.bytes.equals(reference.bytes)).toBe(true);
    expect(form.files.image!.type).toBe("image/jpeg");
    expect(form.files.image!.name).toMatch(/^companion-reference-[0-9a-f]{32}\.jpg$/);
    expect(form.fields).toEqual({ type: "input", overwrite: "true" });

    const [queued] = engine.posted("/prompt");
    const graph = graphOf(queued!);
    const [load] = byClass(graph, "LoadImage");
    expect(load!.inputs.image).toBe(form.files.image!.name);
    const [adapter] = byClass(graph, "IPAdapter");
    const loadId = Object.keys(graph).find((id) => graph[id] === load);
    expect(adapter!.inputs.image).toEqual([loadId, 0]);
    const adapterId = Object.keys(graph).find((id) => graph[id] === adapter);
    const [sampler] = byClass(graph, "KSampler");
    expect(sampler!.inputs.model).toEqual([adapterId, 0]);
    expect(sampler!.inputs.seed).toBe(12345);
    expect(byClass(graph, "CLIPTextEncode").map((n) => n.inputs.text)).toEqual([request().prompt, "blurry"]);
    expect(byClass(graph, "EmptyLatentImage")[0]!.inputs).toMatchObject({ width: 512, height: 768 });

    // The same photo again: the same name (one file on the ComfyUI server), nodes not asked again.
    await provider(engine.baseUrl).generate(request(reference));
    const second = engine.posted("/upload/image")[1]!.form!.files.image!;
    expect(second.name).toBe(form.files.image!.name);
  });

  it("IMAGE_REFERENCE=seed, no photo, no IP-Adapter nodes, or a refused graph: today's workflow, unchanged", async () => {
    const reference = await photo();
    const today = fillWorkflow(JSON.parse(fs.readFileSync(DEFAULT_WORKFLOW_PATH, "utf8")), {
      prompt: request().prompt,
      negativePrompt: "blurry",
      seed: 12345,
      width: 512,
      height: 768,
      steps: 20,
      model: "v1-5-pruned-emaonly.safetensors",
    });

    const engine = await double("comfyui");
    const seedOnly = provider(engine.baseUrl, "seed");
    expect(seedOnly.takesReference).toBe(false);
    await seedOnly.generate(request(reference));
    await provider(engine.baseUrl).generate(request());
    expect(engine.posted("/upload/image")).toHaveLength(0);
    expect(engine.posted("/prompt").map(graphOf)).toEqual([today, today]);

    const withoutNodes = await double("comfyui", { nodes: false });
    const drawn = await provider(withoutNodes.baseUrl).generate(request(reference));
    expect(drawn.referenced).toBeFalsy();
    expect(withoutNodes.posted("/upload/image")).toHaveLength(0);
    expect(withoutNodes.posted("/prompt").map(graphOf)).toEqual([today]);

    const refusing = await double("comfyui", { refuse: true });
    const fallback = await provider(refusing.baseUrl).generate(request(reference));
    expect(fallback.referenced).toBeFalsy();
    const [first, second] = refusing.posted("/prompt").map(graphOf);
    expect(byClass(first!, "IPAdapter")).toHaveLength(1);
    expect(second).toEqual(today);
  });

  it("a custom workflow naming {{reference_image}} gets the upload; with IMAGE_REFERENCE=seed it stops the boot", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "comfy-workflow-"));
    cleanups.push(async () => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, "faces.json");
    fs.writeFileSync(file, fs.readFileSync(REFERENCE_WORKFLOW_PATH));
    const engine = await double("comfyui");
    const reference = await photo();
    const custom = provider(engine.baseUrl, "photo", file);
    expect(custom.takesReference).toBe(true);
    expect((await custom.generate(request(reference))).referenced).toBe(true);
    const name = engine.posted("/upload/image")[0]!.form!.files.image!.name;
    expect(byClass(graphOf(engine.posted("/prompt")[0]!), "LoadImage")[0]!.inputs.image).toBe(name);
    await expect(custom.generate(request())).rejects.toThrow(/has no photo/);
    expect(() => provider(engine.baseUrl, "seed", file)).toThrow(/IMAGE_REFERENCE=photo/);

    // A custom workflow without the placeholder gets no reference.
    const plain = provider(engine.baseUrl, "photo", DEFAULT_WORKFLOW_PATH);
    expect(plain.takesReference).toBe(false);
  });

  it("the built-in reference workflow is a whole graph: every link names a node of it", () => {
    const graph = JSON.parse(fs.readFileSync(REFERENCE_WORKFLOW_PATH, "utf8")) as Graph;
    for (const node of Object.values(graph)) {
      for (const value of Object.values(node.inputs)) {
        if (Array.isArray(value)) expect(Object.keys(graph)).toContain(value[0]);
      }
    }
    expect(byClass(graph, "IPAdapterUnifiedLoader")[0]!.inputs.preset).toBe("PLUS FACE (portraits)");
    const filled = fillWorkflow(JSON.parse(fs.readFileSync(REFERENCE_WORKFLOW_PATH, "utf8")), {
      ...{ prompt: "p", negativePrompt: "n", seed: 1, width: 8, height: 8, steps: 1, model: "m" },
      referenceImage: "photo.jpg",
    }) as Graph;
    expect(byClass(filled, "LoadImage")[0]!.inputs.image).toBe("photo.jpg");
  });
});

it("IMAGE_REFERENCE takes photo (the default) or seed", () => {
  expect(loadConfig({}).IMAGE_REFERENCE).toBe("photo");
  expect(loadConfig({ IMAGE_REFERENCE: "seed" }).IMAGE_REFERENCE).toBe("seed");
  expect(() => loadConfig({ IMAGE_REFERENCE: "face" })).toThrow(/IMAGE_REFERENCE/);
});

describe.each<{ wire: Wire; model?: string }>([
  { wire: "automatic1111" },
  { wire: "openai", model: "gpt-image-1" },
  { wire: "comfyui" },
])("through the app and the image worker: $wire", ({ wire, model }) => {
  async function setup(env: Record<string, string> = {}) {
    const engine = await double(wire);
    const app = await createTestApp({
      llm: new ScriptedLlm(),
      env: {
        IMAGE_PROVIDER: wire,
        IMAGE_BASE_URL: engine.baseUrl,
        IMAGE_MODEL: model ?? "",
        COMFYUI_POLL_MS: "20",
        IMAGE_PORTRAIT_SIZE: "256x384",
        ...env,
      },
    });
    cleanups.push(() => app.dispose());
    const session = await demoWithCharacter(app.app);
    await allowPictures(app, session.userId);
    const character = await app.db.db
      .selectFrom("characters")
      .selectAll()
      .where("id", "=", session.characterId)
      .executeTakeFirstOrThrow();
    return { engine, app, session, character };
  }

  const askPortrait = async (app: TestApp, token: string, characterId: string) => {
    const answer = await callMultipart(app.app, "/api/chat/request-photo", {
      token,
      fields: { message: "Send a portrait photo", id: characterId, cid: characterId, mute: "1", type: "1" },
    });
    expect(answer.body.success).toBe(1);
    await app.images.idle();
  };

  /** The bytes of the reference image the engine received, in its own request shape. */
  const sentReference = (engine: ReferenceDouble): Buffer | undefined => {
    if (wire === "automatic1111") {
      const body = engine.posted("/sdapi/v1/img2img")[0]?.json;
      return body ? Buffer.from(String((body.init_images as string[])[0]), "base64") : undefined;
    }
    const route = wire === "openai" ? "/v1/images/edits" : "/upload/image";
    return engine.posted(route)[0]?.form?.files.image?.bytes;
  };

  it("the character's stored photo is the reference the engine receives", async () => {
    const { engine, app, session, character } = await setup();
    const stored = await app.storage.read(`characters/${character.photo}`);
    expect(stored?.length).toBeGreaterThan(0);
    await askPortrait(app, session.token, character.id);
    const sent = sentReference(engine);
    expect(sent?.equals(stored!)).toBe(true);
    const job = await app.db.db.selectFrom("image_jobs").selectAll().executeTakeFirstOrThrow();
    expect(job.status).toBe("done");
    expect(job.seed).toBe(seedFor(character.id));
  }, 30_000);

  it("IMAGE_REFERENCE=seed: no photo leaves the server, the picture is drawn as before", async () => {
    const { engine, app, session, character } = await setup({ IMAGE_REFERENCE: "seed" });
    await askPortrait(app, session.token, character.id);
    expect(sentReference(engine)).toBeUndefined();
    expect(engine.requests.some((r) => r.path.startsWith("/object_info/"))).toBe(false);
    const job = await app.db.db.selectFrom("image_jobs").selectAll().executeTakeFirstOrThrow();
    expect(job.status).toBe("done");
  }, 30_000);
});

describe("the image worker's reference", () => {
  it("is only the job's user's own character's photo; a missing file draws without one", async () => {
    // An engine is configured so pictures may be asked for; the app's own worker is stopped below.
    const app = await createTestApp({
      llm: new ScriptedLlm(),
      env: { IMAGE_PROVIDER: "automatic1111", IMAGE_BASE_URL: "http://127.0.0.1:9" },
    });
    cleanups.push(() => app.dispose());
    const owner = await demoWithCharacter(app.app);
    const other = await demoWithCharacter(app.app);
    await allowPictures(app, owner.userId);
    const repo = new ImagesRepo(app.db.db);
    const ownPhoto = (await app.db.db
      .selectFrom("characters")
      .select("photo")
      .where("id", "=", owner.characterId)
      .executeTakeFirstOrThrow())!.photo;
    expect(await repo.characterPhoto(owner.userId, owner.characterId)).toBe(ownPhoto);
    expect(await repo.characterPhoto(other.userId, owner.characterId)).toBeUndefined();
    expect(await repo.characterPhoto(owner.userId, "")).toBeUndefined();

    const seen: Array<ImageRequest["reference"]> = [];
    const provider: ImageProvider = {
      name: "recording",
      takesReference: true,
      status: () => ({ ready: true, message: "" }),
      generate: async (req) => {
        seen.push(req.reference);
        return { bytes: await makeImage(64, 64, "png") };
      },
    };
    await app.images.stop();
    const worker = new ImageWorker(repo, new QuotaService(new QuotaRepo(app.db.db)), provider, app.storage, {
      concurrency: 1,
      timeoutMs: 10_000,
      log: () => {},
    });
    cleanups.push(() => worker.stop());
    const ask = async () => {
      const answer = await callMultipart(app.app, "/api/chat/request-photo", {
        token: owner.token,
        fields: {
          message: "Send a portrait photo",
          id: owner.characterId,
          cid: owner.characterId,
          mute: "1",
          type: "1",
        },
      });
      expect(answer.body.success).toBe(1);
      worker.kick();
      await worker.idle();
    };
    await ask();
    expect(seen).toHaveLength(1);
    expect(seen[0]?.mimeType).toBe("image/jpeg");
    expect(seen[0]?.bytes.equals((await app.storage.read(`characters/${ownPhoto}`))!)).toBe(true);

    // The photo's file is gone: the picture is still drawn, from the words and the seed.
    await app.storage.remove(`characters/${ownPhoto}`);
    await ask();
    expect(seen).toHaveLength(2);
    expect(seen[1]).toBeUndefined();
  }, 30_000);
});
