import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { ChatHistoryEntry, ChatProfileCharacter } from "../../../../common/api";
import { FIRST_MESSAGE_MARKER, SCROLL_BUTTON_THRESHOLD_PX } from "../../../../common/constants";
import { Spinner } from "../../../components/Spinner";
import { chatImageUrl, contentUrl } from "../../../lib/content";
import { formatHourMinute } from "../../../lib/text";
import { editTexts } from "../editTexts";
import { regenerableIds } from "../historyEdits";
import type { MessageEditing } from "../hooks/useMessageEditing";
import type { LiveChatItem } from "../liveChat";
import { chatTexts } from "../texts";
import { MessageActions } from "./MessageActions";
import { ReplyMessage, UserMessage } from "./MessageBubble";
import { MessageEditor } from "./MessageEditor";
import { SwipeControls } from "./SwipeControls";
import { TypingIndicator } from "./TypingIndicator";
import "../edits.css";

/** One history entry to show, with its delivery state (history entries are 'sent'). */
export type ChatItem = LiveChatItem;

/** One bubble of the list. */
type Row =
  | {
      key: string;
      kind: "user";
      itemKey: string;
      text: string;
      time: string;
      delivery: ChatItem["delivery"];
      /** The photo sent with the message: a file name under {chat id}/user_photo/, or a blob: URL. */
      image: string;
      entry: ChatHistoryEntry;
    }
  | {
      key: string;
      kind: "reply";
      text: string;
      time: string;
      characterId: string;
      entry: ChatHistoryEntry;
      streaming: boolean;
      /** The last bubble of the entry's reply: it carries the reply's audio. */
      last: boolean;
    };

/**
 * The bubbles of the history (product.md §2, 4): the user's message unless empty or the
 * '##first-message##' marker, then the reply, or the split parts revealed so far.
 */
function toRows(items: ChatItem[]): Row[] {
  const rows: Row[] = [];
  for (const { key, entry, delivery, replyParts, streaming = false } of items) {
    const photo = entry.chatHistoryMessageImage ?? "";
    if (
      (entry.chatHistoryMessage !== "" || photo !== "") &&
      entry.chatHistoryMessage !== FIRST_MESSAGE_MARKER
    ) {
      rows.push({
        key: `${key}:user`,
        kind: "user",
        itemKey: key,
        text: entry.chatHistoryMessage,
        time: formatHourMinute(entry.chatHistorySendTime),
        delivery,
        image: photo,
        entry,
      });
    }
    // A reply that is only a picture (or one still being made) is a bubble too.
    const hasPicture = entry.chatHistoryImageLoading === 1 || Boolean(entry.chatHistoryReplyImage);
    const replies =
      replyParts ??
      (entry.chatHistoryReplyMessage !== "" || hasPicture ? [entry.chatHistoryReplyMessage] : []);
    const time = formatHourMinute(entry.chatHistoryReplyTime);
    replies.forEach((text, index) => {
      rows.push({
        key: `${key}:reply:${index}`,
        kind: "reply",
        text,
        time,
        characterId: entry.characterUUID,
        entry,
        streaming,
        last: index === replies.length - 1,
      });
    });
  }
  return rows;
}

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
}

/** Whether a stored entry's texts may be changed now: stored, and its reply settled. */
const changeable = (
  entry: ChatHistoryEntry,
  editing: MessageEditing | undefined,
): editing is MessageEditing =>
  editing !== undefined && entry.chatHistoryUUID !== "" && entry.chatHistoryStatus !== "pending";

/** Within this many pixels of the bottom the list follows new messages. */
const STICK_TO_BOTTOM_PX = 80;
/** Within this many pixels of the top the previous page is requested. */
const LOAD_EARLIER_PX = 40;
/**
 * Bounded rendering: back at the bottom, only the newest this many bubbles stay in
 * the page; older ones stay loaded and come back REVEAL_ROWS at a time when scrolling up,
 * before any earlier page is fetched.
 */
const MAX_RENDERED_AT_BOTTOM = 60;
const REVEAL_ROWS = 20;
/** While older messages are read, at most this many bubbles are rendered; newer ones wait below. */
const MAX_RENDERED = 200;
/** Within this many pixels of the rendered end, bubbles waiting below are shown again. */
const SHOW_LATER_PX = 200;
/** product.md §9: scroll to the bottom 100 ms after a change, 300 ms after the box gains focus. */
const SCROLL_DELAY_MS = 100;
const SCROLL_ON_FOCUS_DELAY_MS = 300;

