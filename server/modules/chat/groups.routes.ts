// The group chat routes (product.md §7): new group, add or remove a member, and the group reply (plain or streamed).
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import { currentUser, signedIn } from "../../http/auth";
import { ok } from "../../http/envelope";
import { answerPlainOrStreamed } from "../../http/plain-or-streamed";
import { GET_WRITES } from "../../http/route-writes";
import { msg } from "../../i18n/messages";
import { turnInput } from "./chat.routes";
import { GroupMemberAddRoute, GroupMemberRemoveRoute, GroupNewRoute, GroupReplyRoute } from "./chat.schemas";
import type { ChatService } from "./chat.service";
import type { GroupsService } from "./groups.service";
import { GroupStreamedReply } from "./reply-stream";
import type { TurnService } from "./turn.service";

/**
 * product.md §7 group chats: `chat/group/new`, `chat/group/member/add|remove`, `chat/group/reply`.
 * `chat/group/reply` streams with `stream=1` or `Accept: text/event-stream`: per member
 * in turn order `entry`, `token`s, `audio`s, then `done` with the plain answer (GroupStreamedReply).
 */
export async function groupsRoutes(
  app: FastifyInstance,
  services: { groups: GroupsService; turns: TurnService; chat: Pick<ChatService, "live"> },
  auth: onRequestAsyncHookHandler,
): Promise<void> {
  await signedIn(app, auth, (app) => {
    const { groups, turns } = services;

    // GETs by the spec that change a group (they declare so: GET_WRITES).
    app.get("/api/chat/group/new", { config: GET_WRITES, schema: GroupNewRoute }, async (request) => {
      const page = await groups.newGroup(currentUser(request), request.query.cId);
      return ok(msg("chat.groupCreated"), { page });
    });

    app.get(
      "/api/chat/group/member/add",
      { config: GET_WRITES, schema: GroupMemberAddRoute },
      async (request) => {
        const { query } = request;
        const page = await groups.addMember(currentUser(request), query.gId, query.cId);
        return ok(msg("chat.memberAdded"), { page });
      },
    );

    app.get(
      "/api/chat/group/member/remove",
      { config: GET_WRITES, schema: GroupMemberRemoveRoute },
      async (request) => {
        const { query } = request;
        const page = await groups.removeMember(currentUser(request), query.gId, query.cId);
        return ok(msg("chat.memberRemoved"), { page });
      },
    );

    app.post("/api/chat/group/reply", { schema: GroupReplyRoute }, async (request, reply) => {
      const user = currentUser(request);
      const { body } = request;
      // each member's answer is spoken in its own voice unless muted.
      const input = turnInput(body);
      return answerPlainOrStreamed(request, reply, body.stream, {
        events: (sse) => new GroupStreamedReply(sse, services.chat.live),
        run: (events) => turns.groupReply(user, input, events),
        done: (events, answer) => {
          request.modelMs = answer.modelMs;
          events.finish(answer.reply);
        },
      });
    });
  });
}
