// Routes of "Take my data": start an export, see the newest one, download its ZIP while it is ready (its owner only).
import type { FastifyInstance } from "fastify";
import { DataExportAnswer } from "../../../common/api";
import type { User } from "../../db/schema";
import { currentUser, requireUser } from "../../http/auth";
import { okWith } from "../../http/envelope";
import { rateLimit } from "../../http/rate-limit";
import { answers, zodApp } from "../../http/route-schemas";
import { msg } from "../../i18n/messages";
import { ExportParams, sessionDoc } from "./account.schemas";
import type { ExportService } from "./export.service";

/**
 * "Take my data" (ours): `POST /api/account/export` starts an export,
 * `GET /api/account/export` answers the newest one, `GET /api/account/export/:id/download` sends
 * its ZIP to its owner while it is ready (404 otherwise, decided on the id from the database).
 * The user comes from the bearer token only, read afresh (not from the session cache).
 */
export function exportRoutes(
  app: FastifyInstance,
  exports: ExportService,
  authenticate: (token: string) => Promise<User | undefined>,
): void {
  const api = zodApp(app);
  const onRequest = requireUser(authenticate);
  const exportAnswer = answers(DataExportAnswer);

  const start = { ...sessionDoc("`export`: `DataExport` (status `queued`…)"), response: exportAnswer };
  api.post(
    "/api/account/export",
    { onRequest, config: rateLimit(10, 60 * 60_000), schema: start },
    async (request) => {
      const started = await exports.start(currentUser(request));
      const answer: DataExportAnswer = okWith(msg("account.wePreparingDataDownloadLink"), {
        export: started,
      });
      return answer;
    },
  );

  const latestSchema = { ...sessionDoc("`export`: the newest `DataExport` or null"), response: exportAnswer };
  api.get("/api/account/export", { onRequest, schema: latestSchema }, async (request) => {
    const latest = await exports.latest(currentUser(request));
    const answer: DataExportAnswer = okWith(latest ? msg("account.dataExport") : msg("account.noExportYet"), {
      export: latest,
    });
    return answer;
  });

  // The ZIP itself (application/zip), no JSON: no response schema.
  const download = {
    ...sessionDoc("the ZIP while ready, else 404", "signed in (its owner)"),
    params: ExportParams,
  };
  api.get(
    "/api/account/export/:id/download",
    { onRequest, config: rateLimit(30, 60 * 60_000), schema: download },
    async (request, reply) => {
      const file = await exports.download(currentUser(request), request.params.id);
      reply.header("Content-Type", "application/zip");
      reply.header("Content-Length", file.size);
      reply.header("Content-Disposition", `attachment; filename="${file.fileName}"`);
      reply.header("Cache-Control", "private, no-store");
      reply.header("X-Content-Type-Options", "nosniff");
      return reply.send(file.stream);
    },
  );
}
