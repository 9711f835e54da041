// Backups: the archive's contents and checks, refusals (tampered, newer, non-empty), a full disk, a failed migration, the schedule, keeping, and the admin console's routes.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import { sql } from "kysely";
import tar from "tar-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backupSource, buildBackups } from "../../container/backups";
import { openDatabase } from "../../db/index";
import { migrateToLatest } from "../../db/migrations";
import { loadConfig } from "../../env";
import { S3Storage } from "../../providers/storage/s3";
import { call, demoLogin } from "../../testing/api";
import { startTestS3 } from "../../testing/s3-server";
import { createTestApp, localDiskOnly, type TestApp, testConfig } from "../../testing/server";
import { BackupsService } from "./backups.service";
import { createBackup } from "./create-backup";
import { parseArchiveName } from "./manifest";
import { ArchiveRefusedError, openBackup } from "./read-backup";
import { RestoreRefusedError, restoreBackup } from "./restore-backup";
import { MigrationFailedError, migrateSafely } from "./safe-migrate";

const scratch = () => fs.mkdtempSync(path.join(os.tmpdir(), "backup-test-"));

/** Rewrites a plain archive, letting `change` replace an entry's bytes (or add entries at the end). */
async function rewrite(
  file: string,
  dest: string,
  change: (name: string, bytes: Buffer) => Buffer,
  extra: Array<{ name: string; bytes: Buffer }> = [],
): Promise<void> {
  const entries: Array<{ name: string; bytes: Buffer }> = [];
  const extract = tar.extract();
  extract.on("entry", (header, stream, next) => {
    const chunks: Buffer[] = [];
    stream.on("data", (c) => chunks.push(c as Buffer));
    stream.on("end", () => {
      entries.push({ name: header.name, bytes: change(header.name, Buffer.concat(chunks)) });
      next();
    });
  });
  await pipeline(fs.createReadStream(file), createGunzip(), extract);
  const pack = tar.pack();
  for (const entry of [...entries, ...extra]) pack.entry({ name: entry.name }, entry.bytes);
  pack.finalize();
  await pipeline(pack, createGzip(), fs.createWriteStream(dest));
}

