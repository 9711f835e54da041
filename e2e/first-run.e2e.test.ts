// A fresh install run as the README says: the owner from the set-up link, a user added in the admin console, a model connected without a restart.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ScriptedCompletions, startScriptedCompletions } from "../server/testing/completions-server";
import { freePort, type RunningProcess, startEntry, waitFor } from "../server/testing/processes";
import { DESKTOP, PHONE } from "./chat.helpers";
import { closePage, hasChromium, launchBrowser, openPage } from "./support/browser";
import { createFirstPreset, openFirstChat } from "./support/first-chat.mjs";

/**
 * What a new self-hoster does, in Chromium on a phone and on a desktop, against the built server
 * started the way README.md says (`npm start`: `node dist/server/main.js`) on an empty data
 * directory, with no model configured and nothing of the test run's environment (no
 * LLM_MODEL_PATH, no database or Redis URL):
 * 1. the log prints the one-time set-up link; opening it creates the owner, an admin;
 * 2. the owner adds a second user in the admin console (Users), who then signs in at /login;
 * 3. the owner adds a model connection in the admin console (Models) to an OpenAI-compatible
 *    endpoint, loads its model list, tests it (time to first token shown) and makes it the
 *    default; the second user's chat is answered by it, the server never restarted.
 */

if (!hasChromium) console.warn("first-run e2e skipped: no Chromium found (set CHROMIUM_PATH)");

const TIMEOUT = 180_000;
const REPLY = "Hello from the connected model, nice to meet you.";
const MODEL_ID = "companion-test-model";

/** The environment of a fresh machine: this process's, without anything the test run configured. */
function freshEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (value === undefined) continue;
    if (/^(LLM_|TEST_|DATABASE_URL|REDIS_URL|S3_|SMTP_|VITEST|REGISTRATION)/.test(name)) continue;
    env[name] = value;
  }
  return env;
}

/** Starts `npm start`'s command on `port` with an empty data directory; its output is kept. */
function startBuiltServer(port: number, dataDir: string): RunningProcess {
  return startEntry(
    "dist/server/main.js",
    { PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir, LLM_AUTO_DOWNLOAD: "0" },
    { nodeArgs: ["--enable-source-maps"], baseEnv: freshEnvironment() },
  );
}

/** Signs in at /login with e-mail and password, as a person does. */
async function signIn(page: Page, base: string, email: string, password: string): Promise<void> {
  await page.goto(`${base}/login`);
  await page.getByRole("heading", { name: "Member Sign in" }).waitFor();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Login" }).click();
  await page.waitForURL((url) => !url.pathname.startsWith("/login"), { timeout: 30_000 });
}

