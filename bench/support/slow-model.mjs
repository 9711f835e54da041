import http from "node:http";
import { completionsWire } from "./completions-wire.mjs";

/**
 * A model double that streams as a real model does, in a process of its own (run by
 * open-loop.bench.ts): an OpenAI-wire Chat Completions endpoint whose streamed answer sends its
 * first token MODEL_FIRST_MS (250) after the request and then the rest, MODEL_TOKENS (64) in all,
 * MODEL_GAP_MS (30) apart, each in a chunk of its own as llama.cpp and hosted APIs send them.
 * A request without `"stream":true` (the server's memory jobs) gets an empty JSON list at once.
 * Prints `PORT <n>` when listening.
 */

const FIRST_MS = Number(process.env.MODEL_FIRST_MS ?? 250);
const TOKENS = Number(process.env.MODEL_TOKENS ?? 64);
const GAP_MS = Number(process.env.MODEL_GAP_MS ?? 30);

const wire = completionsWire({ id: "chatcmpl-bench", created: 1764200000, fingerprint: "fp_bench" });
const pieces = Array.from({ length: TOKENS }, (_unused, i) => wire.chunk(i === 0 ? "Hello" : ` word${i}`));
const last = wire.stop();
const whole = wire.whole("[]");

const server = http.createServer((req, res) => {
  let body = "";
  req.setEncoding("utf8");
  req.on("data", (part) => {
    body += part;
  });
  req.on("end", () => {
    if (!body.includes('"stream":true')) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(whole);
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
    let sent = 0;
    let timer;
    const next = () => {
      if (res.destroyed) return;
      res.write(pieces[sent]);
      sent += 1;
      if (sent < TOKENS) timer = setTimeout(next, GAP_MS);
      else res.end(last);
    };
    timer = setTimeout(next, FIRST_MS);
    res.on("close", () => clearTimeout(timer));
  });
});
server.keepAliveTimeout = 60_000;
server.maxRequestsPerSocket = 0;
server.listen(0, "127.0.0.1", () => console.log(`PORT ${server.address().port}`));
process.on("SIGTERM", () => process.exit(0));
