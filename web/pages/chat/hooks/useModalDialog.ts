// The ref that opens a chat dialog (photo viewer, gallery, camera, settings) as a native modal <dialog> on mount.
import { type RefObject, useEffect, useRef } from "react";

/**
 * A chat modal dialog's element (photo viewer, gallery, camera, settings): the native <dialog>
 * given this ref opens as a modal when it mounts, so Escape closes it and the page behind is inert.
 */
export function useModalDialog(): RefObject<HTMLDialogElement | null> {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    if (element && !element.open) element.showModal();
  }, []);
  return dialog;
}