describe.skipIf(!hasChromium)("a fresh install, as the README says, in Chromium", () => {
  let browser: Browser;
  let endpoint: ScriptedCompletions;
  const servers: RunningProcess[] = [];
  const dirs: string[] = [];

  beforeAll(async () => {
    browser = await launchBrowser();
    endpoint = await startScriptedCompletions(() => REPLY, { models: [MODEL_ID, "another-model"] });
  });
  afterAll(async () => {
    await browser?.close();
    await endpoint?.close();
    for (const server of servers) if (server.child.exitCode === null) server.child.kill("SIGKILL");
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ["phone", PHONE],
    ["desktop", DESKTOP],
  ])(
    "on a %s: owner from the set-up link, a second user, a model connected and answering without a restart",
    async (label, viewport) => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `first-run-${label}-`));
      dirs.push(dataDir);
      const port = await freePort();
      const server = startBuiltServer(port, dataDir);
      servers.push(server);
      const base = `http://127.0.0.1:${port}`;
      const link = await waitFor(
        () => /Set up the owner account: (\S+)/.exec(server.output())?.[1],
        60_000,
        () => `no set-up link in the log:\n${server.output()}`,
      );
      expect(link).toMatch(/\/setup\/[A-Za-z0-9_-]{20,}$/);
      const setupPath = new URL(link).pathname;

      // 1. The owner opens the link and creates the admin account.
      const owner = await openPage(browser, { viewport });
      try {
        await owner.goto(`${base}${setupPath}`);
        const form = owner.getByRole("form", { name: "Set up the owner account" });
        await form.getByLabel("Email").fill(`owner-${label}@example.com`);
        await form.getByLabel("Name (optional)").fill("Owner");
        await form.getByLabel("Password", { exact: true }).fill("owner password 1");
        await form.getByLabel("Confirm Password").fill("owner password 1");
        await form.getByRole("button", { name: "Create the owner account" }).click();
        await owner.waitForURL((url) => !url.pathname.startsWith("/setup"), { timeout: 30_000 });

        // The link is used: opening it again says so.
        await owner.goto(`${base}${setupPath}`);
        await owner.getByText("This set-up link is invalid, used or expired.", { exact: false }).waitFor();

        // 2. A second user, added in the admin console.
        await owner.goto(`${base}/admin`);
        await owner.getByRole("tab", { name: "Users" }).click();
        const add = owner.getByRole("form", { name: "Add user" });
        await add.getByLabel("E-mail", { exact: true }).fill(`friend-${label}@example.com`);
        await add.getByLabel("Name", { exact: true }).fill("Friend");
        const generate = add.getByLabel("Generate a password");
        if (await generate.isChecked()) await generate.uncheck();
        await add.getByLabel("Password", { exact: true }).fill("friend password 1");
        await add.getByRole("button", { name: "Add user" }).click();
        await owner.getByText(`friend-${label}@example.com`).first().waitFor();

        // 3. A model connection: presets, the endpoint's model list, a timed test, the default.
        await owner.goto(`${base}/admin#models`);
        await owner.getByRole("heading", { name: "Models", exact: true }).waitFor();
        await owner.getByText("No model is connected yet.", { exact: false }).waitFor();
        await owner.getByRole("button", { name: "Add a connection" }).click();
        const modelForm = owner.getByRole("form", { name: "New connection" });
        await modelForm.getByLabel("Name", { exact: true }).fill("Local server");
        await modelForm.getByLabel("Base URL", { exact: true }).fill(endpoint.baseUrl);
        await modelForm.getByRole("button", { name: "Load models" }).click();
        const offered = modelForm.getByLabel("Models offered by the server (2)");
        await offered.waitFor();
        await offered.selectOption(MODEL_ID);
        await modelForm.getByRole("button", { name: "Save connection" }).click();
        const table = owner.getByRole("table", { name: "Model connections" });
        await table.getByText("Local server").waitFor();
        await table.getByRole("button", { name: "Test Local server" }).click();
        await owner
          .getByText(/First token after \d+ ms, whole reply in \d+ ms\./)
          .waitFor({ timeout: 60_000 });
        await owner.getByText(REPLY).first().waitFor();
        await owner.getByLabel("Default model").selectOption({ label: "Local server" });
        await expect
          .poll(
            async () =>
              (await owner.getByLabel("Default model").locator("option:checked").textContent()) ?? "",
          )
          .toContain("Local server");
      } finally {
        await closePage(owner);
      }

      // The second user signs in and chats; the connection answers (the server never restarted).
      const friend = await openPage(browser, { viewport });
      try {
        await signIn(friend, base, `friend-${label}@example.com`, "friend password 1");
        await friend.waitForURL("**/characters/selection");
        await createFirstPreset(friend);
        await openFirstChat(friend);
        const header = friend.getByRole("banner");
        await header.getByText("online", { exact: true }).waitFor({ timeout: 20_000 });
        const input = friend.getByRole("textbox", { name: "Type a message" });
        await input.fill("Hello there!");
        await friend.getByRole("button", { name: "Send" }).click();
        const log = friend.getByRole("log", { name: "Messages" });
        await log.getByText(REPLY).waitFor({ timeout: 60_000 });
        expect(endpoint.requests.some((chat) => chat.model === MODEL_ID)).toBe(true);
        expect(server.child.exitCode).toBeNull();
      } finally {
        await closePage(friend);
      }
      server.child.kill("SIGTERM");
      await server.exited;
    },
    TIMEOUT,
  );
});
