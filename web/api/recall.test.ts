import { afterEach, describe, expect, it, vi } from "vitest";
import { importChat } from "./chat";
import { ApiError } from "./errors";
import { getRecall, setRecall } from "./recall";
import { json } from "./stream.fakes";

afterEach(() => {
  vi.unstubAllGlobals();
});

interface Sent {
  url: string;
  method: string;
  body: unknown;
}

/** Replaces fetch (and the stored token) with one that answers `answers` in turn; returns what was sent. */
function answerWith(...answers: Response[]): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal("localStorage", {
    getItem: (key: string) =>
      key === "token" ? JSON.stringify({ token: "secret", expirationTime: Date.now() + 60_000 }) : null,
  });
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      sent.push({ url, method: init.method ?? "GET", body: init.body });
      return answers.shift() ?? new Response(null, { status: 500 });
    }),
  );
  return sent;
}

describe("recall of earlier messages (GET and POST /chat/recall)", () => {
  it("reads the chat's setting, and answers null when the server has none for the chat", async () => {
    const sent = answerWith(
      json(200, { success: 1, message: "", data: { enabled: false } }),
      json(404, { success: 0, message: "Chat not found.", code: "not_found" }),
    );
    expect(await getRecall("c1")).toEqual({ enabled: false });
    expect(sent[0]).toMatchObject({ url: "/api/chat/recall?id=c1", method: "GET" });
    expect(await getRecall("c2")).toBeNull();
  });

  it("saves a choice as JSON {id, enabled} and throws the server's sentence when refused", async () => {
    const sent = answerWith(
      json(200, { success: 1, message: "Saved.", data: { enabled: true } }),
      json(400, { success: 0, message: "enabled must be true or false.", code: "bad_input" }),
    );
    expect(await setRecall("c1", true)).toEqual({ enabled: true });
    expect(sent[0]!.method).toBe("POST");
    expect(JSON.parse(await new Response(sent[0]!.body as Blob).text())).toEqual({ id: "c1", enabled: true });
    await expect(setRecall("c1", false)).rejects.toThrow("enabled must be true or false.");
  });
});

describe("chat import (POST /chat/import)", () => {
  it("sends the character and the file as multipart and answers the count and sentence", async () => {
    const sent = answerWith(
      json(200, { success: 1, message: "The chat has been imported: 3 messages.", data: { imported: 3 } }),
    );
    const file = new File(['{"user_name":"Ada"}\n'], "mira.jsonl", { type: "application/jsonl" });
    expect(await importChat("c1", file)).toEqual({
      message: "The chat has been imported: 3 messages.",
      imported: 3,
    });
    expect(sent[0]).toMatchObject({ url: "/api/chat/import", method: "POST" });
    const form = sent[0]!.body as FormData;
    expect(form.get("id")).toBe("c1");
    expect((form.get("file") as File).name).toBe("mira.jsonl");
  });

  it("throws the server's refusal with its sentence and code", async () => {
    answerWith(json(400, { success: 0, message: "Line 7 is not valid JSON.", code: "bad_chat_file" }));
    const refused = await importChat("c1", new File(["x"], "bad.jsonl")).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({
      message: "Line 7 is not valid JSON.",
      kind: "envelope",
      code: "bad_chat_file",
    });
  });
});
