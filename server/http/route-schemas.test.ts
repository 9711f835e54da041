// The route-schema compilers: request parts refused with parseInput's sentences and the NUL refusal; answers checked against their response schema.
import { afterEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { responseSerializer, validatorCompiler } from "./route-schemas";

const Answer = z.object({ success: z.literal(1), message: z.string() });
const serialize = (check: "off" | "throw" | "log", data: unknown) =>
  responseSerializer(check)({ schema: Answer, method: "GET", url: "/api/x", httpStatus: "200" })(data);

describe("the response check", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("writes an answer that matches as Fastify would", () => {
    const answer = { success: 1, message: "Done." };
    expect(serialize("throw", answer)).toBe(JSON.stringify(answer));
  });

  it("throws on a field the schema does not declare, or one of another shape", () => {
    expect(() => serialize("throw", { success: 1, message: "Done.", secret: "x" })).toThrow(
      /does not declare/,
    );
    expect(() => serialize("throw", { success: 1, message: 5 })).toThrow(/breaks its response schema/);
  });

  it("only logs with `log`, and checks nothing with `off`", () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const extra = { success: 1, message: "Done.", secret: "x" };
    expect(serialize("log", extra)).toBe(JSON.stringify(extra));
    expect(logged).toHaveBeenCalledWith(expect.stringContaining("GET /api/x holds fields"));
    expect(serialize("off", extra)).toBe(JSON.stringify(extra));
  });
});

describe("the request validator", () => {
  const validate = validatorCompiler({
    schema: z.object({ id: z.string().min(2, "The id is too short.") }),
    method: "POST",
    url: "/api/x",
    httpPart: "body",
  });

  it("answers the parsed value, a missing body checked as {}", () => {
    expect(validate({ id: "ab" })).toEqual({ value: { id: "ab" } });
    expect(validate(null)).toMatchObject({ error: { status: 400, message: "The id is required." } });
  });

  it("refuses with the rule's sentence, and a NUL anywhere as bad_input", () => {
    expect(validate({ id: "a" })).toMatchObject({
      error: { status: 400, message: "The id is too short." },
    });
    expect(validate({ id: "a\u0000b" })).toMatchObject({
      error: { status: 400, code: "bad_input", message: "The request contains a NUL character." },
    });
  });
});
