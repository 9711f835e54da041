// Settings 'notifications' (product.md §2, §4): a system notification for a reply that arrives while the tab is hidden.
import { useEffect, useRef } from "react";
import { showReplyNotification } from "../../../lib/replySound";
import type { LiveChatItem } from "../liveChat";

/**
 * Settings 'notifications' (product.md §2, 4): besides the notice sound, a reply that arrives
 * on this screen while the tab is hidden shows a system notification titled with the
 * character's name (`nameOf(characterUUID)`) and the reply's words. Once per reply (by its
 * chatHistoryUUID); replies
 * already there when the screen opened are never announced. Nothing without permission.
 */
export function useReplyNotice(
  items: LiveChatItem[],
  enabled: boolean,
  nameOf: (id: string) => string,
): void {
  const seen = useRef<Set<string> | null>(null);
  useEffect(() => {
    const done = items.filter(
      (item) => item.delivery === "sent" && !item.streaming && item.entry.chatHistoryReplyMessage !== "",
    );
    // A reply is known by its item and by its entry (the entry id may come later, or another
    // item may follow the same entry): either one seen before means it is not news.
    const idsOf = (item: LiveChatItem) => [item.key, item.entry.chatHistoryUUID].filter((id) => id !== "");
    const known = seen.current;
    if (known === null) {
      seen.current = new Set(done.flatMap(idsOf));
      return;
    }
    for (const item of done) {
      const ids = idsOf(item);
      const isNew = !ids.some((id) => known.has(id));
      for (const id of ids) known.add(id);
      if (!isNew) continue;
      if (enabled)
        showReplyNotification(nameOf(item.entry.characterUUID), item.entry.chatHistoryReplyMessage);
    }
  }, [items, enabled, nameOf]);
}
