import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import type { ChatProfileInfo } from "../../../common/api";
import { assertSelf, currentUser, signedIn } from "../../http/auth";
import { ok } from "../../http/envelope";
import { parseInput } from "../../http/validate";
import { presentHistoryEntry } from "../conversation/conversation.presenter";
import { type ConversationService, displayName } from "../conversation/conversation.service";
import { fillPlaceholders } from "../conversation/prompt";
import { presentProfileCharacter } from "./chat.presenter";
import { HistoryQuery, ProfileQuery } from "./chat.schemas";

/** spec 7 "Chat" reads: the chat profile and the history pages (the greeting comes first). */
export async function historyRoutes(
  app: FastifyInstance,
  conversation: ConversationService,
  auth: onRequestAsyncHookHandler,
): Promise<void> {
  await signedIn(app, auth, (app) => {
    /** spec 3 "Chat profile": the user and the chat's characters, greetings filled in. */
    app.get("/api/chat/profile/", async (request) => {
      const user = currentUser(request);
      const query = parseInput(ProfileQuery, request.query);
      assertSelf(user.id, query.uid);
      const chat = await conversation.resolveChat(user, query.id);
      const info: ChatProfileInfo = {
        userPicture: user.picture,
        userName: user.user_name,
        name: user.full_name,
        characters: chat.members.map((m) => ({
          ...presentProfileCharacter(m, chat.groupId),
          greeting: fillPlaceholders(m.greeting, m.name, displayName(user)),
        })),
      };
      return { ...ok("Chat profile."), info };
    });

    app.get("/api/chat/history/paginated", async (request) => {
      const user = currentUser(request);
      const query = parseInput(HistoryQuery, request.query);
      assertSelf(user.id, query.uId);
      const rows = await conversation.historyPage(user, query.id, query.offset, query.limit);
      return ok("History.", { data: rows.map(presentHistoryEntry) });
    });

    app.get("/api/chat/history", async (request) => {
      const user = currentUser(request);
      const query = parseInput(HistoryQuery, request.query);
      assertSelf(user.id, query.uId);
      const rows = await conversation.historyPage(user, query.id, 0, 100);
      return ok("History.", { data: { data: rows.map(presentHistoryEntry) } });
    });
  });
}
