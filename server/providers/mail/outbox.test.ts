import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import PostalMime from "postal-mime";
import { afterAll, describe, expect, it } from "vitest";
import { OutboxMailer, outboxFileName } from "./nodemailer";

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
    // <time>-<message id>-<recipient>.eml, each part set apart by a dash.
    expect(files[0]).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z-[\w.-]+-ana@example\.com\.eml$/);
    expect(files[0]).not.toContain("companion.local");
  });

  it("names a file <time>-<message id>-<recipient>.eml with only safe characters", () => {
    const time = new Date("2026-03-05T03:30:00.123Z");
    expect(outboxFileName(time, "<1b2c3d4e-aaaa-bbbb@companion.local>", "ana@example.com")).toBe(
      "2026-03-05T03-30-00-123Z-1b2c3d4e-aaaa-bbbb-ana@example.com.eml",
    );
    expect(outboxFileName(time, "<x/../y@host>", "../../etc/passwd")).toBe(
      "2026-03-05T03-30-00-123Z-x..y-etcpasswd.eml",
    );
    expect(outboxFileName(time, "", "")).toBe("2026-03-05T03-30-00-123Z-mail-unknown.eml");
  });
});
