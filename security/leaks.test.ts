import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { call } from "../server/testing/api";
import { createTestApp, type TestApp } from "../server/testing/server";

/**
 * Secrets that must not reach the server log. With no SMTP server configured,
 * mail goes to the outbox folder as .eml files; the log names the subject, the recipient and the
 * file, never the password-reset link or its code.
 */
describe("reset links never reach the log", () => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    // The outbox mailer logs through the app's `log`, which writes with console.log unless silent.
    vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => {
      lines.push(args.map(String).join(" "));
    });
    t = await createTestApp({ env: { LOG_LEVEL: "fatal", PUBLIC_URL: "http://companion.test" } });
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await t?.dispose();
  });

  async function outboxMail(): Promise<string> {
    const dir = path.join(t.dataDir, "outbox");
    for (let i = 0; i < 100; i++) {
      const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith(".eml")) : [];
      if (files.length > 0) return fs.readFileSync(path.join(dir, files[0]!), "utf8");
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error("no mail reached the outbox");
  }

  it("logs the subject, recipient and .eml file of a forgot-password mail, not its link or code", async () => {
    const email = "lena@example.com";
    await t.auth.createAccount({ email, password: "a-long-password-1", fullName: "Lena", planName: "Free" });
    const answer = await call(t.app, "POST", "/api/auth/forgot-password", { form: { email } });
    expect(answer.body.success).toBe(1);
    // The mail is a background job: read the file once it is written whole.
    await t.jobs.idle();
    const eml = (await outboxMail()).replace(/=\r?\n/g, "");
    const code = /reset-password\/([\w-]+)/.exec(eml)?.[1];
    expect(code).toBeTruthy();
    // Let the log line of the send be written.
    await vi.waitFor(() => expect(lines.some((l) => l.includes(".eml"))).toBe(true));
    const mailLines = lines.filter((l) => l.includes(".eml"));
    expect(mailLines).toHaveLength(1);
    expect(mailLines[0]).toContain("Reset your password");
    expect(mailLines[0]).toContain(email);
    for (const line of lines) {
      expect(line).not.toContain(code!);
      expect(line).not.toContain("reset-password");
    }
  });
});
