import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { ChatHistoryEntry } from "../../../common/api";
import { call, demoWithCharacter, describeEachDatabase } from "../../testing/api";
import { createTestApp, type TestApp } from "../../testing/server";

type Mode = "ok" | "500" | "429" | "hang" | "break" | "slow";

/** An OpenAI-compatible Chat Completions server that misbehaves on demand. */
let served = 0;

function startFaultyServer(state: { mode: Mode }) {
  const sockets = new Set<import("node:net").Socket>();
  const server = http.createServer((req, res) => {
    let raw = "";
    req.on("data", (chunk) => {
      raw += chunk;
    });
    req.on("end", () => {
      // Count chat replies (streamed), not the background memory work.
      if (raw.includes('"stream":true')) served += 1;
      if (state.mode === "500" || state.mode === "429") {
        res.writeHead(Number(state.mode), { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: `status ${state.mode}`, type: "server_error" } }));
        return;
      }
      if (state.mode === "hang") return;
      res.writeHead(200, { "content-type": "text/event-stream" });
      const chunk = (content: string) =>
        `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
      res.write(chunk("Once upon"));
      res.write(chunk(" a time,"));
      if (state.mode === "slow") {
        setTimeout(() => {
          res.write(chunk(" the end."));
          res.end("data: [DONE]\n\n");
        }, 400);
        return;
      }
      if (state.mode === "break") {
        setTimeout(() => res.socket?.destroy(), 20);
        return;
      }
      res.write(chunk(" the end."));
      res.end("data: [DONE]\n\n");
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  return {
    server,
    closeAll: () => {
      for (const s of sockets) s.destroy();
    },
  };
}

describeEachDatabase("model faults: the message is kept and nothing stays replying", (dialect) => {
  let t: TestApp;
  const state: { mode: Mode } = { mode: "ok" };
  const faulty = startFaultyServer(state);
  beforeAll(async () => {
    await new Promise<void>((resolve) => faulty.server.listen(0, "127.0.0.1", resolve));
    const { port } = faulty.server.address() as AddressInfo;
    t = await createTestApp({
      dialect,
      env: {
        LLM_PROVIDER: "openai",
        LLM_BASE_URL: `http://127.0.0.1:${port}/v1`,
        LLM_MODEL: "m",
        LLM_TIMEOUT_MS: "800",
      },
    });
  });
  let listening = "";
  const ensureListening = async () => {
    listening ||= await t.app.listen({ port: 0, host: "127.0.0.1" });
    return listening;
  };
  afterAll(async () => {
    await t?.dispose();
    faulty.closeAll();
    faulty.server.close();
  });

  async function sendIn(mode: Mode) {
    state.mode = mode;
    const s = await demoWithCharacter(t.app);
    const res = await call(t.app, "POST", "/api/chat/message", {
      token: s.token,
      form: { message: `mode ${mode}`, id: s.characterId },
    });
    const rows = await t.db.db
      .selectFrom("chat_history")
      .innerJoin("chat_sessions", "chat_sessions.id", "chat_history.session_id")
      .select(["chat_history.status", "chat_history.reply_message", "chat_history.message"])
      .where("chat_sessions.user_id", "=", s.userId)
      .where("chat_history.message", "=", `mode ${mode}`)
      .execute();
    const user = await t.db.db
      .selectFrom("users")
      .select("chat_count")
      .where("id", "=", s.userId)
      .executeTakeFirstOrThrow();
    return { res, rows, chatCount: user.chat_count };
  }

  it("streams a normal reply through the provider", async () => {
    const { res, rows } = await sendIn("ok");
    expect(res.body).toMatchObject({ success: 1, text: "Once upon a time, the end." });
    expect(rows).toEqual([
      { status: "replied", reply_message: "Once upon a time, the end.", message: "mode ok" },
    ]);
  });

  for (const mode of ["500", "429", "hang"] as const) {
    it(`keeps the message, marks it failed and gives the quota back when the model answers ${mode}`, async () => {
      const { res, rows, chatCount } = await sendIn(mode);
      expect(res.body.success).toBe(0);
      expect(res.body.message).toMatch(/could not reply right now/);
      expect(rows).toEqual([{ status: "failed", reply_message: "", message: `mode ${mode}` }]);
      expect(chatCount).toBe(0);
      expect((res.body.history as ChatHistoryEntry[])[0]!.chatHistoryMessage).toBe(`mode ${mode}`);
    });
  }

  it("keeps a reply broken mid-stream, marked partial", async () => {
    const { res, rows } = await sendIn("break");
    expect(res.body).toMatchObject({
      success: 1,
      message: "The reply was cut short.",
      text: "Once upon a time,",
    });
    expect(rows).toEqual([{ status: "partial", reply_message: "Once upon a time,", message: "mode break" }]);
  });

  it("finishes and stores a streamed reply after the browser goes away, running the model once", async () => {
    state.mode = "slow";
    const s = await demoWithCharacter(t.app);
    const base = await ensureListening();
    const controller = new AbortController();
    const before = served;
    const response = await fetch(`${base}/api/chat/message`, {
      method: "POST",
      headers: { authorization: `Bearer ${s.token}`, accept: "text/event-stream" },
      body: new URLSearchParams({ message: "then I reload", id: s.characterId }),
      signal: controller.signal,
    });
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain("event: entry");
    const pending = JSON.parse(/data: (.*)/.exec(first)![1]!) as ChatHistoryEntry;
    expect(pending.chatHistoryStatus).toBe("pending");
    controller.abort();
    // The page reloads and polls the history until the reply is there.
    let newest: ChatHistoryEntry | undefined;
    await expect
      .poll(
        async () => {
          const page = await call(t.app, "GET", `/api/chat/history/paginated?id=${s.characterId}`, {
            token: s.token,
          });
          newest = (page.body.data as ChatHistoryEntry[]).at(-1);
          return newest?.chatHistoryStatus;
        },
        { timeout: 20_000, interval: 100 },
      )
      .toBe("replied");
    expect(newest).toMatchObject({ chatHistoryMessage: "then I reload", chatHistoryStatus: "replied" });
    expect(newest!.chatHistoryReplyMessage).toBe("Once upon a time, the end.");
    expect(served - before).toBe(1);
  });
});
