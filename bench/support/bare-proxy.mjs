/**
 * The platform's floor for `bench/chat-load.bench.ts` (issue 19): the least a Node.js server can
 * do for a streamed chat message, with nothing of the product. It reads the posted form whole
 * (no multipart parser: the message field is found with a regular expression), answers
 * `event: entry` at once, sends the message to the model on a kept-alive `node:http` connection,
 * passes each network read's tokens on as one `event: token`, and ends with `event: done`.
 * No sign-in, database, quota, prompt, memory, log or validation. Environment: LLM_BASE_URL (the
 * model double's `/v1`), PORT (0: any), HOST. Prints "running at <url>" like the real server.
 */
import http from "node:http";

const model = new URL(`${process.env.LLM_BASE_URL}/chat/completions`);
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
let entries = 0;

const server = http.createServer((request, response) => {
  const parts = [];
  request.on("data", (part) => parts.push(part));
  request.on("end", () => {
    const form = Buffer.concat(parts).toString("utf8");
    const message = /name="message"\r\n\r\n([^\r]*)/.exec(form)?.[1] ?? "";
    entries += 1;
    response.writeHead(200, {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache",
    });
    response.write(`event: entry\ndata: ${JSON.stringify({ id: String(entries), message })}\n\n`);
    const body = JSON.stringify({
      model: "bench",
      stream: true,
      messages: [{ role: "user", content: message }],
    });
    const call = http.request(
      model,
      {
        method: "POST",
        agent,
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (answer) => {
        answer.setEncoding("utf8");
        let pending = "";
        let reply = "";
        answer.on("data", (chunk) => {
          pending += chunk;
          let text = "";
          for (let end = pending.indexOf("\n\n"); end >= 0; end = pending.indexOf("\n\n")) {
            const event = pending.slice(0, end);
            pending = pending.slice(end + 2);
            if (!event.startsWith("data: ") || event === "data: [DONE]") continue;
            text += JSON.parse(event.slice(6)).choices?.[0]?.delta?.content ?? "";
          }
          if (text) {
            reply += text;
            response.write(`event: token\ndata: ${JSON.stringify({ text })}\n\n`);
          }
        });
        answer.on("end", () =>
          response.end(`event: done\ndata: ${JSON.stringify({ success: 1, text: reply })}\n\n`),
        );
      },
    );
    call.on("error", () => response.end(`event: error\ndata: {"success":0}\n\n`));
    call.end(body);
  });
});

server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? "127.0.0.1", () => {
  console.log(`running at http://127.0.0.1:${server.address().port}`);
});
