import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeEachDatabase } from "../server/testing/api";
import { type Session, signIn } from "./support/fixtures";
import { rawRequest } from "./support/raw-http";
import { type ListeningApp, startListening } from "./support/server";

/**
 * `Accept-Language` chooses the language of server messages. A hostile header (10 KB,
 * odd characters, regex-like text, repeated lines, absurd weights) is read only up to a bound,
 * never throws, and falls back to English; the answer is the same 404 a plain request gets.
 */
describeEachDatabase("hostile Accept-Language headers", (dialect) => {
  let server: ListeningApp;
  let session: Session;
  beforeAll(async () => {
    server = await startListening({ dialect });
    session = await signIn(server.url);
  }, 60_000);
  afterAll(async () => {
    await server?.close();
  });

  /** DELETE of a memory that does not exist, with raw Accept-Language header lines. */
  const missingMemory = async (acceptLanguage: string[]) => {
    const response = await rawRequest(server.url, "DELETE", `/api/chat/memories/?id=${randomUUID()}`, {
      headers: {
        authorization: `Bearer ${session.token}`,
        // Several values make several header lines (rawRequest writes "name: value" as given).
        "accept-language": acceptLanguage.join("\r\naccept-language: "),
      },
    });
    return {
      status: response.status,
      elapsedMs: response.elapsedMs,
      body: JSON.parse(response.body.toString("utf8")) as { success: number; message: string },
    };
  };

  const hostile: Array<[string, string[]]> = [
    ["10 KB of unknown ranges", [`${"xx-YY;q=0.9,".repeat(850)}`]],
    ["10 KB of one token with German past the bound", [`${"a".repeat(10_240)},de`]],
    ["German only after 10 KB of commas and semicolons", [`${",;=".repeat(3500)},de`]],
    ["regex-like and quoted text", ['(.*)+$^[de]{1000}, "de", \\de, de\\;q=1']],
    ["absurd and malformed weights", ["de;q=9, fr;q=-1, it;q=1e3, es;q=NaN, pt;q=0.5.5"]],
    ["Latin-1 and percent bytes", ["d\u00e9, %64%65, de\u00ff, \u00e9s"]],
    ["only wildcards and empty ranges", ["*, , ;, *;q=1, ;q=1"]],
  ];

  for (const [name, header] of hostile) {
    it(`${name}: bounded, answered in English`, async () => {
      const answer = await missingMemory(header);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ success: 0, message: "Memory not found.", code: "not_found" });
      expect(answer.elapsedMs).toBeLessThan(2_000);
    });
  }

  it("many repeated header lines are joined and still bounded", async () => {
    const answer = await missingMemory(Array.from({ length: 50 }, () => "zz;q=0.9, yy;q=0.8"));
    expect(answer.status).toBe(404);
    expect(answer.body.message).toBe("Memory not found.");
  });

  it("a 10 KB header that starts with a supported language still picks it", async () => {
    const answer = await missingMemory([`de,${"x".repeat(10_240)}`]);
    expect(answer.body.message).toBe("Erinnerung nicht gefunden.");
  });
});