describe.skipIf(localDiskOnly("the SQLite file and the content folder on disk are what these archives hold"))(
  "backups on SQLite",
  () => {
    let t: TestApp;
    let dir: string;
    const member = { email: "kept@example.com", password: "kept-password-1" };

    beforeAll(async () => {
      t = await createTestApp();
      dir = path.join(t.dataDir, "backups");
      await t.auth.createAccount({ ...member, fullName: "Kept", planName: "Free" });
      await t.storage.put("characters/kept.jpg", randomBytes(2048));
    }, 120_000);
    afterAll(async () => {
      await t?.dispose();
    });

    const source = () => backupSource(t.config);

    it("writes one archive (0600) holding the database copy, the files, the secrets and a manifest that checks them", async () => {
      const result = await createBackup(source(), { dir, passphrase: "", reason: "test" });
      expect(path.basename(result.file)).toMatch(
        /^companion-backup-\d{4}-\d\d-\d\dT[\d-]+Z-1\.0\.\d+\.tar\.gz$/,
      );
      expect(fs.statSync(result.file).mode & 0o777).toBe(0o600);
      expect(fs.readdirSync(dir).filter((n) => n.startsWith("."))).toEqual([]);
      const { manifest } = result;
      expect(manifest.database.engine).toBe("sqlite");
      expect(manifest.database.rowCounts.users).toBeGreaterThanOrEqual(1);
      expect(manifest.database.migrations.length).toBeGreaterThan(10);
      expect(Object.keys(manifest.files)).toEqual(
        expect.arrayContaining(["database/app.db", "content/characters/kept.jpg", "secrets/content-secret"]),
      );
      expect(Object.keys(manifest.files).some((n) => n.includes("outbox") || n.includes("models/"))).toBe(
        false,
      );
      const opened = await openBackup(result.file, scratch(), "");
      expect(opened.files).toEqual(manifest.files);
    });

    it("refuses an archive whose file was changed, and one with an entry outside its folders; nothing is restored", async () => {
      const { file } = await createBackup(source(), { dir: scratch(), passphrase: "", reason: "test" });
      const tampered = path.join(scratch(), "tampered.tar.gz");
      await rewrite(file, tampered, (name, bytes) =>
        name === "content/characters/kept.jpg" ? Buffer.from("evil") : bytes,
      );
      const target = scratch();
      const into = { databaseUrl: "", dataDir: target, contentDir: path.join(target, "content") };
      const refused = await restoreBackup(tampered, into, {
        passphrase: "",
        force: false,
        backupDir: scratch(),
        log: () => {},
      }).catch((e) => e);
      expect(refused).toBeInstanceOf(ArchiveRefusedError);
      expect(String(refused.message)).toContain("does not match its checksum");
      expect(fs.existsSync(path.join(target, "app.db"))).toBe(false);

      const escaping = path.join(scratch(), "escaping.tar.gz");
      await rewrite(file, escaping, (_n, b) => b, [
        { name: "content/../../../etc/evil", bytes: Buffer.from("x") },
      ]);
      const out = scratch();
      await expect(openBackup(escaping, out, "")).rejects.toThrow(/entry no backup has/);
      expect(fs.existsSync(path.join(out, "..", "..", "etc", "evil"))).toBe(false);

      const truncated = path.join(scratch(), "truncated.tar.gz");
      fs.writeFileSync(truncated, fs.readFileSync(file).subarray(0, 4000));
      await expect(openBackup(truncated, scratch(), "")).rejects.toBeInstanceOf(ArchiveRefusedError);
    });

    it("encrypts with BACKUP_PASSPHRASE; a wrong passphrase or one changed byte is refused", async () => {
      const { file, name } = await createBackup(source(), {
        dir: scratch(),
        passphrase: "correct horse",
        reason: "test",
      });
      expect(name.endsWith(".tar.gz.enc")).toBe(true);
      expect(fs.readFileSync(file).includes(Buffer.from("kept@example.com"))).toBe(false);
      expect((await openBackup(file, scratch(), "correct horse")).database.engine).toBe("sqlite");
      await expect(openBackup(file, scratch(), "wrong")).rejects.toThrow(
        /passphrase is wrong or the archive was changed/,
      );
      await expect(openBackup(file, scratch(), "")).rejects.toThrow(/set BACKUP_PASSPHRASE/);
      const flipped = path.join(scratch(), name);
      const bytes = fs.readFileSync(file);
      bytes[Math.floor(bytes.length / 2)]! ^= 1;
      fs.writeFileSync(flipped, bytes);
      await expect(openBackup(flipped, scratch(), "correct horse")).rejects.toBeInstanceOf(
        ArchiveRefusedError,
      );
    });

    it("restores into an empty DATA_DIR; a non-empty one is refused without --force, and --force backs it up first", async () => {
      const { file } = await createBackup(source(), { dir: scratch(), passphrase: "", reason: "test" });
      const target = scratch();
      const into = { databaseUrl: "", dataDir: target, contentDir: path.join(target, "content") };
      const options = {
        passphrase: "",
        force: false,
        backupDir: path.join(target, "backups"),
        log: () => {},
      };
      const restored = await restoreBackup(file, into, options);
      expect(restored.files).toBeGreaterThanOrEqual(1);
      expect(fs.readFileSync(path.join(target, "content/characters/kept.jpg"))).toEqual(
        fs.readFileSync(path.join(t.dataDir, "content/characters/kept.jpg")),
      );
      expect(fs.readFileSync(path.join(target, "content-secret"))).toEqual(
        fs.readFileSync(path.join(t.dataDir, "content-secret")),
      );
      const db = openDatabase("", target).db;
      const users = await db.selectFrom("users").select("email").where("email", "=", member.email).execute();
      await db.destroy();
      expect(users).toHaveLength(1);

      await expect(restoreBackup(file, into, options)).rejects.toThrow(/already holds data .* --force/);
      const again = await restoreBackup(file, into, { ...options, force: true });
      expect(again.previous && fs.existsSync(again.previous.file)).toBe(true);
      expect(again.previous?.manifest.reason).toBe("pre-restore");
    });

    it("refuses a backup made by a newer version, and one of another database engine", async () => {
      const { file } = await createBackup(source(), {
        dir: scratch(),
        passphrase: "",
        reason: "test",
        version: "99.0.0",
      });
      const target = scratch();
      const into = { databaseUrl: "", dataDir: target, contentDir: path.join(target, "content") };
      const refused = await restoreBackup(file, into, {
        passphrase: "",
        force: false,
        backupDir: scratch(),
        log: () => {},
      }).catch((e) => e);
      expect(refused).toBeInstanceOf(RestoreRefusedError);
      expect(refused.message).toMatch(/newer version \(99\.0\.0\)/);
      expect(fs.existsSync(path.join(target, "app.db"))).toBe(false);
      const pg = {
        databaseUrl: "postgres://nobody@127.0.0.1:1/none",
        dataDir: target,
        contentDir: undefined,
      };
      const { file: current } = await createBackup(source(), {
        dir: scratch(),
        passphrase: "",
        reason: "test",
      });
      await expect(
        restoreBackup(current, pg, { passphrase: "", force: false, backupDir: scratch(), log: () => {} }),
      ).rejects.toThrow(/holds a sqlite database and DATABASE_URL names a postgres one/);
    });

    it("a full disk fails the backup with one log line and a failure the admin reads; no archive is listed; the server keeps serving", async () => {
      const lines: string[] = [];
      const full = new BackupsService(
        {
          source: source(),
          dir,
          passphrase: "",
          keep: 7,
          schedule: "",
          openWrite: () =>
            new Writable({
              write(_chunk, _encoding, done) {
                done(Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" }));
              },
            }),
        },
        (line) => lines.push(line),
      );
      const before = full.list().map((b) => b.name);
      await expect(full.run("manual")).rejects.toMatchObject({ code: "ENOSPC" });
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^Backup failed: The disk is full/);
      expect(full.list().map((b) => b.name)).toEqual(before);
      expect(fs.readdirSync(dir).filter((n) => n.endsWith(".partial") || n.startsWith(".staging"))).toEqual(
        [],
      );
      const admin = await adminToken();
      const status = await call(t.app, "GET", "/api/admin/backups", { token: admin });
      expect((status.body.data as { lastFailure: { message: string } }).lastFailure.message).toMatch(
        /The disk is full/,
      );
      expect((await t.app.inject({ method: "GET", url: "/api/health" })).statusCode).toBe(200);
    });

    async function adminToken(): Promise<string> {
      const email = "backup-admin@example.com";
      const existing = await t.db.db
        .selectFrom("users")
        .select("id")
        .where("email", "=", email)
        .executeTakeFirst();
      if (!existing) {
        const user = await t.auth.createAccount({
          email,
          password: "admin-pass-1",
          fullName: "A",
          planName: "Free",
        });
        await t.db.db.updateTable("users").set({ role: "admin" }).where("id", "=", user.id).execute();
      }
      const login = await call(t.app, "POST", "/api/auth/login", {
        form: { email, password: "admin-pass-1" },
      });
      return (login.body.data as { token: string }).token;
    }

    it("admin console: lists, backs up now, downloads (audited); refused to members and signed-out callers; never under /content/", async () => {
      const admin = await adminToken();
      const started = await call(t.app, "POST", "/api/admin/backups", { token: admin });
      expect(started.body.message).toBe("Backup started.");
      let status: { running: boolean; backups: Array<{ name: string; size: number }>; lastFailure: unknown };
      do {
        await new Promise((r) => setTimeout(r, 50));
        status = (await call(t.app, "GET", "/api/admin/backups", { token: admin })).body
          .data as typeof status;
      } while (status.running);
      expect(status.lastFailure).toBeNull();
      const newest = status.backups[0]!;
      const download = await t.app.inject({
        method: "GET",
        url: `/api/admin/backups/${newest.name}/download`,
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(download.statusCode).toBe(200);
      expect(download.headers["content-disposition"]).toContain(newest.name);
      expect(download.rawPayload.equals(fs.readFileSync(path.join(dir, newest.name)))).toBe(true);
      const audit = (await call(t.app, "GET", "/api/admin/audit", { token: admin })).body.data as Array<{
        action: string;
        target: string;
      }>;
      expect(audit).toEqual(
        expect.arrayContaining([
          { ...audit.find((a) => a.action === "backup.download"), target: newest.name },
        ]),
      );

      const { token: demo } = await demoLogin(t.app);
      const url = `/api/admin/backups/${newest.name}/download`;
      expect(
        (await t.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${demo}` } })).statusCode,
      ).toBe(403);
      expect((await t.app.inject({ method: "GET", url })).statusCode).toBe(401);
      expect((await call(t.app, "POST", "/api/admin/backups", { token: demo })).status).toBe(403);
      for (const probe of [
        `/api/admin/backups/..%2F..%2Fapp.db/download`,
        `/api/admin/backups/..%2Fcontent-secret/download`,
        `/api/admin/backups/.${newest.name}.partial/download`,
      ]) {
        expect(
          (await t.app.inject({ method: "GET", url: probe, headers: { authorization: `Bearer ${admin}` } }))
            .statusCode,
        ).toBe(404);
      }
      for (const probe of [
        `/content/backups/${newest.name}`,
        `/content/../backups/${newest.name}`,
        `/content/%2e%2e/backups/${newest.name}`,
      ]) {
        const res = await t.app.inject({
          method: "GET",
          url: probe,
          headers: { authorization: `Bearer ${admin}` },
        });
        expect(res.statusCode, probe).not.toBe(200);
        expect(res.rawPayload.includes(Buffer.from("manifest.json"))).toBe(false);
      }
    });

    it("keeps the BACKUP_KEEP newest, and runs on the schedule only in the minute a cron time falls in", async () => {
      const own = scratch();
      let now = Date.parse("2026-12-01T03:30:20Z");
      const service = new BackupsService(
        { source: source(), dir: own, passphrase: "", keep: 2, schedule: "30 3 * * *" },
        () => {},
        () => now,
      );
      expect(await service.runIfDue()).toBe(true);
      now = Date.parse("2026-12-01T03:31:30Z");
      expect(await service.runIfDue()).toBe(false);
      now = Date.parse("2026-12-01T12:00:00Z");
      expect(await service.runIfDue()).toBe(false);
      await service.run("manual");
      await new Promise((r) => setTimeout(r, 5));
      await service.run("manual");
      expect(service.list()).toHaveLength(2);
      expect(service.list()[0]!.createdAt).toBeGreaterThan(service.list()[1]!.createdAt);
    });
  },
);

describe("migrating with a backup first", () => {
  it("a migration that fails leaves the database as it was, and the error names the backup and the restore command", async () => {
    const dataDir = scratch();
    const handle = openDatabase("", dataDir);
    await migrateToLatest(handle.db as never);
    await sql`insert into admin_audit (id, admin_id, admin_email, action, target, details, created_at)
      values ('a1', 'u1', 'a@example.com', 'kept', '', '{}', 1)`.execute(handle.db);
    const state = async (db: typeof handle.db) => [
      (await sql<{ sql: string }>`select sql from sqlite_master order by name`.execute(db)).rows,
      (await sql`select * from admin_audit`.execute(db)).rows,
      (await sql`select name from kysely_migration order by name`.execute(db)).rows,
    ];
    const before = await state(handle.db);
    const lines: string[] = [];
    const failing = migrateSafely(handle, {
      source: { databaseUrl: "", dataDir, contentDir: path.join(dataDir, "content") },
      dir: path.join(dataDir, "backups"),
      passphrase: "",
      keep: 7,
      log: (line) => lines.push(line),
      extra: {
        "9999_broken": {
          async up(db) {
            await sql`create table half_done (id integer)`.execute(db);
            await sql`insert into half_done values (1)`.execute(db);
            throw new Error("boom");
          },
        },
      },
    });
    const error = await failing.catch((e) => e);
    expect(error).toBeInstanceOf(MigrationFailedError);
    const archive = fs.readdirSync(path.join(dataDir, "backups")).find((n) => parseArchiveName(n));
    expect(archive).toBeDefined();
    expect(error.message).toContain(path.join(dataDir, "backups", archive!));
    expect(error.message).toContain("npm run restore --");
    expect(error.message).not.toContain("\n");
    expect(lines[0]).toMatch(/1 database migrations are pending: backing up first/);
    const reopened = openDatabase("", dataDir).db;
    const after = await state(reopened);
    await reopened.destroy();
    expect(after).toEqual(before);
    expect(JSON.stringify(after)).not.toContain("half_done");
  });
});

describe("backup settings", () => {
  it("reject a BACKUP_DIR inside the content folder and a bad schedule; auto is daily on SQLite and off on PostgreSQL", () => {
    expect(() => loadConfig({ DATA_DIR: "/tmp/x", BACKUP_DIR: "/tmp/x/content/backups" })).toThrow(
      /BACKUP_DIR: must not be inside/,
    );
    expect(() => loadConfig({ DATA_DIR: "/tmp/x", BACKUP_SCHEDULE: "every day" })).toThrow(/BACKUP_SCHEDULE/);
    expect(loadConfig({ DATA_DIR: "/tmp/x" }).backupSchedule).toBe("30 3 * * *");
    expect(loadConfig({ DATA_DIR: "/tmp/x" }).backupDir).toBe("/tmp/x/backups");
    expect(loadConfig({ DATA_DIR: "/tmp/x", DATABASE_URL: "postgres://a@b/c" }).backupSchedule).toBe("");
    expect(loadConfig({ DATA_DIR: "/tmp/x", BACKUP_SCHEDULE: "off" }).backupSchedule).toBe("");
  });
});

describe("a backup with S3 storage", () => {
  it("leaves the stored files in the bucket and puts a copy of the archive under BACKUP_S3_PREFIX", async () => {
    const s3 = await startTestS3({ bucket: "backups-test" });
    const dataDir = scratch();
    try {
      const config = testConfig(dataDir, "", { ...s3.env, BACKUP_S3_PREFIX: "nightly/" });
      const handle = openDatabase("", dataDir);
      await migrateToLatest(handle.db as never);
      await handle.db.destroy();
      const service = buildBackups(config, () => {});
      const result = await service.run("manual");
      expect(result.manifest.storage).toBe("s3");
      expect(Object.keys(result.manifest.files).some((n) => n.startsWith("content/"))).toBe(false);
      const bucket = new S3Storage({ ...s3.config, prefix: "nightly" });
      expect(await bucket.read(result.name)).toEqual(fs.readFileSync(result.file));
    } finally {
      await s3.close();
    }
  }, 60_000);
});
