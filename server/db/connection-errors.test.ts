import { describe, expect, it } from "vitest";
import { isConnectionLost } from "./connection-errors";

/** An Error with a `code`, as pg (SQLSTATE), Node's net (errno name) and better-sqlite3 raise them. */
function coded(code: string, message = `failed with ${code}`): Error {
  return Object.assign(new Error(message), { code });
}

describe("isConnectionLost", () => {
  it.each(["57P01", "57P02", "57P03", "08000", "08003", "08006", "08001", "08004", "08007", "08P01"])(
    "is true for SQLSTATE %s",
    (code) => {
      expect(isConnectionLost(coded(code))).toBe(true);
    },
  );

  it.each(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND"])(
    "is true for the socket error %s",
    (code) => {
      expect(isConnectionLost(coded(code))).toBe(true);
    },
  );

  it.each([
    "Connection terminated unexpectedly",
    "Connection terminated",
    "Connection terminated due to connection timeout",
    "timeout exceeded when trying to connect",
    "Client has encountered a connection error and is not queryable",
  ])("is true for pg's message %j", (message) => {
    expect(isConnectionLost(new Error(message))).toBe(true);
  });

  it("follows `cause` and AggregateError members", () => {
    expect(isConnectionLost(new Error("query failed", { cause: coded("57P01") }))).toBe(true);
    expect(
      isConnectionLost(new AggregateError([coded("ECONNREFUSED"), coded("ECONNREFUSED")], "connect")),
    ).toBe(true);
  });

  it.each([
    ["SQLITE_BUSY", coded("SQLITE_BUSY", "database is locked")],
    ["a unique violation (23505)", coded("23505", "duplicate key value violates unique constraint")],
    ["a syntax error (42601)", coded("42601", "syntax error at or near")],
    ["a statement timeout (57014)", coded("57014", "canceling statement due to statement timeout")],
    ["a serialization failure (40001)", coded("40001", "could not serialize access")],
    ["a plain Error", new Error("something else")],
    [
      "a message that only mentions a connection",
      new Error("Connection terminated by the user's own code path"),
    ],
  ])("is false for %s", (_name, error) => {
    expect(isConnectionLost(error)).toBe(false);
  });

  it.each([null, undefined, "Connection terminated", 57, { code: 42 }])(
    "is false for the non-error %j",
    (value) => {
      expect(isConnectionLost(value)).toBe(false);
    },
  );

  it("does not loop on a cyclic cause", () => {
    const error = new Error("outer") as Error & { cause?: unknown };
    error.cause = error;
    expect(isConnectionLost(error)).toBe(false);
  });
});
