import type { ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startScriptedCompletions } from "./testing/completions-server";
import { acceptsConnections, killAll, type RunningProcess, startEntry, waitFor } from "./testing/processes";

/**
 * Graceful shutdown of `npm start`'s entry point: the real server process (server/main.ts
 * through tsx) with an OpenAI-compatible model double that answers slowly.
 */

/** How long the model double takes to answer a chat message, milliseconds. */
const SLOW_REPLY_MS = 1500;

interface Running extends RunningProcess {
  base: string;
  port: number;
}

let model: Awaited<ReturnType<typeof startScriptedCompletions>>;
let dataDir: string;
let replyDelayMs = SLOW_REPLY_MS;
const children: ChildProcess[] = [];

beforeAll(async () => {
  model = await startScriptedCompletions(async () => {
    await new Promise((resolve) => setTimeout(resolve, replyDelayMs));
    return "Hello there, it is good to see you again.";
  });
});
afterEach(() => {
  killAll(children);
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});
afterAll(async () => {
  await model?.close();
});

/** Starts server/main.ts in its own process on a free port (`env` added). @returns once it listens. */
async function startServer(env: Record<string, string> = {}): Promise<Running> {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "companion-main-"));
  const running = startEntry("server/main.ts", {
    DATA_DIR: dataDir,
    DATABASE_URL: "",
    PORT: "0",
    HOST: "127.0.0.1",
    LOG_LEVEL: "silent",
    LLM_PROVIDER: "openai",
    LLM_BASE_URL: model.baseUrl,
    LLM_MODEL: "scripted",
    TTS_PROVIDER: "none",
    RATE_LIMIT_ENABLED: "0",
    WEB_DIST_DIR: path.join(dataDir, "no-web"),
    DEMO_LOGIN: "1",
    ...env,
  });
  children.push(running.child);
  const base = await waitFor(
    () => /Companion is running at (http:\/\/\S+)/.exec(running.output())?.[1],
    60_000,
    running.output,
  );
  return { ...running, base, port: Number(new URL(base).port) };
}

/** POSTs a form and returns the envelope's data. */
async function post(base: string, url: string, form: Record<string, string>, token?: string) {
  const response = await fetch(`${base}${url}`, {
    method: "POST",
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: new URLSearchParams(form),
  });
  return ((await response.json()) as { data: unknown }).data;
}

/** A signed-in adult demo user with the first preset character. */
async function demoWithCharacter(base: string): Promise<{ token: string; characterId: string }> {
  const { token } = (await post(base, "/api/auth/demo-login", { id: "demo" })) as { token: string };
  await post(base, "/api/users/confirm-age", { confirm: "1" }, token);
  const presets = await fetch(`${base}/api/characters/selection`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const preset = ((await presets.json()) as { data: Array<{ characterPreDefinedUUID: string }> }).data[0]!;
  const created = (await post(
    base,
    "/api/characters/create-preselect",
    { id: preset.characterPreDefinedUUID },
    token,
  )) as {
    characterUUID: string;
  };
  return { token, characterId: created.characterUUID };
}

/** Sends a chat message as a stream; `events` grows as they arrive, `ended` resolves at the end. */
function streamMessage(base: string, token: string, characterId: string) {
  const events: string[] = [];
  const ended = (async () => {
    const response = await fetch(`${base}/api/chat/message`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, accept: "text/event-stream" },
      body: new URLSearchParams({ message: "Are you there?", id: characterId }),
    });
    let body = "";
    const decoder = new TextDecoder();
    const reader = response.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      body += decoder.decode(read.value, { stream: true });
      // Each event block: an optional `id:` line (resumable streams), then `event:`.
      const blocks = body.split("\n\n").map((block) => block.replace(/^id: [^\n]*\n/, ""));
      events.splice(0, events.length, ...blocks.filter((block) => block.startsWith("event: ")));
    }
    return body;
  })();
  return { events, ended };
}

/**
 * Starts the server, opens a streaming reply that the model double answers after `delayMs`, and
 * sends SIGTERM once the reply has begun. @returns when the server says it has stopped listening.
 */
async function terminateDuringReply(delayMs: number) {
  replyDelayMs = delayMs;
  const server = await startServer();
  const { token, characterId } = await demoWithCharacter(server.base);
  const reply = streamMessage(server.base, token, characterId);
  reply.ended.catch(() => {});
  const began = () => (reply.events.some((e) => e.startsWith("event: entry")) ? true : undefined);
  await waitFor(began, 10_000, server.output);
  server.child.kill("SIGTERM");
  const draining = () => (server.output().includes("No new connections") ? true : undefined);
  await waitFor(draining, 5000, server.output);
  return { server, reply };
}

