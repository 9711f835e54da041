#!/usr/bin/env node
/**
 * Makes docs/screenshot.png (the README's picture): starts the built server on a free port with a
 * temporary DATA_DIR and the tiny test model, signs in through the demo login in Debian's
 * Chromium (playwright-core), picks the first preset character, sends one message, waits for the
 * reply and saves the chat screen at 1280x800.
 *
 *   node scripts/screenshot.mjs            # needs dist/ (npm run build) and /usr/bin/chromium
 *
 * Settings: LLM_MODEL_PATH (default /work/shared/models/stories260K.gguf, or ../shared/models/
 * beside the project), SCREENSHOT_OUT (default docs/screenshot.png).
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { createFirstPreset, openFirstChat } from "../e2e/support/first-chat.mjs";

const ROOT = path.resolve(import.meta.dirname, "..");
const CHROMIUM = process.env.CHROMIUM_PATH || "/usr/bin/chromium";
const VIEWPORT = { width: 1280, height: 800 };
const OUT = path.resolve(ROOT, process.env.SCREENSHOT_OUT ?? "docs/screenshot.png");
const MESSAGE = "Hi! Tell me a short story about your day.";

/** The tiny model: LLM_MODEL_PATH, else the shared one beside the project. */
function modelPath() {
  if (process.env.LLM_MODEL_PATH) return process.env.LLM_MODEL_PATH;
  const candidates = [
    "/work/shared/models/stories260K.gguf",
    path.resolve(ROOT, "../shared/models/stories260K.gguf"),
  ];
  const found = candidates.find((candidate) => existsSync(candidate));
  if (found === undefined)
    throw new Error(`no model: set LLM_MODEL_PATH (looked in ${candidates.join(", ")})`);
  return found;
}

/** A TCP port nobody listens on right now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Polls GET /api/health until the server answers, or fails after `timeoutMs`. */
async function waitForServer(url, child, timeoutMs = 60_000) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the server did not answer ${url}/api/health within ${timeoutMs} ms`);
}

async function main() {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: apt-get install chromium, or set CHROMIUM_PATH`);
  if (!existsSync(path.join(ROOT, "dist/server/main.js"))) {
    console.log("dist/ is missing: npm run build");
    const built = spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
    if (built.status !== 0) throw new Error("npm run build failed");
  }

  const dataDir = mkdtempSync(path.join(os.tmpdir(), "companion-screenshot-"));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ["dist/server/main.js"], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      LLM_PROVIDER: "llama",
      LLM_MODEL_PATH: modelPath(),
      LLM_BASE_URL: "",
      LLM_AUTO_DOWNLOAD: "0",
      LOG_LEVEL: "warn",
      // The picture is a guest's chat.
      DEMO_LOGIN: "1",
    },
    stdio: ["ignore", "inherit", "inherit"],
  });

  let browser;
  try {
    await waitForServer(url, server);
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
    });
    const page = await browser.newPage({ viewport: VIEWPORT });
    page.on("pageerror", (error) => console.error("[page error]", error.message));

    // Demo login, then the page the server names: the preset selection.
    await page.goto(`${url}/login/demo`);
    await page.waitForURL("**/characters/selection", { timeout: 30_000 });
    await createFirstPreset(page);

    // The chat, past the 18+ question.
    await openFirstChat(page);
    const input = page.getByRole("textbox", { name: "Type a message" });
    await input.waitFor({ state: "visible", timeout: 15_000 });

    // One message, and its reply in full (no typing indicator left).
    const answered = page.waitForResponse(
      (response) => response.url().endsWith("/api/chat/message") && response.request().method() === "POST",
      { timeout: 120_000 },
    );
    await input.fill(MESSAGE);
    await page.getByRole("button", { name: "Send" }).click();
    await (await answered).text();
    const typing = page.getByRole("status", { name: "typing" });
    for (let waited = 0; waited < 30_000 && (await typing.count()) > 0; waited += 250) {
      await page.waitForTimeout(250);
    }
    // Let toasts fade and the list settle at the bottom.
    await page.waitForTimeout(2500);
    await page.screenshot({ path: OUT });
    console.log(`wrote ${path.relative(ROOT, OUT)} (${Math.round(statSync(OUT).size / 1024)} KB)`);
  } finally {
    await browser?.close();
    server.kill("SIGTERM");
    await new Promise((resolve) => (server.exitCode !== null ? resolve() : server.once("exit", resolve)));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
