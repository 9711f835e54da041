// The chat's read routes (product.md §7 "Chat"): the chat profile and the history pages.
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import type {
  ChatHistoryPageReply,
  ChatHistoryReply,
  ChatProfileInfo,
  ChatProfileReply,
} from "../../../common/api";
import { assertSelf, currentUser, signedIn } from "../../http/auth";
import { ok, okWith } from "../../http/envelope";
import { GET_WRITES } from "../../http/route-writes";
import { msg } from "../../i18n/messages";
import { displayName } from "../conversation/chats.service";
import type { Conversation } from "../conversation/conversation";
import { presentHistoryEntry } from "../conversation/conversation.presenter";
import { fillPlaceholders } from "../prompt/prompt";
import { presentProfileCharacter } from "./chat.presenter";
import { HistoryPageRoute, HistoryRoute, ProfileRoute } from "./chat.schemas";

/** product.md §7 "Chat" reads: the chat profile and the history pages (the greeting comes first). */
export async function historyRoutes(
  app: FastifyInstance,
  conversation: Conversation,
  auth: onRequestAsyncHookHandler,
): Promise<void> {
  await signedIn(app, auth, (app) => {
    /** product.md §3 "Chat profile": the user and the chat's characters, greetings filled in. */
    app.get("/api/chat/profile/", { schema: ProfileRoute }, async (request): Promise<ChatProfileReply> => {
      const user = currentUser(request);
      const { query } = request;
      assertSelf(user.id, query.uid);
      const chat = await conversation.chats.resolveChat(user, query.id);
      const info: ChatProfileInfo = {
        userPicture: user.picture,
        userName: user.user_name,
        name: user.full_name,
        characters: chat.members.map((m) => ({
          ...presentProfileCharacter(m, chat.groupId),
          greeting: fillPlaceholders(m.greeting, m.name, displayName(user)),
        })),
      };
      return okWith(msg("chat.chatProfile"), { info });
    });

    // The history's reads store the greeting of a new chat and clear its unread check-ins (GET_WRITES).
    app.get(
      "/api/chat/history/paginated",
      { config: GET_WRITES, schema: HistoryPageRoute },
      async (request): Promise<ChatHistoryPageReply> => {
        const user = currentUser(request);
        const { query } = request;
        assertSelf(user.id, query.uId);
        const rows = await conversation.history.historyPage(user, query.id, query.offset, query.limit);
        // The page's swipes in one query.
        const swipes = await conversation.history.swipesOf(rows);
        return ok(msg("chat.history"), {
          data: rows.map((row) => presentHistoryEntry(row, swipes.get(row.id))),
        });
      },
    );

    /**
     * product.md §7 `chat/history`: data.data is the list of entries, oldest first. Paged, never silently
     * cut: at most HISTORY_CALL_MAX entries from `offset` (counted from the newest),
     * and data.more is 1 when older entries remain (ask again with offset + the entries shown).
     */
    app.get(
      "/api/chat/history",
      { config: GET_WRITES, schema: HistoryRoute },
      async (request): Promise<ChatHistoryReply> => {
        const user = currentUser(request);
        const { query } = request;
        assertSelf(user.id, query.uId);
        // One row past the page says whether older entries remain; it is the oldest, dropped.
        const rows = await conversation.history.historyPage(user, query.id, query.offset, query.limit + 1);
        const more = rows.length > query.limit;
        const shown = more ? rows.slice(1) : rows;
        const swipes = await conversation.history.swipesOf(shown);
        const data = shown.map((row) => presentHistoryEntry(row, swipes.get(row.id)));
        return ok(msg("chat.history"), { data: { data, more: more ? 1 : 0 } });
      },
    );
  });
}
