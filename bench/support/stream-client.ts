import { randomBytes, randomUUID } from "node:crypto";
import http from "node:http";

/**
 * The load generator's HTTP for `chat-load.bench.ts`: `node:http` on kept-alive
 * connections, the bodies built once as bytes. On this 2-core machine the load generator shares
 * the CPU with the server and the model double; `fetch` with a `FormData` body cost it about as
 * much CPU per message as the server itself, so its own queueing was counted in every time to
 * first token, straight or through the server.
 */
export class StreamClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY });

  /**
   * POSTs `body` and reads the streamed answer to its end.
   * @returns ms from the call to the first `marker` in the answer and to its end.
   * @throws Error for a status other than 200, a broken connection, or an answer without `marker`
   *   (its start is in the message).
   */
  post(
    url: string,
    headers: Record<string, string>,
    body: Buffer,
    marker: string,
  ): Promise<{ first: number; end: number }> {
    const started = performance.now();
    return new Promise((resolve, reject) => {
      const request = http.request(
        url,
        { method: "POST", agent: this.agent, headers: { ...headers, "content-length": body.length } },
        (response) => {
          response.setEncoding("utf8");
          let first = Number.NaN;
          let text = "";
          response.on("data", (chunk: string) => {
            if (!Number.isNaN(first)) return;
            text += chunk;
            if (text.includes(marker)) first = performance.now() - started;
          });
          response.on("error", reject);
          response.on("end", () => {
            if (response.statusCode !== 200 || Number.isNaN(first)) {
              reject(
                new Error(`HTTP ${response.statusCode}, no ${JSON.stringify(marker)}: ${text.slice(0, 300)}`),
              );
            } else resolve({ first, end: performance.now() - started });
          });
        },
      );
      request.on("error", reject);
      request.end(body);
    });
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.agent.destroy();
  }
}

/**
 * A multipart/form-data body (RFC 7578) of text fields, as a browser's FormData sends it.
 * @returns the bytes and the content-type header with its boundary.
 */
export function multipartBody(fields: Record<string, string>): { body: Buffer; contentType: string } {
  const boundary = `----bench${randomBytes(8).toString("hex")}`;
  const parts = Object.entries(fields).map(
    ([name, value]) => `--${boundary}\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return {
    body: Buffer.from(`${parts.join("")}--${boundary}--\r\n`),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}

/**
 * One streamed chat message as the SPA sends it (POST /api/chat/message: multipart, product.md §7 fields,
 * muted, stream=1) from a signed-in user to one of their characters.
 * @returns the request's headers and body bytes.
 */
export function chatMessageRequest(
  user: { token: string; characterId: string },
  message: string,
): { headers: Record<string, string>; body: Buffer } {
  const form = multipartBody({
    message,
    id: user.characterId,
    cId: user.characterId,
    mute: "1",
    time: new Date().toISOString(),
    clientMessageId: randomUUID(),
    stream: "1",
  });
  return {
    headers: {
      authorization: `Bearer ${user.token}`,
      accept: "text/event-stream",
      "content-type": form.contentType,
    },
    body: form.body,
  };
}
