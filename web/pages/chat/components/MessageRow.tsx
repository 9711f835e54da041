// One bubble of the message list: the user's message or a reply part, with its editor and its tools (swipes, regenerate, edit, delete, rewind).
import { memo } from "react";
import type { ChatHistoryEntry, ChatProfileCharacter } from "../../../../common/api";
import { chatImageUrl, contentUrl } from "../../../lib/content";
import { editTexts } from "../editTexts";
import type { MessageEditing } from "../hooks/useMessageEditing";
import { type StreamingText, useStreamingTail } from "../streamingText";
import { chatTexts } from "../texts";
import { ChatIcon } from "./ChatIcon";
import { MessageActions } from "./MessageActions";
import { ReplyMessage, UserMessage } from "./MessageBubble";
import { MessageEditor } from "./MessageEditor";
import { offersContinue, type ReplyRow, type UserRow } from "./messageRows";
import { SwipeControls } from "./SwipeControls";
import { sameRowProps } from "./stableRowProps";

/** Regenerate's circular arrow (24-unit grid). */
const REGENERATE_ICON =
  "M17.65 6.35A7.96 7.96 0 0 0 12 4a8 8 0 1 0 7.74 10h-2.08A6 6 0 1 1 12 6c1.66 0 3.14.69 4.22 1.78L13 11h7V4l-2.35 2.35z";

/** Whether a stored entry's texts may be changed now: stored, and its reply settled. */
const changeable = (
  entry: ChatHistoryEntry,
  editing: MessageEditing | undefined,
): editing is MessageEditing =>
  editing !== undefined && entry.chatHistoryUUID !== "" && entry.chatHistoryStatus !== "pending";

/** The inline editor of `entry`'s `part` while it is being edited, else undefined. */
function editorFor(
  editing: MessageEditing | undefined,
  entry: ChatHistoryEntry,
  part: "message" | "reply",
  text: string,
) {
  return editing?.editing?.id === entry.chatHistoryUUID && editing.editing.part === part ? (
    <MessageEditor
      initial={text}
      label={part === "message" ? editTexts.editMessage : editTexts.editReply}
      onSave={(value) => editing.saveEdit(entry, part, value)}
      onCancel={editing.cancelEdit}
    />
  ) : undefined;
}

interface UserBubbleProps {
  row: UserRow;
  /** The user's picture, a URL. */
  picture: string;
  /** The chat's id: pictures live under /content/{chat id}/. */
  chatId: string;
  onRetry: (itemKey: string) => void;
  editing: MessageEditing | undefined;
}

/**
 * A user's message (product.md §2, 4): Retry when it failed; edit, delete and rewind once stored.
 * Memoized: it re-renders only when its row or a prop changes (never for another bubble's token).
 */
export const UserBubble = memo(function UserBubble({
  row,
  picture,
  chatId,
  onRetry,
  editing,
}: UserBubbleProps) {
  return (
    <UserMessage
      text={row.text}
      time={row.time}
      picture={picture}
      delivery={row.delivery}
      onRetry={row.delivery === "failed" ? () => onRetry(row.itemKey) : undefined}
      image={row.image ? chatImageUrl(chatId, row.image, "user") : undefined}
      editor={editorFor(editing, row.entry, "message", row.text)}
      tools={
        row.delivery === "sent" && changeable(row.entry, editing) ? (
          <MessageActions
            disabled={editing.busy}
            onEdit={row.text ? () => editing.startEdit(row.entry.chatHistoryUUID, "message") : undefined}
            onDelete={() => editing.remove(row.entry)}
            onRewind={() => editing.rewind(row.entry)}
          />
        ) : undefined
      }
    />
  );
}, sameRowProps);

