// Request shape, answers and documentation of the admin console's Backups routes, checked with zod.
import { z } from "zod";
import { AdminBackups, envelopeOf } from "../../../common/api";
import { answers } from "../../http/route-schemas";

/**
 * GET /api/admin/backups/:name/download: the archive's file name, any text (a name that is not a
 * complete archive of BACKUP_DIR answers 404, never 400, so nothing tells names apart).
 */
export const BackupParams = z.object({ name: z.string() });

/**
 * The documentation of a Backups route for the OpenAPI document (docs/api.md "Admin"): ours, and
 * admin only (written by `adminScope`).
 * @param description what the route answers (docs/api.md's Answers cell, markdown kept).
 */
export function backupDoc(description: string) {
  return { tags: ["Admin"], description, "x-from": "ours" };
}

/**
 * The answer of GET and POST /api/admin/backups: the archives and the state of the backups.
 * The download answers the archive's bytes, so it declares no JSON answer.
 */
export const backupsAnswer = answers(envelopeOf(AdminBackups));
