// A conversation's two halves as the areas that use both are given them: the chats and their history.
import type { Db } from "../../db/index";
import type { CacheGroup } from "../../db/short-cache";
import { ChatsRepo } from "./chats.repo";
import { ChatsService } from "./chats.service";
import { HistoryRepo } from "./history.repo";
import { HistoryService } from "./history.service";

/** A conversation's services: which chat an id names and its session (chats), what was said in it (history). */
export interface Conversation {
  chats: ChatsService;
  history: HistoryService;
}

/**
 * A conversation's services on a database, wired as server/container.ts wires them (tests).
 * @param options.caches the per-process caches' group (none: nothing is cached);
 *   @param options.owner the lease id recorded on the entries stored ("" records none).
 */
export function openConversation(
  db: Db,
  options: { now?: () => number; caches?: CacheGroup; owner?: string } = {},
): Conversation {
  const now = options.now ?? Date.now;
  const chats = new ChatsService(new ChatsRepo(db), now, options.caches);
  const history = new HistoryService(new HistoryRepo(db), chats, now, options.caches, options.owner);
  return { chats, history };
}
