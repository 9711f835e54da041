// The chat import route: POST /api/chat/import, a SillyTavern chat file replacing a character's history.
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import type { ChatImportReply } from "../../../common/api";
import { CHAT_IMPORT_MAX_BYTES } from "../../../common/constants";
import { currentUser, signedIn } from "../../http/auth";
import { ok } from "../../http/envelope";
import { msg } from "../../i18n/messages";
import { ImportChatRoute } from "./import.schemas";
import type { ChatImportService } from "./import.service";

/**
 * POST /api/chat/import (ours, "Import a SillyTavern chat"): multipart `id` (one of the user's
 * characters) and `file` (a SillyTavern .jsonl); answers `{imported}`, the messages imported.
 * Signed in first (the body is read after the session is checked); the file is read at most
 * CHAT_IMPORT_MAX_BYTES + 1 bytes (larger requests are refused by their length, 413), so the
 * service can tell a file that is too large without holding more of it.
 */
export async function importRoutes(
  app: FastifyInstance,
  imports: ChatImportService,
  auth: onRequestAsyncHookHandler,
): Promise<void> {
  await signedIn(app, auth, (app) => {
    app.post(
      "/api/chat/import",
      {
        schema: ImportChatRoute,
        config: {
          multipartOptions: { limits: { fileSize: CHAT_IMPORT_MAX_BYTES + 1 }, throwFileSizeLimit: false },
        },
      },
      async (request): Promise<ChatImportReply> => {
        const { body } = request;
        const result = await imports.importSillyTavern(currentUser(request), body.id, body.file);
        return ok(msg("chat.chatBeenImportedMessages", { imported: result.imported }), { data: result });
      },
    );
  });
}
