import { useEffect, useRef } from "react";
import { showReplyNotification } from "../../../lib/replySound";
import type { LiveChatItem } from "../liveChat";

/**
 * Settings 'notifications' (spec 2, 4; issue 16): besides the notice sound, a reply that arrives
 * on this screen while the tab is hidden shows a system notification titled with the
 * character's name (`nameOf(characterUUID)`) and the reply's words. Once per reply; replies
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
    const known = seen.current;
    if (known === null) {
      seen.current = new Set(done.map((item) => item.key));
      return;
    }
    for (const item of done) {
      if (known.has(item.key)) continue;
      known.add(item.key);
      if (enabled)
        showReplyNotification(nameOf(item.entry.characterUUID), item.entry.chatHistoryReplyMessage);
    }
  }, [items, enabled, nameOf]);
}
