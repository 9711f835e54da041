// The routes of swipes, edits and rewind: regenerate (plain or streamed), swipe, edit, delete and rewind.
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import type { RemovedEntries, SwipeReply } from "../../../common/api";
import { currentUser, signedIn } from "../../http/auth";
import { okWith } from "../../http/envelope";
import { answerPlainOrStreamed } from "../../http/plain-or-streamed";
import { msg } from "../../i18n/messages";
import { oneToOneTurn } from "./chat.routes";
import { DeleteRoute, EditRoute, isMuted, RegenerateRoute, RewindRoute, SwipeRoute } from "./chat.schemas";
import type { EditsService } from "./edits.service";
import type { LiveReplies } from "./live-replies";

/**
 * Swipes, edits and rewind (contract: common/api.ts above SwipeReply): regenerate
 * (plain or streamed like `chat/continue-message`, resumable with GET /api/chat/stream and
 * stopped with POST /api/chat/stop), swipe, edit, delete and rewind. All POST, signed in.
 */
export async function editsRoutes(
  app: FastifyInstance,
  services: { edits: EditsService; live: LiveReplies },
  auth: onRequestAsyncHookHandler,
): Promise<void> {
  await signedIn(app, auth, (app) => {
    const { edits, live } = services;

    app.post("/api/chat/regenerate", { schema: RegenerateRoute }, async (request, reply) => {
      const user = currentUser(request);
      const { body } = request;
      const options = { speak: !isMuted(body.mute) };
      const turn = oneToOneTurn(live, (events) => edits.regenerate(user, body.id, options, events));
      return answerPlainOrStreamed(request, reply, body.stream, turn);
    });

    app.post("/api/chat/swipe", { schema: SwipeRoute }, async (request): Promise<SwipeReply> => {
      const { body } = request;
      const entry = await edits.swipe(currentUser(request), body.id, body.index);
      return okWith(msg("chat.replyChosen"), { history: [entry] });
    });

    app.post("/api/chat/edit", { schema: EditRoute }, async (request): Promise<SwipeReply> => {
      const { body } = request;
      const entry = await edits.edit(currentUser(request), body.id, body.part, body.text);
      return okWith(body.part === "message" ? msg("chat.messageEdited") : msg("chat.replyEdited"), {
        history: [entry],
      });
    });

    app.post("/api/chat/delete", { schema: DeleteRoute }, async (request): Promise<RemovedEntries> => {
      const { body } = request;
      const removed = await edits.remove(currentUser(request), body.id);
      return okWith(msg("chat.messageDeleted"), { removed });
    });

    app.post("/api/chat/rewind", { schema: RewindRoute }, async (request): Promise<RemovedEntries> => {
      const { body } = request;
      const removed = await edits.rewind(currentUser(request), body.id);
      return okWith(msg("chat.chatRewound"), { removed });
    });
  });
}
