import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { failBody, failStatus } from "./envelope";
import { registerMultipart } from "./multipart";

/**
 * The multipart body parser (issue 19 replaced @fastify/multipart with it): the body the routes
 * read, and the refusals an attacker's body meets (sizes, counts, malformed parts, prototype
 * names), each a 4xx envelope with nothing passed to the route.
 */
const LIMITS = { fileSize: 1024, files: 2, fields: 5, parts: 7, fieldSize: 64, headerPairs: 100 };
const BOUNDARY = "----test-boundary";

type Part = { name: string; value: string | Buffer; filename?: string; type?: string };

function multipart(parts: Part[], boundary = BOUNDARY): Buffer {
  const pieces: Buffer[] = [];
  for (const part of parts) {
    const file = part.filename === undefined ? "" : `; filename="${part.filename}"`;
    const type = part.type ? `\r\ncontent-type: ${part.type}` : "";
    pieces.push(
      Buffer.from(
        `--${boundary}\r\ncontent-disposition: form-data; name="${part.name}"${file}${type}\r\n\r\n`,
      ),
    );
    pieces.push(Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value));
    pieces.push(Buffer.from("\r\n"));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(pieces);
}

describe("multipart bodies", () => {
  let app: FastifyInstance;
  const reached: unknown[] = [];

  beforeAll(async () => {
    app = Fastify();
    registerMultipart(app, LIMITS);
    app.setErrorHandler((error, _request, reply) => reply.status(failStatus(error)).send(failBody(error)));
    app.post("/echo", async (request) => {
      reached.push(request.body);
      const body = request.body as Record<string, unknown>;
      return Object.fromEntries(
        Object.entries(body).map(([key, value]) => [
          key,
          Array.isArray(value)
            ? value.map((item) => (Buffer.isBuffer(item) ? { bytes: item.length } : item))
            : Buffer.isBuffer(value)
              ? { bytes: value.length, text: value.toString("latin1") }
              : value,
        ]),
      );
    });
    await app.ready();
  });

  afterAll(async () => {
    await app.close();
  });

  const post = (body: Buffer, boundary = BOUNDARY) =>
    app.inject({
      method: "POST",
      url: "/echo",
      payload: body,
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
    });

  it("gives text fields as strings, files as bytes, an empty file as empty bytes, a repeated name as a list", async () => {
    const photo = Buffer.from([0xff, 0xd8, 0xff, 0x00, 0x41]);
    const answer = await post(
      multipart([
        { name: "message", value: "Héllo, wörld 👋" },
        { name: "empty", value: "" },
        { name: "photo", value: photo, filename: "a.jpg", type: "image/jpeg" },
        { name: "old_photo", value: "", filename: "" },
        { name: "tag", value: "a" },
        { name: "tag", value: "b" },
      ]),
    );
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({
      message: "Héllo, wörld 👋",
      empty: "",
      photo: { bytes: 5, text: photo.toString("latin1") },
      old_photo: { bytes: 0, text: "" },
      tag: ["a", "b"],
    });
    // The route gets a plain object (not a null-prototype one).
    expect(Object.getPrototypeOf(reached.at(-1))).toBe(Object.prototype);
  });

  it("keeps a part declared as JSON as text", async () => {
    const answer = await post(multipart([{ name: "data", value: '{"a":1}', type: "application/json" }]));
    expect(answer.json()).toEqual({ data: '{"a":1}' });
  });

  it("refuses a file over the size limit with 413, the route never reached", async () => {
    const before = reached.length;
    const answer = await post(
      multipart([{ name: "photo", value: Buffer.alloc(2048, 1), filename: "a.jpg" }]),
    );
    expect(answer.statusCode).toBe(413);
    expect(answer.json()).toMatchObject({ success: 0, code: "payload_too_large" });
    expect(reached.length).toBe(before);
  });

  it("refuses more fields, files or parts than allowed with 413", async () => {
    const fields = Array.from({ length: 6 }, (_unused, i) => ({ name: `f${i}`, value: "x" }));
    const files = Array.from({ length: 3 }, (_unused, i) => ({
      name: `p${i}`,
      value: "x",
      filename: "a.jpg",
    }));
    for (const parts of [
      fields,
      files,
      [...fields.slice(0, 5), ...files.slice(0, 2), { name: "z", value: "x" }],
    ]) {
      const answer = await post(multipart(parts));
      expect(answer.statusCode).toBe(413);
      expect(answer.json()).toMatchObject({ success: 0, code: "payload_too_large" });
    }
  });

  it("refuses field names of Object.prototype with 400", async () => {
    for (const name of ["__proto__", "constructor", "toString"]) {
      const before = reached.length;
      const answer = await post(multipart([{ name, value: "x" }]));
      expect(answer.statusCode, name).toBe(400);
      expect(answer.json()).toMatchObject({ success: 0, code: "bad_multipart" });
      const file = await post(multipart([{ name, value: "x", filename: "a.jpg" }]));
      expect(file.statusCode, name).toBe(400);
      expect(reached.length).toBe(before);
    }
  });

  it("refuses a body busboy cannot read, or a content type without a boundary, with 400", async () => {
    const noBoundary = await app.inject({
      method: "POST",
      url: "/echo",
      payload: "x",
      headers: { "content-type": "multipart/form-data" },
    });
    expect(noBoundary.statusCode).toBe(400);
    const truncated = await post(
      Buffer.from(`--${BOUNDARY}\r\ncontent-disposition: form-data; name="a"\r\n\r\nhalf`),
    );
    expect(truncated.statusCode).toBe(400);
    expect(truncated.json()).toMatchObject({ success: 0 });
  });

  it("cuts a field value at fieldSize", async () => {
    const answer = await post(multipart([{ name: "message", value: "y".repeat(100) }]));
    expect(answer.json()).toEqual({ message: "y".repeat(64) });
  });
});
