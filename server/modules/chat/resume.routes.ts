// The GET /api/chat/stream route: following an entry's live reply as server-sent events after a reload, from any instance.
import type { preValidationHookHandler } from "fastify";
import { currentUser } from "../../http/auth";
import type { ZodApp } from "../../http/route-schemas";
import { openEventStream } from "../../http/sse";
import { presentStoredReply } from "./chat.presenter";
import { ReplyStreamRoute } from "./chat.schemas";
import type { ChatService } from "./chat.service";
import { sendEvent } from "./reply-stream";

/**
 * Reads the `Last-Event-ID` header, when sent and not empty, into the query's `after` (it wins over
 * `?after`), before the query is checked by ReplyStreamQuery: an EventSource reconnecting sends it.
 */
const lastEventIdAsAfter: preValidationHookHandler = (request, _reply, done) => {
  const header = request.headers["last-event-id"];
  const query = typeof request.query === "object" ? request.query : {};
  if (header) request.query = { ...query, after: header };
  done();
};

/**
 * Ours: GET /api/chat/stream?id=<chatHistoryUUID>&after=<event id> (or the header
 * `Last-Event-ID`) follows the user's entry's live reply as server-sent events, from any instance:
 * the events after that id (`entry`, `token`, `audio`, then `done` or `error`, each with
 * `id: <seq>`), then the live reply as it goes on, to its end. When the entry has no live reply
 * (finished long ago, never streamed, or its instance died), one `done` event with the entry as
 * stored (the plain `chat/message` answer's shape) ends the stream. At a graceful shutdown the
 * stream ends without a last event (a resumable end): the client reconnects with Last-Event-ID
 * and lands on another instance. Heartbeats as every stream (sse.ts).
 * Registered inside the signed-in scope. @throws 400 for a bad id or event id; 404 "Message not
 * found." when the entry is not the user's (checked before anything else).
 */
export function resumeRoute(app: ZodApp, chat: ChatService): void {
  app.get(
    "/api/chat/stream",
    { schema: ReplyStreamRoute, preValidation: lastEventIdAsAfter },
    async (request, reply) => {
      const user = currentUser(request);
      const input = request.query;
      const entry = await chat.ownedEntry(user, input.id);
      const events = openEventStream(reply, { flushHead: true });
      const lifecycle = app.lifecycle;
      if (lifecycle?.shuttingDown) {
        events.end();
        return;
      }
      let last = input.after;
      const stored = async () =>
        sendEvent(events, last, "done", presentStoredReply(await chat.ownedEntry(user, entry.id)));
      try {
        const following = await chat.live.follow(entry.id, input.after, (event) => {
          last = event.seq;
          // Relayed as appended: the live reply holds what reply-stream.ts's typed emitters sent.
          events.send(event.event, event.data, event.seq);
        });
        if (!following) return await stored();
        const leave = lifecycle?.onShutdown(() => following.close());
        reply.raw.once("close", () => following.close());
        const how = await following.ended;
        leave?.();
        if (how === "lost") await stored();
        // "end": the last event was sent and ended the stream; "closed": a resumable end.
        else if (how === "closed") events.end();
      } catch (error) {
        events.fail(error, request.log, last);
      }
    },
  );
}
