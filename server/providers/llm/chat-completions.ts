// A lean client of the OpenAI Chat Completions wire format for the chat's hot path: kept-alive connections and streamed tokens.
import http from "node:http";
import https from "node:https";
import { createParser } from "eventsource-parser";
import { ProviderHttpError } from "../http";
import type { ChatMessage } from "./llm";

/** Where an OpenAI-compatible Chat Completions endpoint answers. */
export interface ChatCompletionsEndpoint {
  /** e.g. `http://localhost:11434/v1`; `/chat/completions` is appended (a trailing slash is ignored). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <key>`; none when empty (local servers need none). */
  apiKey: string;
  /** Milliseconds from sending the request to the answer's headers before it is given up. */
  timeoutMs: number;
}

/** The request body's fields (the OpenAI wire format). */
export interface ChatCompletionsBody {
  model: string;
  messages: ChatMessage[];
  max_tokens: number;
  temperature?: number;
  /** At most 4 (the OpenAI limit). */
  stop?: string[];
  /** OpenAI: requests with one key share a prompt cache. */
  prompt_cache_key?: string;
  /** llama.cpp server: reuse the evaluated prefix of the slot's last prompt. */
  cache_prompt?: boolean;
}

/** Longest error answer kept for the log, characters. */
const ERROR_BODY_CHARS = 300;
/** Longest non-streamed answer read, bytes (a reply is a few kB). */
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/**
 * Most connections open to the model endpoint at once: every open reply holds one for seconds
 * (a few hundred per instance at peak); past this, requests wait for a free connection.
 */
export const MAX_MODEL_CONNECTIONS = 2048;

const agents = {
  "http:": new http.Agent({ keepAlive: true, maxSockets: MAX_MODEL_CONNECTIONS }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: MAX_MODEL_CONNECTIONS }),
};

/**
 * A lean client for the Chat Completions wire format (the official SDK cost about 3 ms
 * of CPU per streamed message, a third of a whole chat turn; this is the part of it a chat turn
 * uses): one POST on a kept-alive connection, the server-sent events read with
 * `eventsource-parser`. A request that fails before any answer (a kept-alive connection the
 * server had closed, a refused connection) is sent once more, as the SDK did.
 */
export class ChatCompletionsClient {
  private readonly url: URL;

  constructor(private readonly endpoint: ChatCompletionsEndpoint) {
    this.url = new URL(`${endpoint.baseUrl.replace(/\/+$/, "")}/chat/completions`);
  }

