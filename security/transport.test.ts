import type net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exchange, rawRequest } from "./support/raw-http";
import { type ListeningApp, startListening } from "./support/server";

/**
 * Attacked over a real socket: upload floods before sign-in, trickling clients
 * and malformed multipart headers. Each is answered early with a 4xx, never read to the end and
 * never a 500.
 */

const TWO_GB = 2 * 1024 * 1024 * 1024;

describe("transport limits", () => {
  let server: ListeningApp;
  let token = "";

  beforeAll(async () => {
    server = await startListening({
      env: { HTTP_REQUEST_TIMEOUT_MS: "2000", HTTP_HEADERS_TIMEOUT_MS: "1000" },
    });
    const response = await fetch(`${server.url}/api/auth/demo-login`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "id=demo",
    });
    token = ((await response.json()) as { data: { token: string } }).data.token;
  });
  afterAll(() => server.dispose());

  const port = () => Number(new URL(server.url).port);

  /** Sends the head of a request declaring a 2 GB multipart body, then 64 KiB of it, and waits. */
  const floodHead = (target: string, headers: string) =>
    exchange(
      "127.0.0.1",
      port(),
      (socket) => {
        socket.write(
          `POST ${target} HTTP/1.1\r\nhost: localhost\r\ncontent-type: multipart/form-data; boundary=xyz\r\n` +
            `content-length: ${TWO_GB}\r\n${headers}\r\n`,
        );
        socket.write(
          `--xyz\r\ncontent-disposition: form-data; name="photo"; filename="a.jpg"\r\ncontent-type: image/jpeg\r\n\r\n`,
        );
        socket.write(Buffer.alloc(64 * 1024, 0x41));
      },
      3000,
    );

  it("refuses an unauthenticated upload to a signed-in route before reading its body", async () => {
    const response = await floodHead("/api/chat/photo-process", "");
    expect([401, 413]).toContain(response.status);
    expect(response.elapsedMs).toBeLessThan(2500);
    expect(response.headers.connection).toBe("close");
  });

  it("refuses a declared 2 GB body on a signed-in route at once, even with a valid token", async () => {
    const response = await floodHead("/api/chat/photo-process", `authorization: Bearer ${token}\r\n`);
    expect(response.status).toBe(413);
    expect(JSON.parse(response.body.toString())).toMatchObject({ success: 0 });
  });

  it("refuses a declared 2 GB body on a public route at once", async () => {
    const response = await floodHead("/api/contact", "");
    expect(response.status).toBe(413);
  });

  it("cuts off a client that trickles its body one byte at a time", async () => {
    let timer: NodeJS.Timeout | undefined;
    const started = performance.now();
    const response = await exchange(
      "127.0.0.1",
      port(),
      (socket: net.Socket) => {
        socket.write(
          "POST /api/contact HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/x-www-form-urlencoded\r\ncontent-length: 200\r\n\r\n",
        );
        timer = setInterval(() => {
          if (!socket.destroyed) socket.write("a");
        }, 400);
      },
      8000,
    ).finally(() => clearInterval(timer));
    expect(response.status).toBe(408);
    expect(performance.now() - started).toBeLessThan(6000);
  });

  it("cuts off a client that trickles its headers", async () => {
    let timer: NodeJS.Timeout | undefined;
    const started = performance.now();
    const outcome = await exchange(
      "127.0.0.1",
      port(),
      (socket: net.Socket) => {
        socket.write("GET /api/payment/pricing HTTP/1.1\r\nhost: localhost\r\nx-slow: ");
        timer = setInterval(() => {
          if (!socket.destroyed) socket.write("a");
        }, 300);
      },
      8000,
    )
      .then((response) => response.status)
      .catch((error: Error) => error.message)
      .finally(() => clearInterval(timer));
    // Node answers 408 or simply closes the socket; either way within a few seconds, not minutes.
    expect(outcome === 408 || outcome === "the server closed the connection without an HTTP response").toBe(
      true,
    );
    expect(performance.now() - started).toBeLessThan(6000);
  });

  it("answers a 5 000 character multipart boundary with 400, not 500", async () => {
    const boundary = "b".repeat(5000);
    const body = `--${boundary}\r\ncontent-disposition: form-data; name="id"\r\n\r\nx\r\n--${boundary}--\r\n`;
    const response = await rawRequest(server.url, "POST", "/api/chat/photo-process", {
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": `multipart/form-data; boundary=${boundary}`,
      },
      body,
    });
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body.toString())).toMatchObject({ success: 0 });
  });

  it("answers a multipart body with too many fields with a 4xx, not 500", async () => {
    const boundary = "fields";
    let body = "";
    for (let i = 0; i < 200; i++) {
      body += `--${boundary}\r\ncontent-disposition: form-data; name="f${i}"\r\n\r\nx\r\n`;
    }
    body += `--${boundary}--\r\n`;
    const response = await rawRequest(server.url, "POST", "/api/chat/photo-process", {
      headers: {
        authorization: `Bearer ${token}`,
        "content-type": `multipart/form-data; boundary=${boundary}`,
      },
      body,
    });
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
  });

  it("still serves ordinary requests after the attacks", async () => {
    const response = await fetch(`${server.url}/api/payment/pricing`);
    expect(response.status).toBe(200);
  });
});
