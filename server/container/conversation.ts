// Builds a conversation's two halves, the chats and their history, on a database (the container and tests).
import type { Db } from "../db/index";
import type { CacheGroup } from "../db/short-cache";
import { ChatsRepo } from "../modules/conversation/chats.repo";
import { ChatsService } from "../modules/conversation/chats.service";
import type { Conversation } from "../modules/conversation/conversation";
import { HistoryRepo } from "../modules/conversation/history.repo";
import { HistoryService } from "../modules/conversation/history.service";
import { VersionsRepo } from "../modules/conversation/versions.repo";

/**
 * A conversation's services on a database.
 * @param options.caches the per-process caches' group (none: nothing is cached);
 * @param options.owner the lease id recorded on the entries stored ("" records none).
 */
export function openConversation(
  db: Db,
  options: { now?: () => number; caches?: CacheGroup; owner?: string } = {},
): Conversation {
  const now = options.now ?? Date.now;
  const chats = new ChatsService(new ChatsRepo(db), now, options.caches);
  const history = new HistoryService(
    new HistoryRepo(db, new VersionsRepo(db)),
    chats,
    now,
    options.caches,
    options.owner,
  );
  return { chats, history };
}
