/**
 * The platform's floor for `bench/chat-load.bench.ts`: the least a Node.js server can
 * do for a streamed chat message, with nothing of the product. It reads the posted form whole
 * (no multipart parser: the message field is found with a regular expression), answers
 * `event: entry` at once, sends the message to the model on a kept-alive `node:http` connection,
 * passes each network read's tokens on as one `event: token`, and ends with `event: done`.
 * No sign-in, database, quota, prompt, memory, log or validation. Environment: LLM_BASE_URL (the
 * model double's `/v1`), PORT (0: any), HOST. Prints "running at <url>" like the real server.
 *
 * With BARE_STORE_FILE (an SQLite file) it also makes the writes the server keeps, with the server's
 * pragmas (WAL, synchronous NORMAL) and nothing else: before `entry`, one transaction inserts the
 * message's row (indexed like chat_history) and takes one message of a user's quota (conditional
 * update); after the model's answer, the reply is written to the row, then `done`. This is the
 * floor of a server that keeps those behaviours on SQLite.
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import SQLite from "better-sqlite3";

const model = new URL(`${process.env.LLM_BASE_URL}/chat/completions`);
const agent = new http.Agent({ keepAlive: true, maxSockets: 4096 });
let entries = 0;

/** The kept writes (BARE_STORE_FILE), or undefined. */
const store = process.env.BARE_STORE_FILE ? openStore(process.env.BARE_STORE_FILE) : undefined;

/** @returns `stored(message)`: the row's id, written with the quota; `replied(id, text)`. */
function openStore(file) {
  const db = new SQLite(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.exec(`
    create table if not exists users (id text primary key, chat_count integer not null);
    create table if not exists chat_history (
      id text primary key, session_id text not null, seq integer not null, message text not null,
      reply_message text not null, status text not null, send_time integer not null,
      reply_time integer, client_message_id text);
    create index if not exists chat_history_session_seq on chat_history (session_id, seq);
    create unique index if not exists chat_history_client_message
      on chat_history (session_id, client_message_id) where client_message_id is not null;
    create index if not exists chat_history_pending on chat_history (status) where status = 'pending';
    insert or ignore into users values ('u', 0);`);
  const insert = db.prepare(
    "insert into chat_history (id, session_id, seq, message, reply_message, status, send_time, client_message_id) values (?, 's', ?, ?, '', 'pending', ?, ?)",
  );
  const charge = db.prepare(
    "update users set chat_count = chat_count + 1 where id = 'u' and chat_count < 1000000000",
  );
  const reply = db.prepare(
    "update chat_history set reply_message = ?, reply_time = ?, status = 'replied' where id = ?",
  );
  const stored = db.transaction((message) => {
    const id = randomUUID();
    insert.run(id, entries, message, Date.now(), randomUUID());
    charge.run();
    return id;
  });
  return { stored, replied: (id, text) => reply.run(text, Date.now(), id) };
}

const server = http.createServer((request, response) => {
  const parts = [];
  request.on("data", (part) => parts.push(part));
  request.on("end", () => {
    const form = Buffer.concat(parts).toString("utf8");
    const message = /name="message"\r\n\r\n([^\r]*)/.exec(form)?.[1] ?? "";
    entries += 1;
    const stored = store?.stored(message);
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
        answer.on("end", () => {
          if (stored) store.replied(stored, reply);
          response.end(`event: done\ndata: ${JSON.stringify({ success: 1, text: reply })}\n\n`);
        });
      },
    );
    call.on("error", () => response.end(`event: error\ndata: {"success":0}\n\n`));
    call.end(body);
  });
});

server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? "127.0.0.1", () => {
  console.log(`running at http://127.0.0.1:${server.address().port}`);
});
