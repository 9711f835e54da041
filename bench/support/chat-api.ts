// The API calls of the memory benchmarks: importing a SillyTavern chat, sending a message plain, reading a reply's prompt inspection, deleting an entry, recall on or off.
import { randomBytes, randomUUID } from "node:crypto";
import type { PromptInspection } from "../../common/prompt-inspection";

/** A text field or a file of a multipart form. */
type FormValue = string | { fileName: string; contentType: string; content: string };

/** A multipart/form-data body as a browser sends it (files with their name and type). */
export function multipartForm(fields: Record<string, FormValue>): { body: Buffer; contentType: string } {
  const boundary = `----bench${randomBytes(8).toString("hex")}`;
  const parts = Object.entries(fields).map(([name, value]) =>
    typeof value === "string"
      ? `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
      : `--${boundary}\r\ncontent-disposition: form-data; name="${name}"; filename="${value.fileName}"\r\n` +
        `content-type: ${value.contentType}\r\n\r\n${value.content}\r\n`,
  );
  return {
    body: Buffer.from(`${parts.join("")}--${boundary}--\r\n`),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/** The envelope every API answer carries, and the rest of it. */
type Answer = { success: number; message: string } & Record<string, unknown>;

/** A signed-in user's calls on one character's chat. */
export class ChatApi {
  constructor(
    private readonly base: string,
    private readonly token: string,
    /** The user's character whose chat is imported and talked to. */
    readonly characterId: string,
  ) {}

  private async call(method: string, route: string, body?: { data: Buffer | string; type: string }) {
    const response = await fetch(`${this.base}${route}`, {
      method,
      headers: {
        authorization: `Bearer ${this.token}`,
        ...(body ? { "content-type": body.type } : {}),
      },
      body: typeof body?.data === "string" ? body.data : body && new Uint8Array(body.data),
    });
    const text = await response.text();
    let answer: Answer;
    try {
      answer = JSON.parse(text) as Answer;
    } catch {
      throw new Error(`${method} ${route}: ${response.status} ${text.slice(0, 300)}`);
    }
    if (answer.success !== 1) throw new Error(`${method} ${route}: ${response.status} ${answer.message}`);
    return answer;
  }

  /**
   * POST /api/chat/import: the chat file replaces the character's history.
   * @returns the messages imported, as the server counted them.
   */
  async importChat(fileName: string, jsonl: string): Promise<number> {
    const form = multipartForm({
      id: this.characterId,
      file: { fileName, contentType: "application/jsonl", content: jsonl },
    });
    const answer = await this.call("POST", "/api/chat/import", { data: form.body, type: form.contentType });
    return Number((answer.data as { imported?: number } | undefined)?.imported ?? Number.NaN);
  }

  /**
   * POST /api/chat/message as the SPA sends it (multipart, muted), answered plain.
   * @param pname the name the user goes by. @returns the new entry's id.
   */
  async send(message: string, pname: string): Promise<string> {
    const form = multipartForm({
      message,
      id: this.characterId,
      cId: this.characterId,
      mute: "1",
      clientMessageId: randomUUID(),
      time: new Date().toISOString(),
      pname,
    });
    const answer = await this.call("POST", "/api/chat/message", { data: form.body, type: form.contentType });
    const history = answer.history as Array<{ chatHistoryUUID: string }> | undefined;
    const id = history?.at(-1)?.chatHistoryUUID;
    if (!id) throw new Error(`POST /api/chat/message: no entry in the answer (${answer.message})`);
    return id;
  }

  /**
   * GET /api/chat/prompt?id=: the entry's reply's prompt inspection, waited for (it is stored
   * beside the reply) for up to `waitMs`. @returns null when none came.
   */
  async inspection(entryId: string, waitMs = 3000): Promise<PromptInspection | null> {
    const deadline = performance.now() + waitMs;
    for (;;) {
      const answer = await this.call("GET", `/api/chat/prompt?id=${encodeURIComponent(entryId)}`);
      const inspection = answer.inspection as PromptInspection | null;
      if (inspection || performance.now() > deadline) return inspection;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** POST /api/chat/delete: removes the entry (the message and its reply). */
  async remove(entryId: string): Promise<void> {
    await this.call("POST", "/api/chat/delete", {
      data: JSON.stringify({ id: entryId }),
      type: "application/json",
    });
  }

  /** POST /api/chat/recall: the chat's recall on or off. */
  async setRecall(enabled: boolean): Promise<void> {
    await this.call("POST", "/api/chat/recall", {
      data: JSON.stringify({ id: this.characterId, enabled }),
      type: "application/json",
    });
  }
}
