// A conversation's two halves as the areas that use both are given them: the chats and their history.
import type { ChatsService } from "./chats.service";
import type { HistoryService } from "./history.service";

/**
 * A conversation's services: which chat an id names and its session (chats), what was said in it
 * (history). Built by server/container/conversation.ts.
 */
export interface Conversation {
  chats: ChatsService;
  history: HistoryService;
}
