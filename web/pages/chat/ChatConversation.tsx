import { useMemo } from "react";
import type { ChatProfileInfo } from "../../../common/api";
import { useChatHistory } from "../../hooks/useChatHistory";
import { type LiveChatItem, useChatSender } from "../../hooks/useChatSender";
import { ChatHeader } from "./components/ChatHeader";
import { Composer } from "./components/Composer";
import { MessageList } from "./components/MessageList";

interface ChatConversationProps {
  userId: string;
  info: ChatProfileInfo;
  /** The group id in a group chat, else the character id (spec 4 "Chat loading"). */
  chatId: string;
  isGroup: boolean;
}

/**
 * One chat: the paged history (GET /chat/history/paginated) followed by the messages sent on
 * this screen, the header with the chat status and the composer. Render it with
 * `key={chatId}` so another chat starts from a clean state (spec 4: a new session id reloads).
 */
export function ChatConversation({ userId, info, chatId, isGroup }: ChatConversationProps) {
  const history = useChatHistory(userId, chatId);
  const replier = info.characters[0]?.id ?? "";
  const target = useMemo(() => ({ chatId, characterId: replier }), [chatId, replier]);
  const sender = useChatSender(replier === "" ? null : target);

  const items = useMemo<LiveChatItem[]>(() => {
    const stored = new Set(history.entries.map((entry) => entry.chatHistoryUUID));
    const fromHistory: LiveChatItem[] = history.entries.map((entry) => ({
      key: entry.chatHistoryUUID,
      entry,
      delivery: "sent",
    }));
    const live = sender.items.filter(
      (item) => item.entry.chatHistoryUUID === "" || !stored.has(item.entry.chatHistoryUUID),
    );
    return [...fromHistory, ...live];
  }, [history.entries, sender.items]);

  return (
    <div className="chat-screen">
      <ChatHeader characters={info.characters} isGroup={isGroup} status={sender.status} />
      <MessageList
        items={items}
        characters={info.characters}
        userPicture={info.userPicture}
        isReplying={sender.isReplying}
        isLoading={history.isLoading}
        hasEarlier={history.hasEarlier}
        isLoadingEarlier={history.isLoadingEarlier}
        onLoadEarlier={history.loadEarlier}
      />
      <Composer canSend={sender.canSend && !history.isLoading} onSend={sender.send} />
    </div>
  );
}
