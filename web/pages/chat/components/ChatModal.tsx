// The native modal <dialog> the chat's photo gallery and camera window open in.
import type { KeyboardEvent, ReactNode, RefObject } from "react";

interface ChatModalProps {
  /** The dialog's element, from `useModalDialog` (it opens as a modal on mount). */
  dialog: RefObject<HTMLDialogElement | null>;
  /** The class after `chat-dialog`, e.g. "camera-window". */
  className: string;
  /** The dialog's accessible name. */
  label: string;
  /** The dialog closed (Escape, or its own Close). */
  onClose: () => void;
  onKeyDown?: (event: KeyboardEvent<HTMLDialogElement>) => void;
  children: ReactNode;
}

/** A chat modal (class `chat-dialog <className>`, labelled `label`): Escape closes it. */
export function ChatModal({ dialog, className, label, onClose, onKeyDown, children }: ChatModalProps) {
  return (
    <dialog
      ref={dialog}
      className={`chat-dialog ${className}`}
      aria-label={label}
      onClose={onClose}
      onKeyDown={onKeyDown}
    >
      {children}
    </dialog>
  );
}
