import { useRef } from "react";
import { chatTexts } from "../texts";
import { ChatDialog } from "./ChatDialog";

/** A photo shown full size in a modal dialog with a Close button (spec 2); Escape closes it. */
export function PhotoViewer({ src, name, onClose }: { src: string; name: string; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <ChatDialog
      dialog={dialog}
      className="photo-viewer"
      aria-label={chatTexts.photoOf(name)}
      onClose={onClose}
    >
      <img src={src} alt={chatTexts.photoOf(name)} className="photo-viewer__image" />
      <button type="button" className="button button--primary" onClick={() => dialog.current?.close()}>
        {chatTexts.close}
      </button>
    </ChatDialog>
  );
}
