import net from "node:net";

/** What a raw HTTP/1.1 exchange gave back. */
export interface RawResponse {
  status: number;
  /** Header names lower-cased; repeated headers joined with ", " (set-cookie with "\n"). */
  headers: Record<string, string>;
  body: Buffer;
  /** Milliseconds from connecting to the end of the response (or the socket closing). */
  elapsedMs: number;
}

/**
 * Sends one HTTP/1.1 request with the request target exactly as given: no URL parsing, no
 * normalisation of `//`, `./`, `..` or percent escapes (what `fetch` and `inject` would change).
 * The connection is closed after the response (`Connection: close`).
 * @param target the raw request target, e.g. "/content//<id>/user_photo/x.jpg".
 * @param options.headers extra header lines; options.body bytes sent after the headers.
 * @param options.timeoutMs the whole exchange's bound (default 10 s).
 * @throws Error on a timeout or when the server closes without a status line.
 */
export function rawRequest(
  baseUrl: string,
  method: string,
  target: string,
  options: { headers?: Record<string, string>; body?: Buffer | string; timeoutMs?: number } = {},
): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  const body = options.body === undefined ? undefined : Buffer.from(options.body);
  const headers: Record<string, string> = {
    host: `${hostname}:${port}`,
    connection: "close",
    ...(body ? { "content-length": String(body.length) } : {}),
    ...options.headers,
  };
  const head = `${method} ${target} HTTP/1.1\r\n${Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join("\r\n")}\r\n\r\n`;
  return exchange(
    hostname,
    Number(port),
    (socket) => {
      socket.write(head);
      if (body) socket.write(body);
    },
    options.timeoutMs ?? 10_000,
  );
}

/**
 * Opens a connection, lets `write` send whatever it likes (a trickle, a partial body) and
 * collects the response until the server closes or `timeoutMs` passes.
 * @returns the parsed response. @throws Error on a timeout with no status line.
 */
export function exchange(
  host: string,
  port: number,
  write: (socket: net.Socket) => void,
  timeoutMs: number,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const socket = net.connect({ host, port });
    const chunks: Buffer[] = [];
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const parsed = parseResponse(Buffer.concat(chunks));
      if (!parsed) reject(new Error("the server closed the connection without an HTTP response"));
      else resolve({ ...parsed, elapsedMs: performance.now() - started });
    };
    const timer = setTimeout(() => {
      if (parseResponse(Buffer.concat(chunks))) return done();
      settled = true;
      socket.destroy();
      reject(new Error(`no response within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on("connect", () => write(socket));
    socket.on("data", (chunk) => {
      chunks.push(chunk);
      const parsed = parseResponse(Buffer.concat(chunks));
      if (parsed?.complete) done();
    });
    socket.on("error", () => done());
    socket.on("close", () => done());
  });
}

/** Parses a buffered HTTP/1.1 response (content-length or chunked). */
function parseResponse(
  raw: Buffer,
): { status: number; headers: Record<string, string>; body: Buffer; complete: boolean } | undefined {
  const end = raw.indexOf("\r\n\r\n");
  if (end < 0) return undefined;
  const lines = raw.subarray(0, end).toString("latin1").split("\r\n");
  const status = Number(lines[0]?.split(" ")[1]);
  if (!status) return undefined;
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = headers[name] ? `${headers[name]}${name === "set-cookie" ? "\n" : ", "}${value}` : value;
  }
  let body = raw.subarray(end + 4);
  let complete = false;
  if (headers["transfer-encoding"]?.includes("chunked")) {
    const out: Buffer[] = [];
    let at = 0;
    for (;;) {
      const lineEnd = body.indexOf("\r\n", at);
      if (lineEnd < 0) break;
      const size = Number.parseInt(body.subarray(at, lineEnd).toString(), 16);
      if (Number.isNaN(size)) break;
      if (size === 0) {
        complete = true;
        break;
      }
      if (body.length < lineEnd + 2 + size) break;
      out.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
    body = Buffer.concat(out);
  } else if (headers["content-length"] !== undefined) {
    const length = Number(headers["content-length"]);
    complete = body.length >= length;
    body = body.subarray(0, length);
  }
  return { status, headers, body, complete };
}
