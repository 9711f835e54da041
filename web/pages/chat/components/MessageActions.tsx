// A message's small menu: Edit, Delete, Rewind to here, and on a reply the prompt inspector.
import { useId, useState } from "react";
import { usePopup } from "../../../hooks/usePopup";
import { editTexts } from "../editTexts";
import { inspectorTexts } from "../inspectorTexts";
import { ChatIcon } from "./ChatIcon";
import { PromptInspector } from "./PromptInspector";

interface MessageActionsProps {
  disabled: boolean;
  /** Absent: no Edit (e.g. a reply that is only a picture). */
  onEdit?: () => void;
  onDelete: () => void;
  onRewind: () => void;
  /**
   * A reply's stored version and its chat (a character or group id): the menu has "Prompt", which
   * opens the prompt inspector on it.
   */
  prompt?: { chatId: string; entryId: string; index: number };
}

/**
 * A message's small menu ("Edit, delete and rewind"): Edit, Delete, Rewind to here, and on a
 * reply Prompt (the prompt inspector's dialog). The
 * chat menus' popup (closes on Escape and on a press outside), opened inside the bubble under its
 * button so the list's scrolling never cuts it off.
 */
export function MessageActions({ disabled, onEdit, onDelete, onRewind, prompt }: MessageActionsProps) {
  const popup = usePopup();
  const id = useId();
  const [inspecting, setInspecting] = useState(false);
  const pick = (action: () => void) => () => {
    popup.setOpen(false);
    action();
  };
  return (
    <div className="message-actions" ref={popup.root}>
      <button
        type="button"
        className="icon-button message-actions__button"
        aria-label={editTexts.messageActions}
        aria-haspopup="menu"
        aria-expanded={popup.open}
        aria-controls={id}
        disabled={disabled}
        onClick={() => popup.setOpen(!popup.open)}
      >
        <ChatIcon d="M6 10a2 2 0 1 0 0 4 2 2 0 0 0 0-4zm6 0a2 2 0 1 0 0 4 2 2 0 0 0 0-4zm6 0a2 2 0 1 0 0 4 2 2 0 0 0 0-4z" />
      </button>
      {popup.open && (
        <div id={id} role="menu" aria-label={editTexts.messageActions} className="message-actions__menu">
          {onEdit && (
            <button type="button" role="menuitem" className="dropdown__item" onClick={pick(onEdit)}>
              {editTexts.edit}
            </button>
          )}
          <button type="button" role="menuitem" className="dropdown__item" onClick={pick(onDelete)}>
            {editTexts.delete}
          </button>
          <button type="button" role="menuitem" className="dropdown__item" onClick={pick(onRewind)}>
            {editTexts.rewind}
          </button>
          {prompt && (
            <button
              type="button"
              role="menuitem"
              className="dropdown__item"
              onClick={pick(() => setInspecting(true))}
            >
              {inspectorTexts.prompt}
            </button>
          )}
        </div>
      )}
      {prompt && inspecting && (
        <PromptInspector
          chatId={prompt.chatId}
          entryId={prompt.entryId}
          index={prompt.index}
          onClose={() => setInspecting(false)}
        />
      )}
    </div>
  );
}
