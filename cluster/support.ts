import { randomUUID } from "node:crypto";
import type { Cluster } from "../server/testing/cluster";

/** Calls and stream readers of the cluster test, all through nginx. */

/** One server-sent event: its name, its `id:` (undefined when it had none) and its JSON data. */
export interface SseEvent {
  event: string;
  id: string | undefined;
  data: Record<string, unknown>;
}

/** An API answer through the proxy: status, JSON body and the instance that served it. */
export interface Answer {
  status: number;
  body: Record<string, unknown> & { success?: number; message?: string; data?: unknown };
  servedBy: string | undefined;
  headers: Headers;
}

/**
 * Calls the API through nginx, routed to `via` ("a", "b" or "both"), with a form-encoded body
 * (product.md §7) or a prepared FormData. @returns the parsed answer.
 */
export async function api(
  cluster: Cluster,
  via: string,
  method: "GET" | "POST",
  pathAndQuery: string,
  options: {
    token?: string;
    form?: Record<string, string> | FormData;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const body =
    options.form instanceof FormData
      ? options.form
      : options.form
        ? new URLSearchParams(options.form)
        : undefined;
  const response = await cluster.fetch(via, pathAndQuery, { method, headers, body });
  const text = await response.text();
  let parsed: Answer["body"];
  try {
    parsed = JSON.parse(text) as Answer["body"];
  } catch {
    parsed = { raw: text };
  }
  return {
    status: response.status,
    body: parsed,
    servedBy: cluster.servedBy(response),
    headers: response.headers,
  };
}

/**
 * A demo user ready to chat, made through `via`: demo sign-in, the 18+ confirmation, the first
 * preset as a character. @throws Error when a step is refused.
 */
export async function demoUser(
  cluster: Cluster,
  via: string,
): Promise<{ token: string; userId: string; characterId: string }> {
  const login = await api(cluster, via, "POST", "/api/auth/demo-login", { form: { id: "demo" } });
  const data = login.body.data as { token: string; user: { id: string } } | undefined;
  if (login.body.success !== 1 || !data) throw new Error(`demo login failed: ${JSON.stringify(login.body)}`);
  const token = data.token;
  const adult = await api(cluster, via, "POST", "/api/users/confirm-age", { token, form: { confirm: "1" } });
  if (adult.body.success !== 1) throw new Error(`confirm-age failed: ${JSON.stringify(adult.body)}`);
  const presets = await api(cluster, via, "GET", "/api/characters/selection", { token });
  const preset = (presets.body.data as Array<{ characterPreDefinedUUID: string }>)[0]!;
  const created = await api(cluster, via, "POST", "/api/characters/create-preselect", {
    token,
    form: { id: preset.characterPreDefinedUUID },
  });
  const characterId = (created.body.data as { characterUUID: string } | undefined)?.characterUUID;
  if (!characterId) throw new Error(`create-preselect failed: ${JSON.stringify(created.body)}`);
  return { token, userId: data.user.id, characterId };
}

/**
 * Reads server-sent events to the end of the stream (or until `onEvent` returns "stop", which
 * cancels the reading: a closed tab). A connection cut mid-stream ends the reading without
 * throwing; `cut` says so.
 */
export async function readEvents(
  response: Response,
  onEvent?: (event: SseEvent) => "stop" | undefined | Promise<"stop" | undefined>,
): Promise<{ events: SseEvent[]; cut: boolean }> {
  const events: SseEvent[] = [];
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch {
      return { events, cut: true };
    }
    if (chunk.done) return { events, cut: false };
    buffer += decoder.decode(chunk.value, { stream: true });
    for (let cut = buffer.indexOf("\n\n"); cut >= 0; cut = buffer.indexOf("\n\n")) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (data === undefined) continue; // a keep-alive comment
      const event: SseEvent = {
        event: /^event: (.*)$/m.exec(block)?.[1] ?? "message",
        id: /^id: ?(.*)$/m.exec(block)?.[1],
        data: JSON.parse(data) as Record<string, unknown>,
      };
      events.push(event);
      if ((await onEvent?.(event)) === "stop") {
        await reader.cancel().catch(() => {});
        return { events, cut: false };
      }
    }
  }
}

/**
 * Posts a chat message as the SPA does (multipart, stream=1) through `via`.
 * @returns the open event-stream answer (read it with readEvents).
 */
export function sendStreamed(
  cluster: Cluster,
  via: string,
  user: { token: string; characterId: string },
  message: string,
  signal?: AbortSignal,
): Promise<Response> {
  const form = new FormData();
  form.set("message", message);
  form.set("id", user.characterId);
  form.set("cId", user.characterId);
  form.set("mute", "1");
  form.set("clientMessageId", randomUUID());
  form.set("stream", "1");
  return cluster.fetch(via, "/api/chat/message", {
    method: "POST",
    headers: { authorization: `Bearer ${user.token}`, accept: "text/event-stream" },
    body: form,
    signal,
  });
}

/** The text of the `token` events, in order. */
export const tokenText = (events: SseEvent[]) =>
  events
    .filter((e) => e.event === "token")
    .map((e) => String(e.data.text ?? ""))
    .join("");

/** A chat_history row as the cluster's database has it. */
export async function entryRow(
  cluster: Cluster,
  id: string,
): Promise<{ status: string; message: string; reply_message: string } | undefined> {
  const rows = await cluster.query<{ status: string; message: string; reply_message: string }>(
    "select status, message, reply_message from chat_history where id = $1",
    [id],
  );
  return rows[0];
}

/**
 * For `afterEach`: prints the end of every instance's output when the test just run failed (what
 * the servers said is the first thing to read).
 */
export function printOutputOnFailure(
  context: { task: { result?: { state?: string } } },
  cluster: Cluster | undefined,
): void {
  if (context.task.result?.state !== "fail" || !cluster) return;
  for (const instance of cluster.instances)
    console.log(`--- output of instance ${instance.name} (end)\n${instance.output().slice(-3000)}`);
}
