import { spawn } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";
import { demoChatUser } from "../e2e/support/demo";

/**
 * `npm run bench`: the server's own time per chat message (POST /api/chat/message), i.e. the
 * server's total minus the model's time, read from the Server-Timing header, at 1, 10 and 50
 * concurrent users. Each user signs in (demo), picks a preset and chats. The server runs in its
 * own process (bench/bench-server.ts) with an instant test model; the load comes from this one.
 * Two loads are printed:
 * - users: each user sends a message, reads the reply, thinks 0.5 to 1.5 s, sends again (a very
 *   chatty user: real ones take several seconds); the target applies here:
 *   p50 < 5 ms and p99 < 25 ms at 50 concurrent users on a 2-core machine;
 * - saturated: the same users send back to back with no pause, so requests queue inside the
 *   server: a stress figure, not a user experience.
 */
const LEVELS = [1, 10, 50];
const MESSAGES_PER_LEVEL = 1000;
const USER_LOAD_SECONDS = 15;
const WARMUP = 100;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function startServer(): Promise<{ base: string; stop(): void }> {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(import.meta.dirname, "bench-server.ts")],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const lines = createInterface({ input: child.stdout });
  for await (const line of lines) {
    const match = /^PORT (\d+)/.exec(line);
    if (match) return { base: `http://127.0.0.1:${match[1]}`, stop: () => child.kill("SIGTERM") };
  }
  throw new Error("bench server did not start");
}

/** Sends one message; @returns [server's own ms, client round trip ms]. */
async function sendMessage(base: string, user: { token: string; characterId: string }, i: number) {
  const form = new FormData();
  form.append("message", `Message number ${i}, how are you?`);
  form.append("id", user.characterId);
  form.append("cId", user.characterId);
  form.append("mute", "1");
  const started = performance.now();
  const res = await fetch(`${base}/api/chat/message`, {
    method: "POST",
    headers: { authorization: `Bearer ${user.token}` },
    body: form,
  });
  const body = (await res.json()) as { success: number; message: string };
  const roundTrip = performance.now() - started;
  if (body.success !== 1) throw new Error(`chat/message failed: ${body.message}`);
  const timing = res.headers.get("server-timing") ?? "";
  const app = Number(/app;dur=([\d.]+)/.exec(timing)?.[1]);
  return [app, roundTrip] as const;
}

async function runLevel(
  base: string,
  users: Array<{ token: string; characterId: string }>,
  load: { total: number } | { seconds: number },
) {
  const own: number[] = [];
  const trips: number[] = [];
  let next = 0;
  const deadline = "seconds" in load ? performance.now() + load.seconds * 1000 : Number.POSITIVE_INFINITY;
  const more = () => ("total" in load ? next < load.total : performance.now() < deadline);
  await Promise.all(
    users.map(async (user, u) => {
      // Users arrive spread over the first second, as they would.
      if ("seconds" in load) await new Promise((r) => setTimeout(r, (u / users.length) * 1000));
      while (more()) {
        const i = next++;
        const [app, trip] = await sendMessage(base, user, i);
        own.push(app);
        trips.push(trip);
        if ("seconds" in load) await new Promise((r) => setTimeout(r, 500 + Math.random() * 1000));
      }
    }),
  );
  own.sort((a, b) => a - b);
  trips.sort((a, b) => a - b);
  return { own, trips };
}

const server = await startServer();
try {
  const users = [];
  for (let i = 0; i < Math.max(...LEVELS); i++) users.push(await demoChatUser(server.base));
  console.log("chat/message, server's own time (total minus model), instant test model, SQLite");
  console.log(
    "load        users  messages   own p50 ms   own p99 ms   round trip p50 ms   round trip p99 ms",
  );
  const row = (label: string, level: number, own: number[], trips: number[]) =>
    console.log(
      `${label.padEnd(10)}  ${String(level).padStart(5)}  ${String(own.length).padStart(8)}   ${percentile(own, 50).toFixed(2).padStart(10)}   ${percentile(own, 99).toFixed(2).padStart(10)}   ${percentile(trips, 50).toFixed(2).padStart(17)}   ${percentile(trips, 99).toFixed(2).padStart(17)}`,
    );
  await runLevel(server.base, users, { total: WARMUP });
  for (const level of LEVELS) {
    const { own, trips } = await runLevel(server.base, users.slice(0, level), { seconds: USER_LOAD_SECONDS });
    row("users", level, own, trips);
  }
  for (const level of LEVELS) {
    const { own, trips } = await runLevel(server.base, users.slice(0, level), { total: MESSAGES_PER_LEVEL });
    row("saturated", level, own, trips);
  }
} finally {
  server.stop();
}
