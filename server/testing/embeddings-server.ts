// A scripted embedding model for tests: a local server speaking the OpenAI /v1/embeddings wire format, with answers out of order, failures and a hung mode.
import http from "node:http";
import type { AddressInfo } from "node:net";

/** One request the double received. */
export interface EmbeddingsCall {
  model: string;
  input: string[];
  /** The Authorization header; "" when none. */
  authorization: string;
}

/** How the double answers; change `behaviour` between tests. */
export interface EmbeddingsBehaviour {
  /** Lists the answer's `data` items last text first (each keeps its `index`). */
  reverse?: boolean;
  /** Answers every request with this HTTP status and a short error body. */
  failWith?: number;
  /** Never answers (the connection stays open until the client gives up or the double closes). */
  hang?: boolean;
  /** Answers this body, with status 200, instead of the embeddings. */
  rawBody?: string;
  /** The vector of a text, instead of `scriptedVector` (e.g. one that encodes its meaning). */
  vectorOf?: (text: string) => number[];
}

/** A running double: where it listens, what it was asked, and how it answers next. */
export interface EmbeddingsDouble {
  /** e.g. `http://127.0.0.1:41234/v1`. */
  baseUrl: string;
  calls: EmbeddingsCall[];
  behaviour: EmbeddingsBehaviour;
  close(): Promise<void>;
}

/**
 * The double's vector of a text, deliberately not unit length: 4 numbers made from its length,
 * its character codes and its first character, so different texts get different directions.
 */
export function scriptedVector(text: string): number[] {
  let sum = 0;
  for (const char of text) sum += char.codePointAt(0) ?? 0;
  return [text.length + 1, sum % 97, 3, (text.codePointAt(0) ?? 0) % 13];
}

/**
 * A local server speaking the OpenAI embeddings wire format: `POST /v1/embeddings` with
 * `{ model, input }` (a string or an array of strings) answers
 * `{ object: "list", data: [{ object: "embedding", index, embedding }], model, usage }`, each
 * embedding `scriptedVector(text)`. Other paths answer 404.
 */
export async function startEmbeddingsDouble(behaviour: EmbeddingsBehaviour = {}): Promise<EmbeddingsDouble> {
  const double: EmbeddingsDouble = { baseUrl: "", calls: [], behaviour, close: async () => {} };
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/embeddings") {
        res.writeHead(404).end();
        return;
      }
      const body = JSON.parse(raw) as { model: string; input: string | string[] };
      const input = typeof body.input === "string" ? [body.input] : body.input;
      double.calls.push({ model: body.model, input, authorization: req.headers.authorization ?? "" });
      const now = double.behaviour;
      if (now.hang) return;
      if (now.failWith) {
        res.writeHead(now.failWith, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "the model crashed", type: "server_error" } }));
        return;
      }
      res.writeHead(200, { "content-type": "application/json" });
      if (now.rawBody !== undefined) {
        res.end(now.rawBody);
        return;
      }
      const data = input.map((text, index) => ({
        object: "embedding",
        index,
        embedding: (now.vectorOf ?? scriptedVector)(text),
      }));
      if (now.reverse) data.reverse();
      res.end(
        JSON.stringify({
          object: "list",
          data,
          model: body.model,
          usage: { prompt_tokens: 1, total_tokens: 1 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  double.baseUrl = `http://127.0.0.1:${port}/v1`;
  double.close = () =>
    new Promise<void>((resolve) => {
      // Hung requests must not hold the server open.
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return double;
}