interface ReplyBubbleProps {
  row: ReplyRow;
  character: ChatProfileCharacter | undefined;
  /** The chat's id: pictures live under /content/{chat id}/. */
  chatId: string;
  /** This is the newest reply bubble and replies may be continued now. */
  mayContinue: boolean;
  onContinue: (entry: ChatHistoryEntry) => void;
  /** The entry's reply may be regenerated (see `regenerableIds`). */
  regenerable: boolean;
  editing: MessageEditing | undefined;
  /** The text streamed since the row was made: a streaming bubble shows it after `row.text`. */
  streamingText?: StreamingText;
}

/**
 * A reply bubble (product.md §2, 4): streaming text, its picture and audio on the last part, Continue
 * on the newest reply, and on a stored reply's last part its swipes, regenerate, edit, delete and rewind.
 * Memoized: the list does not render it again on a token; a streaming bubble reads its tokens from
 * `streamingText` itself, so a token renders this bubble alone. A streaming bubble with no text yet
 * shows nothing (the typing indicator stands for it).
 */
export const ReplyBubble = memo(function ReplyBubble({
  row,
  character,
  chatId,
  mayContinue,
  onContinue,
  regenerable,
  editing,
  streamingText,
}: ReplyBubbleProps) {
  const tail = useStreamingTail(streamingText, row.streaming ? row.itemKey : null);
  const text = row.text + tail;
  const entry = row.entry;
  const continuable = offersContinue(row, mayContinue);
  const swipes = entry.chatHistorySwipes ?? [];
  const chosen = entry.chatHistorySwipeIndex ?? 0;
  // One unit on the meta line: on a narrow bubble it wraps whole, never "…" alone.
  const tools = row.last && !row.streaming && changeable(entry, editing) && (
    <span className="bubble__tools">
      {swipes.length > 1 && (
        <SwipeControls
          index={chosen}
          count={swipes.length}
          disabled={editing.busy}
          onChoose={(index) => editing.swipe(entry, index)}
        />
      )}
      {regenerable && !editing.busy && editing.canReply && (
        <button
          type="button"
          className="bubble__action bubble__regenerate"
          aria-label={editTexts.regenerateReply}
          title={editTexts.regenerateReply}
          onClick={() => editing.regenerate(entry)}
        >
          {/* A phone shows the icon alone (edits.css), a wider screen the word. */}
          <ChatIcon d={REGENERATE_ICON} />
          <span className="bubble__regenerate-label">{editTexts.regenerate}</span>
        </button>
      )}
      <MessageActions
        disabled={editing.busy}
        onEdit={
          entry.chatHistoryReplyMessage ? () => editing.startEdit(entry.chatHistoryUUID, "reply") : undefined
        }
        onDelete={() => editing.remove(entry)}
        onRewind={() => editing.rewind(entry)}
        prompt={{ chatId, entryId: entry.chatHistoryUUID, index: chosen }}
      />
    </span>
  );
  const swipeTo =
    tools && swipes.length > 1 && !editing?.busy
      ? (direction: -1 | 1) => {
          const next = chosen + direction;
          if (next >= 0 && next < swipes.length) editing?.swipe(entry, next);
        }
      : undefined;
  const pictured = row.last && (entry.chatHistoryReplyImage !== "" || entry.chatHistoryImageLoading === 1);
  if (row.streaming && text === "" && !pictured) return null;
  return (
    <ReplyMessage
      text={text}
      time={row.time}
      picture={contentUrl("characters", character?.photo)}
      name={character?.name ?? chatTexts.character}
      streaming={row.streaming}
      audioUrl={row.last && !row.streaming ? entry.chatHistoryReplyAudioUrl : undefined}
      onContinue={continuable ? () => onContinue(entry) : undefined}
      image={
        row.last && entry.chatHistoryReplyImage
          ? chatImageUrl(chatId, entry.chatHistoryReplyImage, "reply")
          : undefined
      }
      imageLoading={row.last && entry.chatHistoryImageLoading === 1}
      tools={tools || undefined}
      editor={row.last ? editorFor(editing, entry, "reply", entry.chatHistoryReplyMessage) : undefined}
      onSwipe={swipeTo}
    />
  );
}, sameRowProps);