describe("graceful shutdown of the server process", () => {
  it("on SIGTERM refuses new connections, lets a streaming reply finish, then exits 0", async () => {
    const { server, reply } = await terminateDuringReply(SLOW_REPLY_MS);
    expect(await acceptsConnections(server.port)).toBe(false);

    const body = await reply.ended;
    const done = /event: done\ndata: (.*)/.exec(body)?.[1];
    expect(done, body).toBeDefined();
    expect(JSON.parse(done!)).toMatchObject({
      success: 1,
      text: "Hello there, it is good to see you again.",
    });
    expect(await server.exited).toBe(0);
    const lines = server.output();
    expect(lines).toContain("SIGTERM: shutting down; /api/ready answers 503.");
    expect(lines).toContain("Running requests finished.");
    expect(lines).toContain("Stopped: jobs, workers and database closed.");
  }, 90_000);

  it("exits at once on a second signal", async () => {
    const { server } = await terminateDuringReply(30_000);
    const started = Date.now();
    server.child.kill("SIGINT");
    expect(await server.exited).toBe(1);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(server.output()).toContain("SIGINT again: exiting now.");
  }, 90_000);
});

describe("the request log", () => {
  it("writes request lines in batches within a second, and the last ones when the server stops", async () => {
    const server = await startServer({ LOG_LEVEL: "info" });
    await fetch(`${server.base}/api/health?first=1`);
    const logged = (url: string) => () => (server.output().includes(`"url":"${url}"`) ? true : undefined);
    await waitFor(logged("/api/health?first=1"), 3000, server.output);
    // Stopped at once after a request: its line, still in the batch, is written before the exit.
    await fetch(`${server.base}/api/health?last=1`);
    server.child.kill("SIGTERM");
    expect(await server.exited).toBe(0);
    expect(server.output()).toContain('"url":"/api/health?last=1"');
  }, 90_000);
});

describe("the start-up lines", () => {
  /** The lines of `server`'s output once the guest demo's line (the last start-up line) is there. */
  const startupOutput = (server: Running) =>
    waitFor(
      () =>
        /^(Demo: open|Guest demo: off)/m.test(server.output()) ? server.output().split("\n") : undefined,
      10_000,
      server.output,
    );

  it("listening on every address, give the set-up link once per address (localhost and each LAN one), each working; no demo link while it is off", async () => {
    const server = await startServer({ HOST: "0.0.0.0", DEMO_LOGIN: "0" });
    const lines = await startupOutput(server);
    const links = lines.filter((l) => l.startsWith("Set up the owner account: ")).map((l) => l.slice(26));
    const lan = Object.values(os.networkInterfaces())
      .flatMap((list) => list ?? [])
      .filter((a) => a.family === "IPv4" && !a.internal)
      .map((a) => `http://${a.address}:${server.port}`);
    const origins = links.map((link) => link.replace(/\/setup\/[\w-]+$/, ""));
    expect(origins).toEqual([`http://localhost:${server.port}`, ...lan]);
    // One token for all of them; each address reaches this server and finds it valid.
    expect(new Set(links.map((link) => link.split("/setup/")[1])).size).toBe(1);
    for (const link of links.filter((l) => !l.startsWith("http://localhost"))) {
      const token = link.split("/setup/")[1]!;
      const answer = await fetch(`${new URL(link).origin}/api/setup/${token}`);
      expect(((await answer.json()) as { data: unknown }).data).toEqual({ valid: true });
    }
    expect(lines.some((l) => l.startsWith("Demo: open"))).toBe(false);
    expect(lines).toContain("Guest demo: off (an admin can turn it on in Admin → Site).");
  }, 90_000);

  it("with PUBLIC_URL, give the set-up link and the open demo's link there alone", async () => {
    const server = await startServer({ PUBLIC_URL: "https://chat.example.org/", DEMO_LOGIN: "1" });
    const lines = await startupOutput(server);
    const links = lines.filter((l) => l.startsWith("Set up the owner account: "));
    expect(links).toHaveLength(1);
    expect(links[0]).toMatch(/^Set up the owner account: https:\/\/chat\.example\.org\/setup\/[\w-]{40,}$/);
    expect(lines).toContain("Demo: open https://chat.example.org/login/demo");
  }, 90_000);
});
