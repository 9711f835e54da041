// The message list (product.md §2, §4, §9): user messages and replies, typing indicator, scrolling and paging up.
import { useDeferredValue, useMemo } from "react";
import type { ChatHistoryEntry, ChatProfileCharacter } from "../../../../common/api";
import { Spinner } from "../../../components/Spinner";
import { contentUrl } from "../../../lib/content";
import { regenerableIds } from "../historyEdits";
import type { MessageEditing } from "../hooks/useMessageEditing";
import type { LiveChatItem } from "../liveChat";
import type { StreamingText } from "../streamingText";
import { chatTexts } from "../texts";
import { IconButton } from "./IconButton";
import { ReplyBubble, UserBubble } from "./MessageRow";
import { lastReplyIndex, toRows } from "./messageRows";
import { useStableCallback, useStableEditing } from "./stableRowProps";
import { TypingIndicator } from "./TypingIndicator";
import { useMessageListScroll } from "./useMessageListScroll";
import "../edits.css";

/** One history entry to show, with its delivery state (history entries are 'sent'). */
export type ChatItem = LiveChatItem;

/** The items a list shows before its first deferred render. */
const NO_ITEMS: ChatItem[] = [];

interface MessageListProps {
  items: ChatItem[];
  characters: ChatProfileCharacter[];
  userPicture: string;
  /** Show the typing indicator (a reply is pending and none of its text has arrived). */
  showTyping: boolean;
  /** The character whose reply is pending (for the typing indicator). */
  typingCharacterId: string;
  /** Whether the newest reply may be continued now. */
  canContinue: boolean;
  onContinue: (entry: ChatHistoryEntry) => void;
  onRetry: (itemKey: string) => void;
  isLoading: boolean;
  hasEarlier: boolean;
  isLoadingEarlier: boolean;
  onLoadEarlier: () => void;
  /** Changes whenever the message box gains focus (product.md §9: scroll to the bottom after 300 ms). */
  focusSignal: number;
  /** The chat's id: pictures live under /content/{chat id}/. */
  chatId?: string;
  /** swipes, regenerate, edit, delete and rewind; absent: none offered. */
  editing?: MessageEditing;
  /** A message found by search to scroll to and highlight, once loaded. */
  jumpTo?: { entryId: string; side: "user" | "reply" };
  /** The text streaming into the replies (read by the streaming bubble and the follow of the bottom). */
  streamingText?: StreamingText;
}

/**
 * The message list (product.md §2, 4): user messages right, replies left (streaming text shown live
 * by the streaming bubble alone: the list does not render on a token),
 * the typing indicator, and the scrolling rules of `useMessageListScroll`: a growing history
 * scrolls to the bottom unless the user scrolled up; reaching the top loads the previous page; a
 * scroll-to-bottom button appears beyond 800 px from the bottom (product.md §9); rendering stays
 * bounded however much history is loaded.
 */
export function MessageList(props: MessageListProps) {
  const { items, characters, isLoading, isLoadingEarlier } = props;
  // Props of one identity for the memoized rows: a token re-renders only the streaming bubble.
  const editing = useStableEditing(props.editing);
  const onRetry = useStableCallback(props.onRetry);
  const onContinue = useStableCallback(props.onContinue);
  // The bubbles render as a deferred update, in slices the browser can paint between: opening a
  // long chat, a page of history or a send makes no long task (the bubbles show a frame later).
  const shown = useDeferredValue(items, NO_ITEMS);
  const rows = useMemo(() => toRows(shown), [shown]);
  const scroll = useMessageListScroll({ ...props, rows, settled: shown === items });
  const { hidden, end } = scroll;

  const userPictureUrl = contentUrl("users", props.userPicture);
  const first = characters[0];
  const characterFor = (id: string) => characters.find((character) => character.id === id) ?? first;
  const typingCharacter = characterFor(props.typingCharacterId);
  const regenerable = useMemo(
    () => regenerableIds(shown, editing?.isGroup ?? false),
    [shown, editing?.isGroup],
  );
  const newestReply = lastReplyIndex(rows);
  const chatId = props.chatId ?? "";

  return (
    <div className="message-area">
      <div
        ref={scroll.container}
        className="message-list"
        role="log"
        aria-label={chatTexts.messages}
        onScroll={scroll.onScroll}
      >
        {isLoadingEarlier && (
          <div className="message-list__earlier">
            <Spinner size="small" label={chatTexts.loadingEarlier} />
          </div>
        )}
        {isLoading && (
          <div className="center-block">
            <Spinner label={chatTexts.loadingMessages} />
          </div>
        )}
        {rows.map((row, index) => {
          if (index < hidden || index >= end) return null;
          const bubble =
            row.kind === "user" ? (
              <UserBubble
                key={row.key}
                row={row}
                picture={userPictureUrl}
                chatId={chatId}
                onRetry={onRetry}
                editing={editing}
              />
            ) : (
              <ReplyBubble
                key={row.key}
                row={row}
                character={characterFor(row.characterId)}
                chatId={chatId}
                mayContinue={props.canContinue && index === newestReply}
                onContinue={onContinue}
                regenerable={regenerable.has(row.entry.chatHistoryUUID)}
                editing={editing}
                streamingText={props.streamingText}
              />
            );
          // The message search jumped to: highlighted (its wrapper takes no box of its own).
          return row.key === scroll.found ? (
            <div key={row.key} className="message-found" data-found="">
              {bubble}
            </div>
          ) : (
            bubble
          );
        })}
        {props.showTyping && typingCharacter && scroll.below === 0 && (
          <TypingIndicator
            picture={contentUrl("characters", typingCharacter.photo)}
            name={typingCharacter.name}
          />
        )}
      </div>
      {scroll.showJump && (
        <IconButton className="jump-button" label={chatTexts.scrollToBottom} onClick={scroll.scrollToBottom}>
          ↓
        </IconButton>
      )}
    </div>
  );
}
