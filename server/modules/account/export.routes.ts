// Routes of "Take my data": start an export, see the newest one, download its ZIP while it is ready (its owner only).
import type { FastifyInstance } from "fastify";
import type { DataExportAnswer } from "../../../common/api";
import type { User } from "../../db/schema";
import { currentUser, requireUser } from "../../http/auth";
import { ok } from "../../http/envelope";
import { rateLimit } from "../../http/rate-limit";
import type { ExportService } from "./export.service";

/** An export id as the server makes them (a lower-case uuid); anything else is unknown (404). */
const EXPORT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

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
  const onRequest = requireUser(authenticate);

  app.post("/api/account/export", { onRequest, config: rateLimit(10, 60 * 60_000) }, async (request) => {
    const started = await exports.start(currentUser(request));
    const answer: DataExportAnswer = {
      ...ok(
        "We are preparing your data. The download link appears here, and we e-mail you, when it is ready.",
      ),
      export: started,
    };
    return answer;
  });

  app.get("/api/account/export", { onRequest }, async (request) => {
    const latest = await exports.latest(currentUser(request));
    const answer: DataExportAnswer = {
      ...ok(latest ? "Your data export." : "No export yet."),
      export: latest,
    };
    return answer;
  });

  app.get<{ Params: { id: string } }>(
    "/api/account/export/:id/download",
    { onRequest, config: rateLimit(30, 60 * 60_000) },
    async (request, reply) => {
      const id = EXPORT_ID.test(request.params.id)
        ? request.params.id
        : "00000000-0000-0000-0000-000000000000";
      const file = await exports.download(currentUser(request), id);
      reply.header("Content-Type", "application/zip");
      reply.header("Content-Length", file.size);
      reply.header("Content-Disposition", `attachment; filename="${file.fileName}"`);
      reply.header("Cache-Control", "private, no-store");
      reply.header("X-Content-Type-Options", "nosniff");
      return reply.send(file.stream);
    },
  );
}
