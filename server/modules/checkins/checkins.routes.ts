// Routes of "Characters that write first": read and choose a character's check-ins, and the characters with unread check-ins.
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import { CheckinStatus, envelopeOf, UnreadCheckins } from "../../../common/api";
import { currentUser, signedIn } from "../../http/auth";
import { ok } from "../../http/envelope";
import { msg } from "../../i18n/messages";
import { ChooseBody, checkinsDoc, OpeningReadQuery, StateQuery } from "./checkins.schemas";
import type { CheckinsService } from "./checkins.service";

/** The history reads that open a chat (its newest page): they clear the chat's unread check-ins. */
const OPENING_READS = new Set(["/api/chat/history", "/api/chat/history/paginated"]);

/**
 * Ours ("Characters that write first"):
 * - GET /api/chat/checkins?id=<character id>: `{data: {enabled, timeZone}}`.
 * - POST /api/chat/checkins, form `id`, `enabled` ("1" lets the character write first, "0"
 *   stops it) and `timeZone` (the browser's IANA zone): the new state. 404 for a character that
 *   is not the user's (or a group id); 400 for an unknown zone.
 * - GET /api/chat/checkins/unread: `{data: [{characterUUID, unreadCheckins}]}`, the characters
 *   with check-ins the user has not seen (the characters list's badge).
 * Reading a chat's newest history page (opening it) clears its unread check-ins: a hook on the
 * root instance, so this must be registered before the history routes.
 */
export async function checkinsRoutes(
  app: FastifyInstance,
  checkins: CheckinsService,
  auth: onRequestAsyncHookHandler,
  logError: (error: unknown) => void,
): Promise<void> {
  // A callback hook that returns at once for every other request (no promise per request).
  app.addHook("onResponse", (request, reply, done) => {
    if (reply.statusCode !== 200 || !OPENING_READS.has(request.routeOptions.url ?? "")) {
      done();
      return;
    }
    const query = OpeningReadQuery.parse(request.query);
    if (query.offset !== undefined && String(query.offset) !== "0") {
      done();
      return;
    }
    (async () => {
      await checkins.markRead(currentUser(request), query.id);
    })()
      .catch(logError)
      .finally(() => done());
  });

  await signedIn(app, auth, (app) => {
    const state = {
      ...checkinsDoc("`data`: `CheckinStatus` (enabled, timeZone, characterName)", envelopeOf(CheckinStatus)),
      querystring: StateQuery,
    };
    app.get("/api/chat/checkins", { schema: state }, async (request) => {
      const data: CheckinStatus = await checkins.state(currentUser(request), request.query.id);
      return ok(msg("checkins.checkIns"), { data });
    });

    const choose = {
      ...checkinsDoc(
        "`data`: `CheckinStatus`; `checkins_no_model` without a model",
        envelopeOf(CheckinStatus),
      ),
      body: ChooseBody,
    };
    app.post("/api/chat/checkins", { schema: choose }, async (request) => {
      const { body } = request;
      const data: CheckinStatus = await checkins.choose(
        currentUser(request),
        body.id,
        body.enabled === "1",
        body.timeZone,
      );
      return ok(data.enabled ? msg("checkins.checkInsOn") : msg("checkins.checkInsOff"), { data });
    });

    const unread = checkinsDoc("`data`: `UnreadCheckins[]`", envelopeOf(UnreadCheckins.array()));
    app.get("/api/chat/checkins/unread", { schema: unread }, async (request) => {
      return ok(msg("checkins.unreadCheckIns"), { data: await checkins.unread(currentUser(request)) });
    });
  });
}
