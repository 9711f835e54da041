// A photo shown full size in a modal dialog with Close (product.md §2).
import { useModalDialog } from "../hooks/useModalDialog";
import { chatTexts } from "../texts";

/** A photo shown full size in a modal dialog with a Close button (product.md §2); Escape closes it. */
export function PhotoViewer({ src, name, onClose }: { src: string; name: string; onClose: () => void }) {
  const dialog = useModalDialog();
  return (
    <dialog
      ref={dialog}
      className="chat-dialog photo-viewer"
      aria-label={chatTexts.photoOf(name)}
      onClose={onClose}
    >
      <img src={src} alt={chatTexts.photoOf(name)} className="photo-viewer__image" />
      <button type="button" className="button button--primary" onClick={() => dialog.current?.close()}>
        {chatTexts.close}
      </button>
    </dialog>
  );
}
