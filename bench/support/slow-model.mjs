import http from "node:http";

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

const chunk = (content) =>
  `data: ${JSON.stringify({
    id: "chatcmpl-bench",
    object: "chat.completion.chunk",
    created: 1764200000,
    model: "bench",
    system_fingerprint: "fp_bench",
    choices: [{ index: 0, delta: { content }, logprobs: null, finish_reason: null }],
  })}\n\n`;
const pieces = Array.from({ length: TOKENS }, (_unused, i) => chunk(i === 0 ? "Hello" : ` word${i}`));
const last = `data: ${JSON.stringify({
  id: "chatcmpl-bench",
  object: "chat.completion.chunk",
  created: 1764200000,
  model: "bench",
  choices: [{ index: 0, delta: {}, finish_reason: "stop" }],
})}\n\ndata: [DONE]\n\n`;
const whole = JSON.stringify({
  id: "chatcmpl-bench",
  object: "chat.completion",
  created: 1764200000,
  model: "bench",
  choices: [{ index: 0, message: { role: "assistant", content: "[]" }, finish_reason: "stop" }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
});

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
