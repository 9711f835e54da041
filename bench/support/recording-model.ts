// An OpenAI-wire Chat Completions double that records each chat reply's prompt and answers memory jobs with empty results.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { completionsWire } from "./completions-wire.mjs";

/** One message of a Chat Completions request. */
export interface WireMessage {
  role: string;
  content: string;
}

/** The double started by {@link startRecordingModel}. */
export interface RecordingModel {
  /** Its base URL (`…/v1`), for LLM_BASE_URL. */
  url: string;
  /** The `messages` of each chat reply request (not a memory job), in arrival order. */
  chats: WireMessage[][];
  /** Memory jobs answered: fact extractions ("[]"), summaries, anything else ("[]"). */
  counts: { facts: number; summaries: number; other: number };
  /** Requests being answered now. */
  inFlight(): number;
  close(): void;
}

/** The reply to every chat request: short, in character, quoting nothing of the chat. */
const REPLY = ["*smiles*", " Let", " me", " think", " about", " that", " for", " a", " moment."];

/** A fixed summary: memory keeps working, and nothing of the chat's text reaches the prompt through it. */
const SUMMARY =
  "They talked over many months about their families, work, hobbies and plans, and kept each other company.";

/** Whether a request is a memory job (facts or summary) rather than a chat reply, by its system prompt. */
function memoryJob(messages: WireMessage[]): "facts" | "summary" | undefined {
  const system = messages.find((m) => m.role === "system")?.content ?? "";
  if (system.startsWith("Extract lasting facts")) return "facts";
  if (system.startsWith("You keep the memory of a long chat")) return "summary";
  return undefined;
}

/**
 * Starts the double on 127.0.0.1 (any free port). A chat request (streamed or not) is recorded
 * and answered at once with {@link REPLY}; a fact extraction gets "[]" (no facts: what reaches
 * the prompt is the chat's own messages only), a summary {@link SUMMARY}, anything else "[]".
 */
export function startRecordingModel(): Promise<RecordingModel> {
  const chats: WireMessage[][] = [];
  const counts = { facts: 0, summaries: 0, other: 0 };
  let inFlight = 0;
  const { stream, whole } = completionsWire();
  const answer = (body: { stream?: boolean; messages?: WireMessage[] }): { sse: boolean; text: string } => {
    const messages = body.messages ?? [];
    const job = memoryJob(messages);
    const chat = !job && messages.some((m) => m.role === "user");
    if (job === "facts") counts.facts += 1;
    else if (job === "summary") counts.summaries += 1;
    else if (chat) chats.push(messages);
    else counts.other += 1;
    const pieces = chat ? REPLY : [job === "summary" ? SUMMARY : "[]"];
    return body.stream ? { sse: true, text: stream(pieces) } : { sse: false, text: whole(pieces.join("")) };
  };
  const server = http.createServer((req, res) => {
    inFlight += 1;
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (part: string) => {
      body += part;
    });
    req.on("end", () => {
      let reply: { sse: boolean; text: string };
      try {
        reply = answer(JSON.parse(body) as { stream?: boolean; messages?: WireMessage[] });
      } catch {
        reply = { sse: false, text: whole("[]") };
      }
      res.writeHead(200, { "content-type": reply.sse ? "text/event-stream" : "application/json" });
      res.end(reply.text, () => {
        inFlight -= 1;
      });
    });
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
        chats,
        counts,
        inFlight: () => inFlight,
        close: () => {
          server.closeAllConnections();
          server.close();
        },
      }),
    ),
  );
}
