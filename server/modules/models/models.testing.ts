// Test helpers of the model connections: a local OpenAI-wire endpoint (GET /models, streamed chats) and API calls.
import type { MessageReply } from "../../../common/api";
import { call } from "../../testing/api";
import { type CompletionsRequest, startScriptedCompletions } from "../../testing/completions-server";
import type { TestApp } from "../../testing/server";

/** A fake endpoint: what it was asked (each request's Authorization header) and how to stop it. */
export interface FakeEndpoint {
  baseUrl: string;
  /** The Authorization header of every request, in order ("" when none). */
  authorizations: string[];
  /** The chat requests' bodies. */
  chats: CompletionsRequest[];
  close(): Promise<void>;
}

/**
 * Starts the scripted model (server/testing/completions-server.ts) on 127.0.0.1 answering
 * GET /v1/models with `models` and every chat completion with `reply` (streamed word by word when
 * asked, whole otherwise). For tests only.
 */
export async function startFakeEndpoint(reply: string, models: string[] = []): Promise<FakeEndpoint> {
  const endpoint = await startScriptedCompletions(() => reply, { models });
  return { ...endpoint, chats: endpoint.requests };
}

/** Calls a models route with a JSON body. */
export async function api(
  t: { app: TestApp["app"] },
  token: string | undefined,
  url: string,
  body?: unknown,
) {
  const response = await t.app.inject({
    method: body === undefined ? "GET" : "POST",
    url: `/api/admin/models${url}`,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    payload: body === undefined ? undefined : JSON.stringify(body),
  });
  return {
    status: response.statusCode,
    raw: response.body,
    body: response.json() as { success: number; message: string; data: unknown },
  };
}

/** Sends one chat message as the SPA does (multipart). @returns the reply's text. */
export async function chat(t: { app: TestApp["app"] }, token: string, characterId: string, message: string) {
  const form = new FormData();
  form.append("message", message);
  form.append("id", characterId);
  const request = new Request("http://x/", { method: "POST", body: form });
  const response = await t.app.inject({
    method: "POST",
    url: "/api/chat/message",
    headers: { authorization: `Bearer ${token}`, "content-type": request.headers.get("content-type") ?? "" },
    payload: Buffer.from(await request.arrayBuffer()),
  });
  const body = response.json() as MessageReply;
  return { body, text: body.text ?? body.message };
}

/** Signs up `email` and makes it an admin. @returns its token. */
export async function adminToken(t: TestApp, email: string): Promise<string> {
  const user = await t.auth.createAccount({
    email,
    password: "secret-pass-1",
    fullName: email,
    planName: "Free",
  });
  await t.db.db.updateTable("users").set({ role: "admin" }).where("id", "=", user.id).execute();
  const login = await call(t.app, "POST", "/api/auth/login", { form: { email, password: "secret-pass-1" } });
  return (login.body.data as { token: string }).token;
}