  /**
   * A whole completion. @returns the first choice's text ("" when it has none).
   * @throws ProviderHttpError for a network failure, a timeout or a non-2xx answer; the signal's
   *   reason when aborted.
   */
  async complete(body: ChatCompletionsBody, signal?: AbortSignal): Promise<string> {
    const response = await this.post({ ...body, stream: false }, signal);
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES) {
        response.destroy();
        throw new ProviderHttpError(this.url.href, response.statusCode, "answer too large");
      }
      chunks.push(chunk);
    }
    const parsed = parseJson(Buffer.concat(chunks).toString("utf8")) as {
      choices?: Array<{ message?: { content?: string | null } }>;
    };
    return parsed?.choices?.[0]?.message?.content ?? "";
  }

  /**
   * A streamed completion: `onText` gets the first choice's text as it arrives, the pieces of
   * one network read joined into one call. @returns the whole text, as soon as `data: [DONE]`
   * is read (or the answer ends without it); the rest of the answer is drained in the background
   * so the kept-alive connection is reused (the reply is stored and its `done` event
   * leaves in the same tick as the last tokens, one socket write instead of two).
   * @throws ProviderHttpError as `complete`, or when the stream reports an error; the signal's
   *   reason when aborted (the text so far has been passed to `onText`).
   */
  async stream(
    body: ChatCompletionsBody,
    onText: (text: string) => void,
    signal?: AbortSignal,
  ): Promise<string> {
    const response = await this.post({ ...body, stream: true }, signal);
    let text = "";
    let failure: Error | undefined;
    let finished = false;
    // The pieces of one network read are passed on as one (a burst of tokens is one
    // event down the line, not one per token).
    let read = "";
    const parser = createParser({
      onEvent: (event) => {
        if (failure || finished) return;
        if (event.data === "[DONE]") {
          finished = true;
          return;
        }
        const chunk = parseJson(event.data) as {
          choices?: Array<{ delta?: { content?: string | null } }>;
          error?: { message?: string } | string;
        };
        if (chunk?.error) {
          const reason = typeof chunk.error === "string" ? chunk.error : (chunk.error.message ?? "error");
          failure = new ProviderHttpError(
            this.url.href,
            response.statusCode,
            reason.slice(0, ERROR_BODY_CHARS),
          );
          return;
        }
        const piece = chunk?.choices?.[0]?.delta?.content;
        if (piece) read += piece;
      },
    });
    response.setEncoding("utf8");
    return new Promise((resolve, reject) => {
      let settled = false;
      const settle = (error?: unknown) => {
        if (settled) return;
        settled = true;
        if (error === undefined) resolve(text);
        else reject(error);
      };
      response.on("data", (chunk: string) => {
        if (settled) return;
        parser.feed(chunk);
        if (read) {
          const piece = read;
          read = "";
          text += piece;
          onText(piece);
        }
        if (failure) {
          response.destroy();
          settle(failure);
        } else if (finished) settle();
      });
      response.once("end", () => settle());
      // An abort (Stop, the run's timeout) destroys the request and with it this answer.
      response.on("error", (error) => settle(signal?.aborted ? signal.reason : error));
      response.once("close", () => {
        if (signal?.aborted) settle(signal.reason);
        else if (!response.complete)
          settle(new ProviderHttpError(this.url.href, response.statusCode, "answer cut short"));
      });
    });
  }

  /** Sends the request (once more when it failed before any answer); resolves on a 2xx answer. */
  private async post(body: object, signal?: AbortSignal): Promise<http.IncomingMessage> {
    const payload = JSON.stringify(body);
    try {
      return await this.send(payload, signal);
    } catch (error) {
      if (signal?.aborted || !(error instanceof ProviderHttpError) || error.status !== undefined) throw error;
      return this.send(payload, signal);
    }
  }

  private send(payload: string, signal?: AbortSignal): Promise<http.IncomingMessage> {
    const url = this.url;
    const headers: http.OutgoingHttpHeaders = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "content-length": Buffer.byteLength(payload),
    };
    if (this.endpoint.apiKey) headers.authorization = `Bearer ${this.endpoint.apiKey}`;
    const client = url.protocol === "https:" ? https : http;
    return new Promise((resolve, reject) => {
      signal?.throwIfAborted();
      const request = client.request(url, {
        method: "POST",
        headers,
        agent: agents[url.protocol as "http:" | "https:"],
        signal,
      });
      const timer = setTimeout(() => {
        request.destroy(new Error(`no answer within ${this.endpoint.timeoutMs} ms`));
      }, this.endpoint.timeoutMs);
      request.once("response", (response) => {
        clearTimeout(timer);
        const status = response.statusCode ?? 0;
        if (status >= 200 && status < 300) {
          resolve(response);
          return;
        }
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (part: string) => {
          if (text.length < ERROR_BODY_CHARS) text += part;
        });
        response.once("end", () =>
          reject(new ProviderHttpError(url.href, status, text.slice(0, ERROR_BODY_CHARS))),
        );
        response.once("error", (error) => reject(new ProviderHttpError(url.href, status, "", error)));
      });
      request.once("error", (error) => {
        clearTimeout(timer);
        reject(signal?.aborted ? signal.reason : new ProviderHttpError(url.href, undefined, "", error));
      });
      request.end(payload);
    });
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
