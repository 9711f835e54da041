// The arrows of a reply with swipes: "‹ 2/3 ›" with Previous reply and Next reply.
import { editTexts } from "../editTexts";
import { IconButton } from "./IconButton";

interface SwipeControlsProps {
  /** The chosen swipe, 0-based. */
  index: number;
  count: number;
  disabled: boolean;
  onChoose: (index: number) => void;
}

/**
 * The arrows of a reply with swipes ("Swipes"): "‹ 2/3 ›", "Previous reply" and
 * "Next reply" off at the ends.
 */
export function SwipeControls({ index, count, disabled, onChoose }: SwipeControlsProps) {
  return (
    <span className="bubble__swipes">
      <IconButton
        className="bubble__swipe"
        label={editTexts.previousReply}
        disabled={disabled || index <= 0}
        onClick={() => onChoose(index - 1)}
      >
        ‹
      </IconButton>
      <span
        className="bubble__position"
        role="status"
        aria-label={editTexts.replyPositionLabel(index, count)}
      >
        {editTexts.replyPosition(index, count)}
      </span>
      <IconButton
        className="bubble__swipe"
        label={editTexts.nextReply}
        disabled={disabled || index >= count - 1}
        onClick={() => onChoose(index + 1)}
      >
        ›
      </IconButton>
    </span>
  );
}
