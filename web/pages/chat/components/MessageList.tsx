import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { ChatProfileCharacter } from "../../../../common/api";
import { FIRST_MESSAGE_MARKER, SCROLL_BUTTON_THRESHOLD_PX } from "../../../../common/constants";
import { Spinner } from "../../../components/Spinner";
import type { LiveChatItem } from "../../../hooks/useChatSender";
import { contentUrl } from "../../../lib/content";
import { formatHourMinute } from "../../../lib/text";
import { ReplyMessage, UserMessage } from "./MessageBubble";
import { TypingIndicator } from "./TypingIndicator";

/** One history entry to show, with its delivery state (history entries are 'sent'). */
export type ChatItem = LiveChatItem;

/** One bubble of the list. */
type Row =
  | { key: string; kind: "user"; text: string; time: string; delivery: ChatItem["delivery"] }
  | { key: string; kind: "reply"; text: string; time: string; characterId: string };

/**
 * The bubbles of the history (spec 2, 4): the user's message unless empty or the
 * '##first-message##' marker, then the reply, or the split parts revealed so far.
 */
function toRows(items: ChatItem[]): Row[] {
  const rows: Row[] = [];
  for (const { key, entry, delivery, replyParts } of items) {
    if (entry.chatHistoryMessage !== "" && entry.chatHistoryMessage !== FIRST_MESSAGE_MARKER) {
      rows.push({
        key: `${key}:user`,
        kind: "user",
        text: entry.chatHistoryMessage,
        time: formatHourMinute(entry.chatHistorySendTime),
        delivery,
      });
    }
    const replies =
      replyParts ?? (entry.chatHistoryReplyMessage !== "" ? [entry.chatHistoryReplyMessage] : []);
    const time = formatHourMinute(entry.chatHistoryReplyTime);
    replies.forEach((text, index) => {
      rows.push({
        key: `${key}:reply:${index}`,
        kind: "reply",
        text,
        time,
        characterId: entry.characterUUID,
      });
    });
  }
  return rows;
}

interface MessageListProps {
  items: ChatItem[];
  characters: ChatProfileCharacter[];
  userPicture: string;
  isReplying: boolean;
  isLoading: boolean;
  hasEarlier: boolean;
  isLoadingEarlier: boolean;
  onLoadEarlier: () => void;
}

/** Within this many pixels of the bottom the list follows new messages. */
const STICK_TO_BOTTOM_PX = 80;
/** Within this many pixels of the top the previous page is requested. */
const LOAD_EARLIER_PX = 40;

/**
 * The message list (spec 2, 4): user messages right, replies left, the typing indicator, and
 * the scrolling rules: a growing history scrolls to the bottom unless the user scrolled up;
 * reaching the top loads the previous page and keeps the view where it was; a
 * scroll-to-bottom button appears beyond 800 px from the bottom (spec 9).
 */
export function MessageList({
  items,
  characters,
  userPicture,
  isReplying,
  isLoading,
  hasEarlier,
  isLoadingEarlier,
  onLoadEarlier,
}: MessageListProps) {
  const container = useRef<HTMLDivElement>(null);
  const followBottom = useRef(true);
  const restore = useRef<{ height: number; top: number } | null>(null);
  const [showJump, setShowJump] = useState(false);

  const rows = useMemo(() => toRows(items), [items]);
  const firstKey = rows[0]?.key;
  const bubbleCount = rows.length;

  const requestEarlier = useCallback(() => {
    const element = container.current;
    if (element === null || !hasEarlier || isLoadingEarlier) return;
    restore.current = { height: element.scrollHeight, top: element.scrollTop };
    onLoadEarlier();
  }, [hasEarlier, isLoadingEarlier, onLoadEarlier]);

  // Keep the view still when older entries are prepended.
  // biome-ignore lint/correctness/useExhaustiveDependencies: firstKey changes when a page is prepended
  useLayoutEffect(() => {
    const element = container.current;
    const saved = restore.current;
    if (element === null || saved === null) return;
    restore.current = null;
    if (followBottom.current) return;
    element.scrollTop = element.scrollHeight - saved.height + saved.top;
  }, [firstKey]);

  // Follow new messages unless the user scrolled up.
  // biome-ignore lint/correctness/useExhaustiveDependencies: bubbleCount and isReplying are the triggers
  useLayoutEffect(() => {
    const element = container.current;
    if (element !== null && followBottom.current) element.scrollTop = element.scrollHeight;
  }, [bubbleCount, isReplying]);

  // A first page too short to scroll could never reach "the top": fetch more right away.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-check whenever the content changes
  useEffect(() => {
    const element = container.current;
    if (element === null || isLoading) return;
    if (element.scrollHeight <= element.clientHeight + LOAD_EARLIER_PX) requestEarlier();
  }, [bubbleCount, isLoading, requestEarlier]);

  const onScroll = () => {
    const element = container.current;
    if (element === null) return;
    const fromBottom = element.scrollHeight - element.scrollTop - element.clientHeight;
    followBottom.current = fromBottom < STICK_TO_BOTTOM_PX;
    setShowJump(fromBottom > SCROLL_BUTTON_THRESHOLD_PX);
    if (element.scrollTop < LOAD_EARLIER_PX) requestEarlier();
  };

  const scrollToBottom = () => {
    const element = container.current;
    if (element === null) return;
    followBottom.current = true;
    element.scrollTo({ top: element.scrollHeight, behavior: "smooth" });
  };

  const userPictureUrl = contentUrl("users", userPicture);
  const first = characters[0];
  const characterFor = (id: string) => characters.find((character) => character.id === id) ?? first;

  return (
    <div className="message-area">
      <div ref={container} className="message-list" role="log" aria-label="Messages" onScroll={onScroll}>
        {isLoadingEarlier && (
          <div className="center-block center-block--tight">
            <Spinner size="small" label="Loading earlier messages" />
          </div>
        )}
        {isLoading && (
          <div className="center-block">
            <Spinner label="Loading messages" />
          </div>
        )}
        {rows.map((row) => {
          if (row.kind === "user") {
            return (
              <UserMessage
                key={row.key}
                text={row.text}
                time={row.time}
                picture={userPictureUrl}
                delivery={row.delivery}
              />
            );
          }
          const character = characterFor(row.characterId);
          return (
            <ReplyMessage
              key={row.key}
              text={row.text}
              time={row.time}
              picture={contentUrl("characters", character?.photo)}
              name={character?.name ?? "Character"}
            />
          );
        })}
        {isReplying && first && (
          <TypingIndicator picture={contentUrl("characters", first.photo)} name={first.name} />
        )}
      </div>
      {showJump && (
        <button type="button" className="jump-button" aria-label="Scroll to bottom" onClick={scrollToBottom}>
          ↓
        </button>
      )}
    </div>
  );
}
