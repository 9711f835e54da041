// The prompt inspector's route: what the prompt of one of the user's replies was made of.
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import type { PromptInspectionReply } from "../../../common/prompt-inspection";
import { notFound } from "../../errors";
import { currentUser, signedIn } from "../../http/auth";
import { okWith } from "../../http/envelope";
import { msg } from "../../i18n/messages";
import type { Conversation } from "../conversation/conversation";
import type { InspectionsRepo } from "./inspections.repo";
import { PromptRoute } from "./inspections.schemas";

/**
 * GET /api/chat/prompt?id=<entry id>[&index=<version>] (common/prompt-inspection.ts): the parts of
 * the prompt of the entry's reply (its chosen version unless `index` names another) with their
 * tokens, the lorebook entries fired and why, memory's share. Signed in; the entry's owner only:
 * someone else's id answers 404 "Message not found." like an unknown one.
 */
export async function inspectionsRoutes(
  app: FastifyInstance,
  services: { inspections: InspectionsRepo; conversation: Conversation },
  auth: onRequestAsyncHookHandler,
): Promise<void> {
  await signedIn(app, auth, (app) => {
    app.get("/api/chat/prompt", { schema: PromptRoute }, async (request): Promise<PromptInspectionReply> => {
      const user = currentUser(request);
      const { query } = request;
      const entry = await services.conversation.history.findOwnedEntry(user, query.id);
      if (!entry) throw notFound(msg("chat.messageNotFound"));
      const inspection = await services.inspections.find(entry.id, query.index ?? entry.swipe_index);
      return okWith(msg("chat.prompt"), { inspection });
    });
  });
}
