import { type ComponentPropsWithoutRef, type RefObject, useEffect } from "react";

type ChatDialogProps = ComponentPropsWithoutRef<"dialog"> & {
  /** The dialog element, for the caller's Close buttons (`dialog.current?.close()`). */
  dialog: RefObject<HTMLDialogElement | null>;
  /** The dialog's own class, after the shared `chat-dialog`. */
  className: string;
  /** Called once the dialog has closed (Escape, or `close()`). */
  onClose: () => void;
};

/**
 * The chat's modal dialog (photo viewer, gallery, camera, settings): a native <dialog> opened
 * as a modal when it mounts, so Escape closes it and the page behind is inert.
 */
export function ChatDialog({ dialog, className, ...rest }: ChatDialogProps) {
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, [dialog]);
  return <dialog ref={dialog} className={`chat-dialog ${className}`} {...rest} />;
}
