import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import { currentUser, signedIn } from "../../http/auth";
import { ok } from "../../http/envelope";
import { parseInput } from "../../http/validate";
import { GroupMemberQuery, GroupNewQuery, GroupReplyBody, isMuted } from "./chat.schemas";
import type { GroupsService } from "./groups.service";
import type { TurnService } from "./turn.service";

/** spec 7 group chats: `chat/group/new`, `chat/group/member/add|remove`, `chat/group/reply`. */
export async function groupsRoutes(
  app: FastifyInstance,
  services: { groups: GroupsService; turns: TurnService },
  auth: onRequestAsyncHookHandler,
): Promise<void> {
  await signedIn(app, auth, (app) => {
    const { groups, turns } = services;

    app.get("/api/chat/group/new", async (request) => {
      const query = parseInput(GroupNewQuery, request.query);
      const page = await groups.newGroup(currentUser(request), query.cId);
      return ok("Group created.", { page });
    });

    app.get("/api/chat/group/member/add", async (request) => {
      const query = parseInput(GroupMemberQuery, request.query);
      const page = await groups.addMember(currentUser(request), query.gId, query.cId);
      return ok("Member added.", { page });
    });

    app.get("/api/chat/group/member/remove", async (request) => {
      const query = parseInput(GroupMemberQuery, request.query);
      const page = await groups.removeMember(currentUser(request), query.gId, query.cId);
      return ok("Member removed.", { page });
    });

    app.post("/api/chat/group/reply", async (request) => {
      const body = parseInput(GroupReplyBody, request.body);
      const answer = await turns.groupReply(currentUser(request), {
        message: body.message,
        chatId: body.id,
        clientMessageId: body.clientMessageId,
        // issue 7: each member's answer is spoken in its own voice unless muted.
        speak: !isMuted(body.mute),
      });
      request.modelMs = answer.modelMs;
      return answer.reply;
    });
  });
}
