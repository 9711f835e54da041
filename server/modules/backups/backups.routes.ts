// The admin console's Backups section under /api/admin/backups: the list and state, "Back up now", and the archive's download (admin only, audited, streamed).
import fs from "node:fs";
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import type { User } from "../../db/schema";
import { AppError, notFound } from "../../errors";
import { adminScope, currentUser } from "../../http/auth";
import { ok } from "../../http/envelope";
import { GET_WRITES } from "../../http/route-writes";
import { msg } from "../../i18n/messages";
import { BackupParams, backupDoc, backupsAnswer } from "./backups.schemas";
import { BackupRunningError, type BackupsService } from "./backups.service";

/** Writes one admin audit row (the admin console's audit log). */
export type AuditWriter = (admin: User, action: string, target: string, details: unknown) => Promise<void>;

/**
 * The Backups routes, in the admin scope (no session → 401, a non-admin → 403; listed in
 * ADMIN_ROUTES). Archives are read from BACKUP_DIR by a checked file name only, never under
 * /content/.
 */
export async function backupRoutes(
  app: FastifyInstance,
  backups: BackupsService,
  auth: onRequestAsyncHookHandler,
  audit: AuditWriter,
): Promise<void> {
  await adminScope(app, auth, "/api/admin/backups", (scope) => {
    const list = backupDoc(
      "`data: { backups: [{ name, createdAt, size, version, encrypted }], running, lastSuccessAt, lastFailure: { at, message } | null, schedule, keep, dir }`",
    );
    scope.get("/", { schema: { ...list, response: backupsAnswer } }, async () =>
      ok(msg("backups.backups"), { data: backups.status() }),
    );

    const start = backupDoc(
      'starts a backup in the background ("Backup started."); 409 `backup_running` while one runs; audited `backup.create`',
    );
    scope.post("/", { schema: { ...start, response: backupsAnswer } }, async (request) => {
      try {
        backups.start("manual");
      } catch (error) {
        if (error instanceof BackupRunningError) throw new AppError("backup_running", error.message);
        throw error;
      }
      await audit(currentUser(request), "backup.create", "", {});
      return ok(msg("backups.backupStarted"), { data: backups.status() });
    });

    // Writes the audit row of the download (declared: GET_WRITES).
    const download = {
      config: GET_WRITES,
      schema: {
        ...backupDoc(
          "the archive, streamed as an attachment; 404 for any name that is not a complete archive of `BACKUP_DIR`; audited `backup.download`",
        ),
        params: BackupParams,
      },
    };
    scope.get("/:name/download", download, async (request, reply) => {
      const archive = backups.archive(request.params.name);
      if (!archive) throw notFound(msg("backups.noSuchBackup"));
      await audit(currentUser(request), "backup.download", request.params.name, { size: archive.size });
      reply.header("Content-Type", "application/octet-stream");
      reply.header("Content-Length", archive.size);
      reply.header("Content-Disposition", `attachment; filename="${request.params.name}"`);
      reply.header("Cache-Control", "private, no-store");
      reply.header("X-Content-Type-Options", "nosniff");
      return reply.send(fs.createReadStream(archive.file));
    });
  });
}
