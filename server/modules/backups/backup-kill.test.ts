// A backup process killed with SIGKILL mid-way leaves no archive listed as complete; the next backup completes and checks out.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";
import { openDatabase } from "../../db/index";
import { migrateToLatest } from "../../db/migrations";
import { BackupsService } from "./backups.service";
import { openBackup } from "./read-backup";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "backup-kill-"));
const backupDir = path.join(dataDir, "backups");
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

/** Runs `npm run backup`'s source on dataDir; resolves with its exit code or signal and its output. */
function backupProcess(
  onStarted?: (kill: () => void) => void,
): Promise<{ code: number | null; signal: string | null; out: string }> {
  const child = spawn(process.execPath, ["--import", "tsx", "server/cli/backup.ts"], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: "", LOG_LEVEL: "silent" },
  });
  let out = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (out += d));
  if (onStarted) {
    const poll = setInterval(() => {
      if (fs.existsSync(backupDir) && fs.readdirSync(backupDir).some((n) => n.endsWith(".partial"))) {
        clearInterval(poll);
        onStarted(() => child.kill("SIGKILL"));
      }
    }, 5);
    child.on("exit", () => clearInterval(poll));
  }
  return new Promise((resolve) => child.on("exit", (code, signal) => resolve({ code, signal, out })));
}

it("kill -9 mid-backup: no listed archive is corrupt, and the next backup is complete", async () => {
  const { db } = openDatabase("", dataDir);
  await migrateToLatest(db as never);
  await db.destroy();
  // Incompressible stored files, so the archive takes a few seconds to write.
  fs.mkdirSync(path.join(dataDir, "content", "audio"), { recursive: true });
  for (let i = 0; i < 12; i++)
    fs.writeFileSync(path.join(dataDir, "content", "audio", `${i}.mp3`), randomBytes(8 * 1024 * 1024));

  const killed = await backupProcess((kill) => setTimeout(kill, 300));
  expect(killed.signal).toBe("SIGKILL");
  const service = new BackupsService(
    {
      source: { databaseUrl: "", dataDir, contentDir: path.join(dataDir, "content") },
      dir: backupDir,
      passphrase: "",
      keep: 7,
      schedule: "",
    },
    () => {},
  );
  // What the kill left is a temporary dot-file, never an archive's name.
  expect(fs.readdirSync(backupDir).some((n) => n.endsWith(".partial"))).toBe(true);
  for (const listed of service.list())
    await openBackup(path.join(backupDir, listed.name), fs.mkdtempSync(path.join(dataDir, "check-")), "");
  expect(service.list()).toEqual([]);

  const finished = await backupProcess();
  expect(finished.code, finished.out).toBe(0);
  const file = finished.out.trim().split("\n").at(-1)!;
  expect(service.list().map((b) => path.join(backupDir, b.name))).toEqual([file]);
  const manifest = await openBackup(file, fs.mkdtempSync(path.join(dataDir, "check-")), "");
  expect(Object.keys(manifest.files).filter((n) => n.startsWith("content/audio/"))).toHaveLength(12);
}, 120_000);
