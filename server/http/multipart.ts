import type { IncomingHttpHeaders } from "node:http";
import type { Readable } from "node:stream";
import Busboy, { type BusboyHeaders, type BusboyInstance } from "@fastify/busboy";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { AppError, badRequest } from "../errors";

/** Bounds of one multipart body (busboy's limits; sizes in bytes). */
export interface MultipartLimits {
  /** Largest file part. */
  fileSize: number;
  files: number;
  fields: number;
  /** files + fields. */
  parts: number;
  /** Largest text field; a longer value is cut there (the routes' own rules refuse it anyway). */
  fieldSize: number;
  headerPairs: number;
}

/** A parsed multipart body: text fields as strings, file fields as their bytes; a repeated name gives a list. */
export type MultipartBody = Record<string, string | Buffer | Array<string | Buffer>>;

/**
 * Parses `multipart/form-data` bodies into `request.body` (MultipartBody) with @fastify/busboy,
 * for every route (spec 7 sends most forms as multipart; issue 13's limits).
 *
 * Our own glue around busboy instead of @fastify/multipart (issue 19): the plugin's async part
 * iterator and per-part objects cost about 0.07 ms of CPU on every chat message, a twentieth of a
 * whole turn, for the key/value body that is all our routes read. Same body shape as the plugin's
 * `attachFieldsToBody: "keyValues"` (an empty file part is an empty Buffer), except that a part
 * declared `application/json` stays text (the routes' schemas parse what they accept).
 * @throws (to the client) AppError 413 `payload_too_large` when a file is over `fileSize` or there
 *   are more parts, files or fields than allowed; 400 `bad_multipart` for a body busboy cannot
 *   read or a field named after an Object.prototype property.
 */
export function registerMultipart(app: FastifyInstance, limits: MultipartLimits): void {
  app.addContentTypeParser(
    "multipart/form-data",
    (request: FastifyRequest, payload: Readable): Promise<MultipartBody> =>
      parseMultipart(payload, request.headers, limits),
  );
}

/**
 * Reads one multipart body from `stream` (see registerMultipart). Stops reading at the first
 * error (the rest of the body is left unread; the server closes such a connection).
 */
export function parseMultipart(
  stream: Readable,
  headers: IncomingHttpHeaders,
  limits: MultipartLimits,
): Promise<MultipartBody> {
  return new Promise((resolve, reject) => {
    const body: MultipartBody = Object.create(null);
    let settled = false;
    let pendingFiles = 0;
    let finished = false;
    let parser: BusboyInstance;
    const stop = (error: Error) => {
      if (settled) return;
      settled = true;
      stream.unpipe(parser);
      stream.pause();
      reject(error);
    };
    const done = () => {
      if (settled || !finished || pendingFiles > 0) return;
      settled = true;
      // A plain object for the routes (the null prototype only guarded the parse).
      resolve({ ...body });
    };
    const add = (name: string, value: string | Buffer) => {
      const known = body[name];
      if (known === undefined) body[name] = value;
      else if (Array.isArray(known)) known.push(value);
      else body[name] = [known, value];
    };
    const tooMany = () => stop(new AppError("payload_too_large", "The form has too many fields or files."));
    try {
      parser = new Busboy({ headers: headers as BusboyHeaders, limits });
    } catch {
      reject(badRequest("The upload is malformed.", "bad_multipart"));
      return;
    }
    parser.on("field", (name: string, value: string) => {
      if (name in Object.prototype) return stop(badRequest("The upload is malformed.", "bad_multipart"));
      add(name, value);
    });
    parser.on("file", (name: string, file: Readable & { truncated?: boolean }) => {
      if (name in Object.prototype) {
        file.resume();
        return stop(badRequest("The upload is malformed.", "bad_multipart"));
      }
      pendingFiles += 1;
      const chunks: Buffer[] = [];
      file.on("data", (chunk: Buffer) => chunks.push(chunk));
      file.on("limit", () => {
        file.resume();
        stop(
          new AppError(
            "payload_too_large",
            `The file is too large (at most ${Math.round(limits.fileSize / 1024 / 1024)} MB).`,
          ),
        );
      });
      file.on("end", () => {
        pendingFiles -= 1;
        if (!file.truncated) add(name, Buffer.concat(chunks));
        done();
      });
    });
    parser.on("partsLimit", tooMany);
    parser.on("filesLimit", tooMany);
    parser.on("fieldsLimit", tooMany);
    parser.on("error", () => stop(badRequest("The upload is malformed.", "bad_multipart")));
    parser.on("finish", () => {
      finished = true;
      done();
    });
    stream.on("error", (error) => stop(error));
    stream.pipe(parser);
  });
}