/**
 * The message list (product.md §2, 4): user messages right, replies left (streaming text shown live),
 * the typing indicator, and the scrolling rules: a growing history scrolls to the bottom
 * unless the user scrolled up; reaching the top loads the previous page and keeps the view
 * where it was; a scroll-to-bottom button appears beyond 800 px from the bottom (product.md §9).
 * Rendering stays bounded however much history is loaded: at most MAX_RENDERED bubbles while
 * reading up and down (the rest stays loaded, shown again REVEAL_ROWS at a time without moving
 * what is in view), and MAX_RENDERED_AT_BOTTOM once back at the bottom.
 */
export function MessageList(props: MessageListProps) {
  const { items, characters, isLoading, hasEarlier, isLoadingEarlier, onLoadEarlier } = props;
  const container = useRef<HTMLDivElement>(null);
  const followBottom = useRef(true);
  const restore = useRef<{ height: number; top: number } | null>(null);
  const [showJump, setShowJump] = useState(false);

  const rows = useMemo(() => toRows(items), [items]);
  // Rows before `hidden` are loaded but not rendered (see MAX_RENDERED_AT_BOTTOM).
  const [hiddenAbove, setHiddenAbove] = useState(0);
  const trimmed = useRef(false);
  const hidden = Math.min(hiddenAbove, rows.length);
  // Rows from `end` on are loaded but not rendered either (while reading far up).
  const [hiddenBelow, setHiddenBelow] = useState(0);
  const below = Math.min(hiddenBelow, rows.length - hidden);
  const end = rows.length - below;
  const keepInView = useRef<{ element: Element; top: number } | null>(null);
  const firstKey = rows[hidden]?.key;
  const bubbleCount = rows.length;
  const lastRow = rows[rows.length - 1];
  const lastLength = lastRow?.text.length ?? 0;

  const requestEarlier = useCallback(() => {
    const element = container.current;
    if (element === null) return;
    if (hidden > 0) {
      restore.current = { height: element.scrollHeight, top: element.scrollTop };
      setHiddenAbove(Math.max(0, hidden - REVEAL_ROWS));
      return;
    }
    if (!hasEarlier || isLoadingEarlier) return;
    restore.current = { height: element.scrollHeight, top: element.scrollTop };
    onLoadEarlier();
  }, [hidden, hasEarlier, isLoadingEarlier, onLoadEarlier]);

  // Keep the view still when older entries are prepended (or shown again); at the bottom, stay there.
  // biome-ignore lint/correctness/useExhaustiveDependencies: firstKey changes when a page is prepended
  useLayoutEffect(() => {
    const element = container.current;
    const saved = restore.current;
    if (element === null) return;
    if (saved === null) {
      if (!followBottom.current && !trimmed.current) return;
      element.scrollTop = element.scrollHeight;
      if (trimmed.current) {
        // The browser's scroll anchoring may move the view once more after a trim: back down.
        trimmed.current = false;
        requestAnimationFrame(() => {
          followBottom.current = true;
          element.scrollTop = element.scrollHeight;
        });
      }
      return;
    }
    restore.current = null;
    if (followBottom.current) return;
    element.scrollTop = element.scrollHeight - saved.height + saved.top;
    // Far below the view now: stop rendering what exceeds MAX_RENDERED (it stays loaded).
    if (end - hidden > MAX_RENDERED) setHiddenBelow(rows.length - hidden - MAX_RENDERED);
  }, [firstKey]);

  // Bubbles dropped above the view while scrolling down: keep what was in view where it was.
  useLayoutEffect(() => {
    const element = container.current;
    const kept = keepInView.current;
    if (element === null || kept === null) return;
    keepInView.current = null;
    element.scrollTop += kept.element.getBoundingClientRect().top - kept.top;
  });

  const stickToBottom = useCallback((delay: number) => {
    const apply = () => {
      const element = container.current;
      if (element !== null && followBottom.current) element.scrollTop = element.scrollHeight;
    };
    apply();
    const timer = window.setTimeout(apply, delay);
    return () => window.clearTimeout(timer);
  }, []);

  // Follow new messages and streaming text unless the user scrolled up.
  // biome-ignore lint/correctness/useExhaustiveDependencies: bubbleCount, lastLength and showTyping are the triggers
  useLayoutEffect(
    () => stickToBottom(SCROLL_DELAY_MS),
    [bubbleCount, lastLength, props.showTyping, stickToBottom],
  );

  useEffect(() => {
    if (props.focusSignal === 0) return;
    const timer = window.setTimeout(() => stickToBottom(0), SCROLL_ON_FOCUS_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [props.focusSignal, stickToBottom]);

  // A first page too short to scroll could never reach "the top": fetch more right away.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-check whenever the content changes
  useEffect(() => {
    const element = container.current;
    if (element === null || isLoading) return;
    if (element.scrollHeight <= element.clientHeight + LOAD_EARLIER_PX) requestEarlier();
  }, [bubbleCount, isLoading, requestEarlier]);

  /**
   * Shows REVEAL_ROWS of the bubbles waiting below when the rendered end is within
   * SHOW_LATER_PX of the view, dropping as many above (MAX_RENDERED) without moving what is in
   * view. @returns the view's distance from the bottom, pixels.
   */
  const showLaterIfNear = (element: HTMLDivElement): number => {
    const fromBottom = element.scrollHeight - element.scrollTop - element.clientHeight;
    if (below > 0 && fromBottom < SHOW_LATER_PX) {
      const nextBelow = Math.max(0, below - REVEAL_ROWS);
      const nextHidden = Math.max(hidden, rows.length - nextBelow - MAX_RENDERED);
      if (nextHidden > hidden) {
        const listTop = element.getBoundingClientRect().top;
        const inView = [...element.querySelectorAll("article")].find(
          (article) => article.getBoundingClientRect().bottom > listTop,
        );
        if (inView) keepInView.current = { element: inView, top: inView.getBoundingClientRect().top };
        setHiddenAbove(nextHidden);
      }
      setHiddenBelow(nextBelow);
    }
    return fromBottom;
  };

  // A scroll that arrived while the previous reveal was still being rendered saw the old rows:
  // check again once they are in the page, so reading down never stalls at the rendered end.
  // biome-ignore lint/correctness/useExhaustiveDependencies: re-check after each change of the window
  useEffect(() => {
    const element = container.current;
    if (element !== null && below > 0 && !followBottom.current) showLaterIfNear(element);
  }, [below, hidden]);

  const onScroll = () => {
    const element = container.current;
    if (element === null) return;
    const fromBottom = showLaterIfNear(element);
    followBottom.current = fromBottom < STICK_TO_BOTTOM_PX && below === 0;
    setShowJump(fromBottom > SCROLL_BUTTON_THRESHOLD_PX || below > 0);
    // Trim only once the list rests at the very bottom (not during a smooth scroll to it).
    if (fromBottom < 2 && below === 0 && rows.length - hidden > MAX_RENDERED_AT_BOTTOM) {
      trimmed.current = true;
      setHiddenAbove(rows.length - MAX_RENDERED_AT_BOTTOM);
    }
    if (element.scrollTop < LOAD_EARLIER_PX) requestEarlier();
  };

  const scrollToBottom = () => {
    const element = container.current;
    if (element === null) return;
    followBottom.current = true;
    if (below > 0) {
      // Far from the newest messages: jump there, rendering only the newest ones.
      trimmed.current = true;
      setHiddenBelow(0);
      setHiddenAbove(Math.max(0, rows.length - MAX_RENDERED_AT_BOTTOM));
      return;
    }
    element.scrollTo({ top: element.scrollHeight, behavior: "smooth" });
  };

  const userPictureUrl = contentUrl("users", props.userPicture);
  const first = characters[0];
  const characterFor = (id: string) => characters.find((character) => character.id === id) ?? first;
  const typingCharacter = characterFor(props.typingCharacterId);
  const editing = props.editing;
  const regenerable = useMemo(
    () => regenerableIds(items, editing?.isGroup ?? false),
    [items, editing?.isGroup],
  );
  const editorFor = (entry: ChatHistoryEntry, part: "message" | "reply", text: string) =>
    editing?.editing?.id === entry.chatHistoryUUID && editing.editing.part === part ? (
      <MessageEditor
        initial={text}
        label={part === "message" ? editTexts.editMessage : editTexts.editReply}
        onSave={(value) => editing.saveEdit(entry, part, value)}
        onCancel={editing.cancelEdit}
      />
    ) : undefined;
  let lastReplyIndex = -1;
  rows.forEach((row, index) => {
    if (row.kind === "reply") lastReplyIndex = index;
  });

  return (
    <div className="message-area">
      <div
        ref={container}
        className="message-list"
        role="log"
        aria-label={chatTexts.messages}
        onScroll={onScroll}
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
          if (row.kind === "user") {
            return (
              <UserMessage
                key={row.key}
                text={row.text}
                time={row.time}
                picture={userPictureUrl}
                delivery={row.delivery}
                onRetry={row.delivery === "failed" ? () => props.onRetry(row.itemKey) : undefined}
                image={row.image ? chatImageUrl(props.chatId ?? "", row.image, "user") : undefined}
                editor={editorFor(row.entry, "message", row.text)}
                tools={
                  row.delivery === "sent" && changeable(row.entry, editing) ? (
                    <MessageActions
                      disabled={editing.busy}
                      onEdit={
                        row.text ? () => editing.startEdit(row.entry.chatHistoryUUID, "message") : undefined
                      }
                      onDelete={() => editing.remove(row.entry)}
                      onRewind={() => editing.rewind(row.entry)}
                    />
                  ) : undefined
                }
              />
            );
          }
          const character = characterFor(row.characterId);
          const continuable =
            props.canContinue &&
            index === lastReplyIndex &&
            !row.streaming &&
            row.entry.chatHistoryUUID !== "" &&
            // A picture's reply is not text to continue.
            row.entry.chatHistoryImageLoading !== 1 &&
            row.entry.chatHistoryReplyImage === "";
          const entry = row.entry;
          const alternatives = entry.chatHistoryAlternatives ?? [];
          const chosen = entry.chatHistoryAlternativeIndex ?? 0;
          const tools = row.last && !row.streaming && changeable(entry, editing) && (
            <>
              {alternatives.length > 1 && (
                <SwipeControls
                  index={chosen}
                  count={alternatives.length}
                  disabled={editing.busy}
                  onChoose={(index) => editing.swipe(entry, index)}
                />
              )}
              {regenerable.has(entry.chatHistoryUUID) && !editing.busy && editing.canReply && (
                <button
                  type="button"
                  className="bubble__action"
                  aria-label={editTexts.regenerateReply}
                  onClick={() => editing.regenerate(entry)}
                >
                  {editTexts.regenerate}
                </button>
              )}
              <MessageActions
                disabled={editing.busy}
                onEdit={
                  entry.chatHistoryReplyMessage
                    ? () => editing.startEdit(entry.chatHistoryUUID, "reply")
                    : undefined
                }
                onDelete={() => editing.remove(entry)}
                onRewind={() => editing.rewind(entry)}
              />
            </>
          );
          const swipeTo =
            tools && alternatives.length > 1 && !editing?.busy
              ? (direction: -1 | 1) => {
                  const next = chosen + direction;
                  if (next >= 0 && next < alternatives.length) editing?.swipe(entry, next);
                }
              : undefined;
          return (
            <ReplyMessage
              key={row.key}
              text={row.text}
              time={row.time}
              picture={contentUrl("characters", character?.photo)}
              name={character?.name ?? chatTexts.character}
              streaming={row.streaming}
              audioUrl={row.last && !row.streaming ? row.entry.chatHistoryReplyAudioUrl : undefined}
              onContinue={continuable ? () => props.onContinue(row.entry) : undefined}
              image={
                row.last && row.entry.chatHistoryReplyImage
                  ? chatImageUrl(props.chatId ?? "", row.entry.chatHistoryReplyImage, "reply")
                  : undefined
              }
              imageLoading={row.last && row.entry.chatHistoryImageLoading === 1}
              tools={tools || undefined}
              editor={row.last ? editorFor(entry, "reply", entry.chatHistoryReplyMessage) : undefined}
              onSwipe={swipeTo}
            />
          );
        })}
        {props.showTyping && typingCharacter && below === 0 && (
          <TypingIndicator
            picture={contentUrl("characters", typingCharacter.photo)}
            name={typingCharacter.name}
          />
        )}
      </div>
      {showJump && (
        <button
          type="button"
          className="jump-button"
          aria-label={chatTexts.scrollToBottom}
          onClick={scrollToBottom}
        >
          ↓
        </button>
      )}
    </div>
  );
}
