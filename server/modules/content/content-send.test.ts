import { describe, expect, it } from "vitest";
import type { StoredFile } from "../../providers/storage/storage";
import { decideContentAnswer, parseBytesRange } from "./content-send";

const file: StoredFile = {
  size: 100,
  lastModified: new Date("2026-01-02T03:04:05.678Z"),
  contentType: "audio/mpeg",
  etag: 'W/"64-abc"',
};
const modified = file.lastModified.toUTCString();
const earlier = new Date(file.lastModified.getTime() - 60_000).toUTCString();

describe("decideContentAnswer: HTTP caching and ranges as @fastify/static answered", () => {
  it("answers the whole file without conditions", () => {
    expect(decideContentAnswer({}, file)).toEqual({ status: 200, length: 100 });
  });

  it("answers 304 to a matching If-None-Match (weakly compared, lists, *) or a fresh If-Modified-Since", () => {
    expect(decideContentAnswer({ "if-none-match": 'W/"64-abc"' }, file).status).toBe(304);
    expect(decideContentAnswer({ "if-none-match": '"64-abc"' }, file).status).toBe(304);
    expect(decideContentAnswer({ "if-none-match": '"x", W/"64-abc"' }, file).status).toBe(304);
    expect(decideContentAnswer({ "if-none-match": "*" }, file).status).toBe(304);
    expect(decideContentAnswer({ "if-none-match": '"x"' }, file).status).toBe(200);
    expect(decideContentAnswer({ "if-modified-since": modified }, file).status).toBe(304);
    expect(decideContentAnswer({ "if-modified-since": earlier }, file).status).toBe(200);
    // If-None-Match wins over If-Modified-Since; a reload asks for the file itself.
    expect(decideContentAnswer({ "if-none-match": '"x"', "if-modified-since": modified }, file).status).toBe(
      200,
    );
    expect(decideContentAnswer({ "if-none-match": "*", "cache-control": "no-cache" }, file).status).toBe(200);
  });

  it("answers 412 to a failed If-Match or If-Unmodified-Since", () => {
    expect(decideContentAnswer({ "if-match": '"x"' }, file).status).toBe(412);
    expect(decideContentAnswer({ "if-match": 'W/"64-abc"' }, file).status).toBe(200);
    expect(decideContentAnswer({ "if-unmodified-since": earlier }, file).status).toBe(412);
  });

  it("answers one range as 206, several as the whole file, none satisfiable as 416", () => {
    expect(decideContentAnswer({ range: "bytes=10-19" }, file)).toEqual({
      status: 206,
      length: 10,
      range: { start: 10, end: 19 },
      contentRange: "bytes 10-19/100",
    });
    expect(decideContentAnswer({ range: "bytes=90-" }, file)).toMatchObject({
      contentRange: "bytes 90-99/100",
    });
    expect(decideContentAnswer({ range: "bytes=-10" }, file)).toMatchObject({
      contentRange: "bytes 90-99/100",
    });
    expect(decideContentAnswer({ range: "bytes=95-200" }, file)).toMatchObject({
      contentRange: "bytes 95-99/100",
    });
    expect(decideContentAnswer({ range: "bytes=0-9,50-59" }, file)).toEqual({ status: 200, length: 100 });
    expect(decideContentAnswer({ range: "bytes=0-9,5-19" }, file)).toMatchObject({ status: 206, length: 20 });
    expect(decideContentAnswer({ range: "bytes=100-" }, file)).toEqual({
      status: 416,
      contentRange: "bytes */100",
    });
    expect(decideContentAnswer({ range: "bytes=-0" }, file).status).toBe(416);
    expect(decideContentAnswer({ range: "items=0-9" }, file).status).toBe(200);
    expect(decideContentAnswer({ range: "bytes=abc" }, file).status).toBe(416);
  });

  it("honours a range only while If-Range still names the file", () => {
    expect(decideContentAnswer({ range: "bytes=0-9", "if-range": 'W/"64-abc"' }, file).status).toBe(206);
    expect(decideContentAnswer({ range: "bytes=0-9", "if-range": '"old"' }, file).status).toBe(200);
    expect(decideContentAnswer({ range: "bytes=0-9", "if-range": modified }, file).status).toBe(206);
    expect(decideContentAnswer({ range: "bytes=0-9", "if-range": earlier }, file).status).toBe(200);
  });

  it("parses an empty file's ranges as unsatisfiable", () => {
    expect(parseBytesRange(0, "bytes=0-")).toEqual([]);
    expect(parseBytesRange(0, "bytes=-5")).toEqual([]);
  });
});
