import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import PostalMime from "postal-mime";
import { afterAll, describe, expect, it } from "vitest";
import { OutboxMailer } from "./nodemailer";

describe("the outbox mailer (no SMTP configured)", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "outbox-"));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("writes each message as an .eml file and logs its recipient, subject and file, never its links", async () => {
    const lines: string[] = [];
    const mailer = new OutboxMailer(dir, "Companion <no-reply@companion.local>", (l) => lines.push(l));
    await mailer.send({
      to: "ana@example.com",
      subject: "Reset your password",
      text: "Open http://localhost:3000/reset-password/abc123 to choose a new one.",
    });
    const files = fs.readdirSync(dir).filter((f) => f.endsWith(".eml"));
    expect(files).toHaveLength(1);
    const parsed = await PostalMime.parse(fs.readFileSync(path.join(dir, files[0]!)));
    expect(parsed.subject).toBe("Reset your password");
    expect(parsed.to?.[0]?.address).toBe("ana@example.com");
    expect(parsed.text).toContain("http://localhost:3000/reset-password/abc123");
    expect(lines).toEqual([expect.stringContaining('"Reset your password"')]);
    expect(lines[0]).toContain("ana@example.com");
    expect(lines[0]).toContain(files[0]!);
    expect(lines[0]).not.toContain("abc123");
  });
});
